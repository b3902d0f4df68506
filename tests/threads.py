"""Work started at the same moment in several threads, for the tests of races between processes.

Django opens a database connection for each thread that uses the database, and the thread's end does
not close it: it stays open until the garbage collector finds it, or, when something still refers to it,
until the process ends, and on PostgreSQL the test database cannot be dropped while it is open. So a
test's own thread runs its work through `closing_connections` (or is made with `thread`), as `at_once`
does; the `_no_connection_left_by_a_thread` fixture (conftest.py) fails a test that leaves one open.
"""

import functools
import threading

from django.db import connections


def closing_connections(work):
    """Wrap `work`, to run in a thread of its own, so the database connections it opened in that thread
    are closed when it returns or raises."""

    @functools.wraps(work)
    def run(*args, **kwargs):
        try:
            return work(*args, **kwargs)
        finally:
            connections.close_all()

    return run


def thread(target, *, args=(), name=None, daemon=None):
    """A `threading.Thread` running `target` that closes its database connections when done."""
    return threading.Thread(target=closing_connections(target), args=args, name=name, daemon=daemon)


def at_once(*works, timeout=10):
    """Run each callable in `works` in a thread of its own, all released together, each on its own
    database connection (closed when it is done). Returns what each returned, or the exception it
    raised, in the order given."""
    start = threading.Barrier(len(works), timeout=timeout)
    outcomes = [None] * len(works)

    @closing_connections
    def run(index, work):
        try:
            start.wait()
            outcomes[index] = work()
        except Exception as exc:  # the test decides which failures are the expected refusals
            outcomes[index] = exc

    threads = [threading.Thread(target=run, args=item) for item in enumerate(works)]
    for each in threads:
        each.start()
    for each in threads:
        each.join()
    return outcomes
