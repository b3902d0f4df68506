"""A fake Paymob on 127.0.0.1 for the tests: checks request shapes, answers like Paymob."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakePaymob:
    def __init__(self):
        self.requests = []  # (method, path, headers, body)
        self.mode = "ok"  # ok | error | slow | malformed
        self.delay = 0
        self.inquiry = None  # transaction dict answered by transaction_inquiry
        self.errors = []  # shape problems found in requests
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        self._server.shutdown()
        self._server.server_close()

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
                body = json.loads(self.rfile.read(length) or b"{}")
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
                    return self._answer(201, {
                        "payment_keys": [{"integration": 4097558, "key": "ZXlK"}],
                        "intention_order_id": 217503754 + len(fake.requests),
                        "id": "pi_test_ec990fc53d164f019d2b02dd3beef94d",
                        "intention_detail": {"amount": body["amount"], "currency": "EGP"},
                        "client_secret": "egy_csk_test_4707abc", "special_reference": body["special_reference"],
                        "confirmed": False, "status": "intended", "object": "paymentintention",
                    })
                if self.path == "/api/auth/tokens":
                    return self._answer(201, {"token": "auth-token-1"})
                if self.path == "/api/ecommerce/orders/transaction_inquiry":
                    if fake.inquiry is None:
                        return self._answer(404, {"detail": "not found"})
                    return self._answer(200, fake.inquiry)
                return self._answer(404, {"detail": "Not found"})

        return Handler
