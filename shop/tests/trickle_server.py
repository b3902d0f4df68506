"""A server on 127.0.0.1 that answers a byte at a time, like a congested link or a proxy trickling: each byte
comes well within a per-read timeout, the whole answer far past any sensible limit. For the tests of
shop.outbound.call_within's callers (WhatsApp, exchange rates, the producer's site, the mail server)."""

import socket
import threading

HTTP_OK = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
SMTP_GREETING = b"220 localhost test SMTP ready\r\n"


class TrickleServer:
    """`with TrickleServer(answer) as server:` answers every connection with `answer`, a byte every `every`
    seconds; `reads_first` reads the request before (HTTP), else it speaks first (a mail server's greeting).
    `connections` counts the connections taken."""

    def __init__(self, answer=HTTP_OK, *, every=0.1, reads_first=True):
        self.answer, self.every, self.reads_first = answer, every, reads_first
        self.connections = 0
        self._stopped = threading.Event()
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(16)
        self.port = self._listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"

    def _serve(self):
        while not self._stopped.is_set():
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return  # closed
            self.connections += 1
            threading.Thread(target=self._trickle, args=(connection,), daemon=True).start()

    def _trickle(self, connection):
        try:
            if self.reads_first:
                connection.recv(65536)
            for byte in self.answer:
                if self._stopped.wait(self.every):
                    break
                connection.sendall(bytes([byte]))
        except OSError:
            pass  # the client hung up
        finally:
            connection.close()

    def __enter__(self):
        threading.Thread(target=self._serve, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self._stopped.set()
        try:
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accept (a close alone may not, on Linux)
        except OSError:
            pass
        self._listener.close()
