"""Structured logs (issue 17): a JSON line per request and per job, with the request id and order
number; X-Request-ID honoured and sent back; the id carried into queued jobs; Sentry only with a DSN."""

import gzip
import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.conf import settings

from shop import logs
from shop.celery import app
from tests.factories import make_order

pytestmark = pytest.mark.django_db


def _lines(caplog, logger):
    formatter = logs.JsonFormatter()
    return [json.loads(formatter.format(record)) for record in caplog.records if record.name == logger]


def test_the_console_writes_json_by_default():
    assert settings.LOGGING["handlers"]["console"]["formatter"] == "json"
    assert settings.MIDDLEWARE[0] == "shop.logs.RequestLogMiddleware"


def test_each_request_is_one_json_line_with_a_new_request_id(client, caplog):
    # when
    with caplog.at_level(logging.INFO, logger="shop.request"):
        response = client.get("/healthz")
    # then
    line, = _lines(caplog, "shop.request")
    assert (line["method"], line["path"], line["status"]) == ("GET", "/healthz", 200)
    assert len(line["request_id"]) == 32 and response["X-Request-ID"] == line["request_id"]
    assert line["level"] == "INFO" and "duration_ms" in line and line["time"].endswith("+00:00")


@pytest.mark.django_db
def test_a_tracking_token_and_a_query_string_never_reach_the_log(client, caplog):
    # the token opens an order's page to whoever holds it; reset and invoice tokens ride in query strings
    with caplog.at_level(logging.INFO, logger="shop.request"):
        client.get("/track/secret-token-123")
        client.get("/reset-password?token=reset-secret-456")
        client.get("/newsletter/unsubscribe/unsubscribe-secret-789")
        client.get("/ar/newsletter/confirm/confirm-secret-012")
    text = json.dumps(_lines(caplog, "shop.request"))
    assert "secret-token-123" not in text and "reset-secret-456" not in text and "unsubscribe-secret" not in text
    assert "confirm-secret" not in text
    assert [line["path"] for line in _lines(caplog, "shop.request")] == [
        "/track/…", "/reset-password", "/newsletter/unsubscribe/…", "/ar/newsletter/confirm/…"]


def test_the_callers_request_id_is_honoured_and_a_bad_one_replaced(client, caplog):
    # when
    with caplog.at_level(logging.INFO, logger="shop.request"):
        kept = client.get("/healthz", HTTP_X_REQUEST_ID="lb-7f3a.42")
        replaced = client.get("/healthz", HTTP_X_REQUEST_ID="evil\nline injected")
    # then
    assert kept["X-Request-ID"] == "lb-7f3a.42"
    assert replaced["X-Request-ID"] != "evil\nline injected" and len(replaced["X-Request-ID"]) == 32
    assert [line["request_id"] for line in _lines(caplog, "shop.request")] == ["lb-7f3a.42", replaced["X-Request-ID"]]


def test_a_request_that_changes_an_order_logs_its_number(client, manager, caplog):
    # given
    order = make_order(status="processing")
    client.force_login(manager)
    # when
    with caplog.at_level(logging.INFO, logger="shop.request"):
        client.put(f"/api/admin/orders/{order.pk}/status", {"status": "shipped"}, content_type="application/json")
    # then
    line, = _lines(caplog, "shop.request")
    assert line["order_number"] == order.number and line["status"] == 200


@app.task(name="shop.tests.note_order")
def _note_order(number):
    logs.log_order(number)
    logging.getLogger("shop.tests").info("working on it")


def test_each_job_is_one_json_line_and_its_records_carry_the_order(caplog):
    # when
    with caplog.at_level(logging.INFO):
        _note_order.apply(args=["NHT-261124-ABCDEF"])
    # then
    job, = _lines(caplog, "shop.job")
    assert (job["task"], job["state"], job["order_number"]) == ("shop.tests.note_order", "SUCCESS", "NHT-261124-ABCDEF")
    inside, = _lines(caplog, "shop.tests")
    assert inside["request_id"] == job["request_id"] and inside["order_number"] == "NHT-261124-ABCDEF"


def test_a_job_queued_by_a_request_carries_its_request_id():
    # given: a request is being handled
    token = logs.request_id_var.set("req-123")
    headers = {}
    # when: a job is published
    logs._before_publish(headers=headers)
    logs.request_id_var.reset(token)

    class Request:
        request_id = headers.get("request_id")

    class Task:
        name = "shop.tasks.outbox_deliver_task"
        request = Request()

    logs._job_prerun(task_id="t1", task=Task())
    # then: the worker logs under the same id
    assert headers == {"request_id": "req-123"} and logs.request_id_var.get() == "req-123"


# --- Sentry ---------------------------------------------------------------------------------------

def test_without_a_dsn_sentry_is_not_started():
    assert logs.sentry_init(dsn="") is False


@pytest.fixture
def fake_sentry():
    """A local stand-in for Sentry's ingest endpoint that keeps every envelope it is sent."""
    received = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            encoding = self.headers.get("Content-Encoding", "")
            if encoding == "gzip":
                body = gzip.decompress(body)
            elif encoding == "br":
                import brotli

                body = brotli.decompress(body)
            received.append((self.path, body))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://publickey@127.0.0.1:{server.server_port}/42", received
    server.shutdown()


def test_with_a_dsn_errors_are_reported_with_the_request_id(fake_sentry):
    sentry_sdk = pytest.importorskip("sentry_sdk")
    dsn, received = fake_sentry
    try:
        # when
        assert logs.sentry_init(dsn=dsn) is True
        token = logs.request_id_var.set("req-sentry-1")
        try:
            raise ValueError("the tea ran out")
        except ValueError:
            sentry_sdk.capture_exception()
        logs.request_id_var.reset(token)
        sentry_sdk.flush(timeout=5)
    finally:
        sentry_sdk.init(dsn=None)
    # then
    assert received, "nothing reached the fake endpoint"
    path, body = received[0]
    assert path == "/api/42/envelope/"
    text = body.decode("utf-8", "replace")
    assert "the tea ran out" in text and "req-sentry-1" in text


@pytest.mark.urls("shop.tests.urls_failing")
def test_a_sentry_report_carries_no_form_fields_query_string_or_local_values(fake_sentry):
    # a failing checkout or sign-in must not copy the customer's address, phone, password or a reset
    # token (query string) to an outside service; the stack's local values hold the same data
    sentry_sdk = pytest.importorskip("sentry_sdk")
    from django.test import Client

    dsn, received = fake_sentry
    client = Client(raise_request_exception=False)
    try:
        assert logs.sentry_init(dsn=dsn) is True
        response = client.post("/write-then-fail?token=reset-secret-456",
                               {"address": "12 Tahrir Street, Flat 9", "phone": "01001234567",
                                "password": "hunter2-long-pass"})
        sentry_sdk.flush(timeout=5)
    finally:
        sentry_sdk.init(dsn=None)
    assert response.status_code == 500
    assert received, "nothing reached the fake endpoint"
    text = b"".join(body for _path, body in received).decode("utf-8", "replace")
    assert "fails after writing" in text  # the report itself arrives
    for secret in ("Tahrir", "01001234567", "hunter2", "reset-secret-456"):
        assert secret not in text, secret


def test_a_plain_log_line_cannot_be_split_by_what_a_visitor_typed(client, caplog):
    # LOG_FORMAT=plain: a path (or any text) with a line break must not forge a second, official-looking line
    from django.utils.module_loading import import_string

    options = dict(settings.LOGGING["formatters"]["plain"])
    formatter = import_string(options.pop("()"))(**options)
    with caplog.at_level(logging.INFO, logger="shop.request"):
        client.get("/x%0D%0A2026-11-29 INFO shop.request GET /admindash 200")
    line, = [formatter.format(r) for r in caplog.records if r.name == "shop.request"]
    assert "\n" not in line and "\r" not in line
    assert line.endswith(r"GET /x\r\n2026-11-29 INFO shop.request GET /admindash 200 404")
    # Arabic stays readable
    record = logging.makeLogRecord({"msg": "طلب %s", "args": ("شاي",), "levelname": "INFO", "name": "t"})
    assert formatter.format(record).endswith("طلب شاي")


def test_djangos_own_error_lines_carry_no_tracking_token_or_query_string(client, caplog):
    # Django logs every 4xx/5xx itself ("Not Found: /track/…", with the request, whose text has the query
    # string): a mangled or expired link's token, an unsubscribe or reset token
    from django.utils.module_loading import import_string

    options = dict(settings.LOGGING["formatters"]["plain"])
    plain = import_string(options.pop("()"))(**options)
    with caplog.at_level(logging.INFO):
        client.get("/track/secret-token-123")
        client.get("/nope?token=reset-secret-456")
    records = [r for r in caplog.records if r.name == "django.request"]
    assert len(records) == 2
    text = "\n".join(formatter.format(r) for r in records for formatter in (logs.JsonFormatter(), plain))
    assert "Not Found: /track/…" in text and "Not Found: /nope" in text
    assert "secret-token-123" not in text and "reset-secret-456" not in text


def test_sentry_breadcrumbs_and_log_events_carry_no_tracking_token(fake_sentry):
    sentry_sdk = pytest.importorskip("sentry_sdk")
    dsn, received = fake_sentry
    try:
        assert logs.sentry_init(dsn=dsn) is True
        logging.getLogger("shop.tests").warning("link: %s", "https://shop.example/track/secret-token-123")
        logging.getLogger("shop.tests").error("Internal Server Error: %s", "/ar/track/secret-token-789")
        sentry_sdk.flush(timeout=5)
    finally:
        sentry_sdk.init(dsn=None)
    text = b"".join(body for _path, body in received).decode("utf-8", "replace")
    assert "Internal Server Error" in text
    assert "secret-token-123" not in text and "secret-token-789" not in text


def test_the_worker_keeps_the_shops_log_format():
    # Celery replaces the root logger's handlers with its own plain format when the worker starts, unless
    # the project configures logging itself: the jobs' lines lost their JSON, request id and masking
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    app.log.already_setup = False
    try:
        app.log.setup_logging_subsystem(loglevel="INFO")
        formatters = [type(handler.formatter).__name__ for handler in root.handlers]
    finally:
        root.handlers[:], _level = saved
        root.setLevel(saved[1])
        app.log.already_setup = False
    assert formatters == ["JsonFormatter"]
