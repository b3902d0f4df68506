"""A fake Paymob on 127.0.0.1 for the tests: checks request shapes, answers like Paymob."""

import hashlib
import hmac
import json
import threading
import time
import urllib.request
from contextlib import contextmanager
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

HMAC_FIELDS = [
    "amount_cents", "created_at", "currency", "error_occured", "has_parent_transaction", "id",
    "integration_id", "is_3d_secure", "is_auth", "is_capture", "is_refunded", "is_standalone_payment",
    "is_voided", "order", "owner", "pending", "source_data.pan", "source_data.sub_type", "source_data.type",
    "success",
]


def _sign(flat, secret):
    """Paymob's HMAC over the flat (redirect-style) transaction fields; written independently."""
    message = "".join(flat[name] for name in HMAC_FIELDS)
    return hmac.new(secret.encode(), message.encode(), hashlib.sha512).hexdigest()


@contextmanager
def fake_paymob_running(settings, *, api_key, hmac_secret=None):
    """A FakePaymob serving on 127.0.0.1 with the card integration, and the shop's Paymob settings (pytest-django's
    `settings`) pointing at it; stopped afterwards. `api_key` "" leaves the shop no inquiry; `hmac_secret`
    is the shop's, the fake's own when None (so the fake's callbacks and redirects are signed as the shop
    checks)."""
    fake = FakePaymob().start()
    try:
        settings.PAYMENT_PROVIDER = "paymob"
        settings.PAYMOB_BASE_URL = fake.url
        settings.PAYMOB_SECRET_KEY = "egy_sk_test_abc123"
        settings.PAYMOB_PUBLIC_KEY = "egy_pk_test_def456"
        settings.PAYMOB_API_KEY = api_key
        settings.PAYMOB_HMAC_SECRET = fake.hmac_secret if hmac_secret is None else hmac_secret
        settings.PAYMOB_INTEGRATION_IDS = ["4097558"]
        yield fake
    finally:
        fake.stop()


class FakePaymob:
    def __init__(self):
        self.requests = []  # (method, path, headers, body)
        self.mode = "ok"  # ok | error | slow | malformed
        self.delay = 0
        self.inquiry = None  # transaction dict answered by transaction_inquiry
        self.intention_leaves_out = ()  # keys of the intention answer to leave out
        self.errors = []  # shape problems found in requests
        self.hmac_secret = "test_hmac_secret"
        self.intentions = {}  # client_secret -> (intention body, intention_order_id)
        # the account's integrations by name (a payment method may be named in an intention instead of its id)
        self.integrations = {"card": 4097558, "wallet": 4097559, "kiosk": 4097560}
        self.callbacks = []  # HTTP statuses our shop answered to the fake's callbacks
        self.tokens = []  # auth tokens given; transaction_inquiry accepts these (401 otherwise), until expired
        self.accept_tokens = True  # False: every token is refused, as for an API key of another account
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        self._server.shutdown()
        self._server.server_close()

    def expire_tokens(self):
        """Every token given so far is refused from now on (an hour has passed)."""
        self.tokens = [f"expired-{token}" for token in self.tokens]

    def calls(self, path):
        """How many requests the shop sent to `path`."""
        return sum(1 for _method, requested, _headers, _body in self.requests if requested == path)

    def _check_intention(self, headers, body):
        problems = []
        if not headers.get("Authorization", "").startswith(("Token ", "Bearer ")):
            problems.append("authorization")
        if headers.get("Content-Type") != "application/json":
            problems.append("content-type")
        if not isinstance(body.get("amount"), int) or body["amount"] <= 0:
            problems.append("amount")
        if body.get("currency") != "EGP":
            problems.append("currency")
        if not body.get("payment_methods"):
            problems.append("payment_methods")
        items = body.get("items") or []
        for item in items:
            if not item.get("name") or not isinstance(item.get("amount"), int):
                problems.append("items")
        if items and sum(i["amount"] * i.get("quantity", 1) for i in items) != body.get("amount"):
            problems.append("items-sum")
        billing = body.get("billing_data") or {}
        for key in ("first_name", "last_name", "email", "phone_number"):
            if not billing.get(key):
                problems.append(f"billing_data.{key}")
        for key in ("special_reference", "notification_url", "redirection_url"):
            if not body.get(key):
                problems.append(key)
        return problems

    def _handler(fake):
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _answer(self, status, data):
                raw = json.dumps(data).encode() if not isinstance(data, bytes) else data
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if self.path.startswith("/unifiedcheckout/pay"):
                    return self._pay()
                body = json.loads(raw or b"{}")
                fake.requests.append(("POST", self.path, dict(self.headers), body))
                if fake.mode == "slow":
                    time.sleep(fake.delay)
                if fake.mode == "error":
                    return self._answer(500, {"detail": "Internal error"})
                if fake.mode == "malformed":
                    return self._answer(200, b"<html>oops</html>")
                if self.path == "/v1/intention/":
                    problems = fake._check_intention(dict(self.headers), body)
                    if problems:
                        fake.errors.extend(problems)
                        return self._answer(400, {"detail": problems})
                    # like Paymob, the integrations named are answered by their numeric ids
                    methods = [fake.integrations.get(m, m) for m in body["payment_methods"]]
                    if not all(isinstance(m, int) for m in methods):
                        return self._answer(404, {"detail": "Integration ID/Name does not exist in our system"})
                    order_id = 217503754 + len(fake.requests)
                    client_secret = f"egy_csk_test_{order_id}"
                    fake.intentions[client_secret] = ({**body, "payment_methods": methods}, order_id)
                    answer = {
                        "payment_keys": [{"integration": m, "key": "ZXlK", "gateway_type": "VPC", "iframe_id": None}
                                         for m in methods],
                        "payment_methods": [{"integration_id": m, "alias": None, "name": None,
                                             "method_type": "online", "currency": "EGP", "live": False,
                                             "use_cvc_with_moto": False} for m in methods],
                        "intention_order_id": order_id,
                        "id": "pi_test_ec990fc53d164f019d2b02dd3beef94d",
                        "intention_detail": {"amount": body["amount"], "currency": "EGP"},
                        "client_secret": client_secret, "special_reference": body["special_reference"],
                        "confirmed": False, "status": "intended", "object": "paymentintention",
                    }
                    return self._answer(201, {k: v for k, v in answer.items() if k not in fake.intention_leaves_out})
                if self.path == "/api/auth/tokens":
                    fake.tokens.append(f"auth-token-{len(fake.tokens) + 1}")
                    return self._answer(201, {"token": fake.tokens[-1]})
                if self.path == "/api/ecommerce/orders/transaction_inquiry":
                    if not fake.accept_tokens or body.get("auth_token") not in fake.tokens:
                        return self._answer(401, {"detail": "Invalid token."})
                    if fake.inquiry is None:
                        return self._answer(404, {"detail": "not found"})
                    return self._answer(200, fake.inquiry)
                return self._answer(404, {"detail": "Not found"})

            def do_GET(self):
                """The hosted checkout page: Pay or Decline, like a card form would end."""
                url = urlparse(self.path)
                secret = parse_qs(url.query).get("clientSecret", [""])[0]
                if url.path != "/unifiedcheckout/" or secret not in fake.intentions:
                    return self._answer(404, {"detail": "Not found"})
                body, _order_id = fake.intentions[secret]
                html = f"""<!doctype html><html><body><h1>Fake Paymob</h1><p id=amount>{body['amount']}</p>
                <form method=post action="/unifiedcheckout/pay?clientSecret={secret}&result=pay">
                  <button>Pay</button></form>
                <form method=post action="/unifiedcheckout/pay?clientSecret={secret}&result=decline">
                  <button>Decline</button></form>
                </body></html>""".encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(html)))
                self.end_headers()
                self.wfile.write(html)

            def _pay(self):
                query = parse_qs(urlparse(self.path).query)
                body, order_id = fake.intentions[query["clientSecret"][0]]
                success = query.get("result") == ["pay"]
                flat = {
                    "amount_cents": str(body["amount"]), "created_at": datetime.now().isoformat(),
                    "currency": body["currency"], "error_occured": "false", "has_parent_transaction": "false",
                    "id": str(900000 + len(fake.callbacks)), "integration_id": str(body["payment_methods"][0]),
                    "is_3d_secure": "true", "is_auth": "false", "is_capture": "false", "is_refunded": "false",
                    "is_standalone_payment": "true", "is_voided": "false", "order": str(order_id), "owner": "302852",
                    "pending": "false", "source_data.pan": "2346", "source_data.sub_type": "MasterCard",
                    "source_data.type": "card", "success": "true" if success else "false",
                }
                signature = _sign(flat, fake.hmac_secret)
                # the server-to-server callback first (nested JSON, booleans and numbers as JSON)
                as_json = lambda v: True if v == "true" else False if v == "false" else int(v) if v.isdigit() else v  # noqa: E731
                obj = {k: as_json(v) for k, v in flat.items() if "." not in k and k != "order"}
                obj["order"] = {"id": order_id, "merchant_order_id": body["special_reference"], "currency": "EGP"}
                obj["source_data"] = {"pan": "2346", "sub_type": "MasterCard", "type": "card"}
                obj["created_at"] = flat["created_at"]
                request = urllib.request.Request(
                    f"{body['notification_url']}?hmac={signature}", method="POST",
                    data=json.dumps({"type": "TRANSACTION", "obj": obj}).encode(),
                    headers={"Content-Type": "application/json"},
                )
                try:
                    with urllib.request.urlopen(request, timeout=10) as answer:
                        fake.callbacks.append(answer.status)
                except urllib.error.HTTPError as exc:
                    fake.callbacks.append(exc.code)
                # then the browser goes back with the same fields, flattened and signed
                self.send_response(302)
                self.send_header("Location", f"{body['redirection_url']}?{urlencode({**flat, 'hmac': signature})}")
                self.send_header("Content-Length", "0")
                self.end_headers()

        return Handler
