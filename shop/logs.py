"""Structured logs: one JSON line per record, one summary line per request and per Celery job.

Every line carries the request id of the request (or of the request that queued the job)
and the order number when the request or job wrote an order. The id comes from the
caller's `X-Request-ID` header when it is a plausible id (a proxy's or load balancer's),
else a new one; the answer carries it back in `X-Request-ID`, and every job queued while
handling the request gets it in a message header, so one id follows a checkout from the
browser to the e-mail worker.
"""

import contextvars
import json
import logging
import re
import time
import uuid
from datetime import UTC, datetime

from celery.signals import before_task_publish, task_postrun, task_prerun
from django.conf import settings
from django.http import HttpRequest

request_id_var = contextvars.ContextVar("request_id", default="")
order_number_var = contextvars.ContextVar("order_number", default="")

HEADER = "X-Request-ID"
# read from META: request.headers would build every header's name first, for each request (issue 14)
_HEADER_META = "HTTP_" + HEADER.upper().replace("-", "_")
TASK_HEADER = "request_id"
_VALID_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}

request_log = logging.getLogger("shop.request")
job_log = logging.getLogger("shop.job")


def new_request_id():
    return uuid.uuid4().hex


def clean_request_id(value):
    """The caller's id when it is safe to log and repeat, else None."""
    return value if value and _VALID_ID.match(value) else None


def log_order(number: str) -> None:
    """Name the order this request or job is about (called whenever an order is saved)."""
    if number:
        order_number_var.set(number)


# a path segment that is a secret: a tracking link's token opens its order's page to whoever holds it, a
# newsletter link's (the same token confirms and unsubscribes) puts its address on the list or takes it off
_SECRET_SEGMENT = re.compile(r"(/track/|/unsubscribe/|/newsletter/confirm/)[^/]+")


def loggable_path(path):
    """`path` as the request log keeps it: tracking and unsubscribe tokens masked (query strings, which carry reset and
    unsubscribe tokens, are never logged)."""
    return _SECRET_SEGMENT.sub(r"\1…", path)


# in free text (a message, an error): a tracking link's token anywhere, and an e-mail address's mailbox
_SECRET_IN_TEXT = re.compile(r"(/track/|/unsubscribe/|/newsletter/confirm/)[^/\s]+")
_MAILBOX = re.compile(r"[\w.+%'-]+@(?=[\w-]+(?:\.[\w-]+)+)")


def loggable_text(text):
    """`text` (a message sent, a server's error) as a log line may hold it: tracking tokens masked and
    e-mail addresses reduced to their domain (`…@example.com`), which is enough to see a mail server's
    pattern; the outbox row's id names the recipient."""
    return _MAILBOX.sub("…@", _SECRET_IN_TEXT.sub(r"\1…", str(text)))


def _loggable(value):
    """A log record's value as a line may hold it: a request as its method and masked path (its text
    carries the query string), text through loggable_text, lists and dicts item by item."""
    if isinstance(value, HttpRequest):
        return f"<{value.method} {loggable_path(value.path)}>"
    if isinstance(value, str):
        return loggable_text(value)
    if isinstance(value, list | tuple):
        return [_loggable(item) for item in value]
    if isinstance(value, dict):
        return {key: _loggable(item) for key, item in value.items()}
    return value


def loggable_phone(number):
    """A phone number as a log line may hold it: its last three digits."""
    return f"…{str(number)[-3:]}"


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class PlainFormatter(logging.Formatter):
    """LOG_FORMAT=plain: one line per record. Line breaks and other control characters in the message
    (a path, a name, an error a visitor's input caused) are written escaped (`\\n`), so no input can
    start a line of its own that looks like the shop's; a traceback below the line stays as it is."""

    def formatMessage(self, record):
        text = loggable_text(super().formatMessage(record))
        return _CONTROL.sub(lambda match: repr(match.group())[1:-1], text)


class JsonFormatter(logging.Formatter):
    """A log record as one JSON object: time, level, logger, message, request id, order number, extras."""

    def format(self, record):
        entry = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": loggable_text(record.getMessage()),
        }
        request_id = getattr(record, "request_id", None) or request_id_var.get()
        order_number = getattr(record, "order_number", None) or order_number_var.get()
        if request_id:
            entry["request_id"] = request_id
        if order_number:
            entry["order_number"] = order_number
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in entry and key not in ("request_id", "order_number") \
                    and not key.startswith("_"):
                entry[key] = _loggable(value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class RequestLogMiddleware:
    """First in the chain: give the request its id, answer with it, log one line when it is done."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_id = clean_request_id(request.META.get(_HEADER_META)) or new_request_id()
        request.request_id = request_id
        id_token = request_id_var.set(request_id)
        order_token = order_number_var.set("")
        started = time.monotonic()
        status = 500
        try:
            response = self.get_response(request)
            status = response.status_code
            response[HEADER] = request_id
            return response
        finally:
            user = getattr(request, "user", None)
            path = loggable_path(request.path)
            request_log.info(
                "%s %s %s", request.method, path, status,
                extra={"request_id": request_id, "order_number": order_number_var.get(),
                       "method": request.method, "path": path, "status": status,
                       "duration_ms": round((time.monotonic() - started) * 1000, 1),
                       "user_id": user.pk if user is not None and user.is_authenticated else None},
            )
            order_number_var.reset(order_token)
            request_id_var.reset(id_token)


# --- Celery: carry the id into jobs, and one line per job -----------------------------------

_job_started = {}


def _before_publish(headers=None, **kwargs):
    request_id = request_id_var.get()
    if request_id and headers is not None and TASK_HEADER not in headers:
        headers[TASK_HEADER] = request_id


def _job_prerun(task_id=None, task=None, **kwargs):
    request = getattr(task, "request", None)
    sent = getattr(request, TASK_HEADER, None) or (getattr(request, "headers", None) or {}).get(TASK_HEADER)
    request_id = clean_request_id(sent)
    request_id_var.set(request_id or new_request_id())
    order_number_var.set("")
    _job_started[task_id] = time.monotonic()


def _job_postrun(task_id=None, task=None, state=None, **kwargs):
    started = _job_started.pop(task_id, None)
    job_log.info(
        "%s %s", getattr(task, "name", "?"), state,
        extra={"request_id": request_id_var.get(), "order_number": order_number_var.get(),
               "task": getattr(task, "name", "?"), "task_id": task_id, "state": state,
               "duration_ms": round((time.monotonic() - started) * 1000, 1) if started else None},
    )


def connect_celery_signals():
    before_task_publish.connect(_before_publish, dispatch_uid="shop-logs-publish", weak=False)
    task_prerun.connect(_job_prerun, dispatch_uid="shop-logs-prerun", weak=False)
    task_postrun.connect(_job_postrun, dispatch_uid="shop-logs-postrun", weak=False)


# --- Sentry, only when a DSN is set ----------------------------------------------------------

def sentry_init(dsn=None, **options):
    """Start the Sentry SDK for error reports when SENTRY_DSN is set; return whether it started.

    No personal data is sent: no cookies, user or client address (the SDK's default), and neither the
    request's body (a checkout's address and phone, a sign-in's password), its query string (reset and
    unsubscribe tokens) nor the stack's local values, which hold the same; a tracking link's token is
    masked in the address as in the logs. The request id is attached as a tag so a report can be matched
    with the log lines."""
    dsn = dsn if dsn is not None else getattr(settings, "SENTRY_DSN", "")
    if not dsn:
        return False
    # loaded only when a DSN is set: most installs never report to Sentry
    import sentry_sdk  # noqa: PLC0415
    from sentry_sdk.integrations.celery import CeleryIntegration  # noqa: PLC0415
    from sentry_sdk.integrations.django import DjangoIntegration  # noqa: PLC0415

    def tag_request_id(event, hint):
        request = event.get("request")
        if isinstance(request, dict):
            for key in ("data", "query_string", "cookies"):
                request.pop(key, None)
            if isinstance(request.get("url"), str):
                request["url"] = loggable_path(request["url"])
        if isinstance(event.get("transaction"), str):
            event["transaction"] = loggable_path(event["transaction"])
        # an event made from a log line ("Internal Server Error: /track/…"), and the lines before it
        for key in ("logentry", "message", "extra", "breadcrumbs"):
            if key in event:
                event[key] = _loggable(event[key])
        if request_id_var.get():
            event.setdefault("tags", {})["request_id"] = request_id_var.get()
        if order_number_var.get():
            event.setdefault("tags", {})["order_number"] = order_number_var.get()
        return event

    sentry_sdk.init(
        dsn=dsn, integrations=[DjangoIntegration(), CeleryIntegration()],
        environment=getattr(settings, "SENTRY_ENVIRONMENT", "") or None, traces_sample_rate=0,
        before_send=tag_request_id, before_breadcrumb=lambda crumb, hint: _loggable(crumb),
        max_request_body_size="never", include_local_variables=False, **options,
    )
    return True
