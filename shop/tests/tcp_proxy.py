"""A TCP proxy on 127.0.0.1 that a test can cut and restore, to fake an outage.

The real Redis and PostgreSQL servers are shared and never stopped: tests
point the shop at this proxy instead and cut it. Cutting closes every relayed
connection and refuses new ones; restoring accepts again.
"""

import socket
import threading


class TcpProxy:
    def __init__(self, target_host, target_port):
        self.target = (target_host, target_port)
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self._open = threading.Event()
        self._open.set()
        self._lock = threading.Lock()
        self._sockets = set()
        self._stopped = False
        threading.Thread(target=self._accept_loop, daemon=True).start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    # --- control ------------------------------------------------------------
    def cut(self):
        """Drop every relayed connection and refuse new ones until restore()."""
        self._open.clear()
        with self._lock:
            for sock in list(self._sockets):
                _close(sock)
            self._sockets.clear()

    def restore(self):
        self._open.set()

    def stop(self):
        self._stopped = True
        self.cut()
        _close(self._server)

    # --- relaying -----------------------------------------------------------
    def _accept_loop(self):
        while not self._stopped:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            if not self._open.is_set():
                _close(client)  # refused: the far end sees the connection drop at once
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=2)
            except OSError:
                _close(client)
                continue
            upstream.settimeout(None)
            with self._lock:
                self._sockets.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            _close(source)
            _close(sink)
            with self._lock:
                self._sockets.discard(source)
                self._sockets.discard(sink)


def _close(sock):
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    try:
        sock.close()
    except OSError:
        pass
