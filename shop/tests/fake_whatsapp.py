"""A fake WhatsApp Cloud API on 127.0.0.1 for the tests: checks the request shape, answers like Meta."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeWhatsApp:
    def __init__(self, *, token="test-token", phone_number_id="1055551234"):
        self.token, self.phone_number_id = token, phone_number_id
        self.messages = []  # accepted request bodies
        self.errors = []  # shape problems found in requests
        self.fail_next = 0  # answer this many requests with 500
        self.garble_next = 0  # take this many messages and answer 200 with a body that is not Meta's (a proxy's page)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v21.0"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        self._server.shutdown()
        self._server.server_close()

    def _handler(fake):
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _answer(self, status, body):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                if self.path != f"/v21.0/{fake.phone_number_id}/messages":
                    return self._answer(404, {"error": {"message": "Unknown path"}})
                if self.headers.get("Authorization") != f"Bearer {fake.token}":
                    return self._answer(401, {"error": {"message": "Invalid OAuth access token", "code": 190}})
                problems = [key for key, want in (("messaging_product", "whatsapp"), ("type", "text"))
                            if body.get(key) != want]
                if not str(body.get("to", "")).isdigit() or not (body.get("text") or {}).get("body"):
                    problems.append("to/text")
                if problems:
                    fake.errors.append(problems)
                    return self._answer(400, {"error": {"message": f"bad request: {problems}", "code": 100}})
                if fake.fail_next:
                    fake.fail_next -= 1
                    return self._answer(500, {"error": {"message": "Service temporarily unavailable", "code": 2}})
                fake.messages.append(body)
                if fake.garble_next:
                    fake.garble_next -= 1
                    return self._answer(200, "<html>OK</html>")
                return self._answer(200, {"messaging_product": "whatsapp",
                                          "contacts": [{"input": body["to"], "wa_id": body["to"]}],
                                          "messages": [{"id": f"wamid.TEST{len(fake.messages)}"}]})

        return Handler
