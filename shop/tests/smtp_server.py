"""Tiny SMTP servers on 127.0.0.1 for tests: one that speaks enough of RFC 5321 for
Django's smtp backend (and can turn the first connections or some recipients away), one that never answers."""

import socket
import socketserver
import threading
import time
from email import message_from_bytes, policy


class _Handler(socketserver.StreamRequestHandler):
    def _reply(self, line):
        self.wfile.write(line.encode() + b"\r\n")

    def _reply_slowly(self, line):
        try:
            for byte in line.encode() + b"\r\n":
                time.sleep(self.server.data_reply_every)
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
        except OSError:
            self.server.hung_up.set()

    def handle(self):
        if self.server.refuse_next > 0:
            self.server.refuse_next -= 1
            self._reply("421 localhost busy, try again later")
            return
        self._reply("220 localhost test SMTP ready")
        sender, recipients = None, []
        while True:
            line = self.rfile.readline()
            if not line:
                return
            command = line.decode(errors="replace").strip()
            verb = command[:4].upper()
            if verb in ("EHLO", "HELO"):
                self._reply("250 localhost")
            elif verb == "MAIL":
                sender, recipients = command.split(":", 1)[1].strip(" <>"), []
                self._reply("250 OK")
            elif verb == "RCPT":
                recipient = command.split(":", 1)[1].strip(" <>")
                refusal = self.server.refuse_recipients.get(recipient)
                if refusal:
                    self._reply(refusal)
                else:
                    recipients.append(recipient)
                    self._reply("250 OK")
            elif verb == "DATA":
                self._reply("354 End data with <CR><LF>.<CR><LF>")
                data = []
                while (chunk := self.rfile.readline()) not in (b".\r\n", b""):
                    data.append(chunk[1:] if chunk.startswith(b"..") else chunk)
                self.server.messages.append(
                    {"from": sender, "to": recipients,
                     "message": message_from_bytes(b"".join(data), policy=policy.default)}
                )
                if self.server.data_reply_every:
                    self._reply_slowly("250 OK queued")
                else:
                    self._reply("250 OK queued")
            elif verb == "RSET":
                sender, recipients = None, []
                self._reply("250 OK")
            elif verb == "QUIT":
                self._reply("221 Bye")
                return
            else:
                self._reply("250 OK")


class SmtpServer(socketserver.ThreadingTCPServer):
    """Start with `with SmtpServer() as server:`; received mail is in `server.messages`.

    `refuse_next` connections are turned away with 421 before the greeting; `refuse_recipients` maps an
    address to the reply its RCPT gets instead of 250 (e.g. "550 5.1.1 no such user"). With
    `data_reply_every`, the reply to a message's end comes a byte every that many seconds (`hung_up` is set
    when the client hangs up meanwhile).
    """

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, *, refuse_next=0, refuse_recipients=None, data_reply_every=0):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.data_reply_every = data_reply_every
        self.hung_up = threading.Event()
        self.messages = []
        self.refuse_next = refuse_next
        self.refuse_recipients = refuse_recipients or {}

    @property
    def port(self):
        return self.server_address[1]

    def __enter__(self):
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.shutdown()
        self.server_close()


class SilentSmtpServer:
    """Accepts connections and never says a word, like a mail server stuck under load."""

    def __init__(self):
        self._socket = socket.socket()
        self._socket.bind(("127.0.0.1", 0))
        self._socket.listen(16)  # the kernel completes the handshakes; nobody ever reads or writes
        self.port = self._socket.getsockname()[1]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._socket.close()
