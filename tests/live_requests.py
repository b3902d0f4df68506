"""Count the requests the live server is still answering (test settings only).

On SQLite the browser tests share one in-memory database connection between the
test thread and the live server's thread. A request still running when the test
thread writes (a request left over from the previous test, or one the page sent
last) puts both threads in one transaction: Django then refuses `on_commit` in
"manual transaction management", or SQLite says "database table is locked".
The browser fixtures wait for `wait_until_idle()` before a test starts and
before its data are flushed.
"""

import threading
import time

_idle = threading.Condition()
_running = 0


class CountRequestsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        global _running
        with _idle:
            _running += 1
        try:
            return self.get_response(request)
        finally:
            with _idle:
                _running -= 1
                _idle.notify_all()


def wait_until_idle(timeout=10.0):
    """Wait until no request is being answered; False if some still run after `timeout`."""
    deadline = time.monotonic() + timeout
    with _idle:
        while _running:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            _idle.wait(left)
    return True
