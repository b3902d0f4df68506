"""Calls to outside services are never made inside a database transaction, and each is bounded as a whole.

Paymob, the exchange-rate services, the producer's site, WhatsApp and the mail server may each take
seconds to answer. A transaction open meanwhile holds its rows; on SQLite it holds the database's one
write lock (shop.sqlite), so every cart change, checkout and payment callback of the shop waits behind
the slow service and gives up after the busy timeout. Each client of an outside service calls
`outside_transaction` first: a request view that calls one must leave the request's transaction
(`transaction.non_atomic_requests`) and commit its own writes before the call.

Each such call is also bounded as a whole (`call_within`): the timeouts of requests and of smtplib bound
each wait for bytes, and a server (or proxy) trickling its answer a byte every few seconds never ran one
out, holding the web process or the worker for as long as it liked.
"""

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection

T = TypeVar("T")

# threads per service (settings.OUTBOUND_THREADS: one per request thread of the process, and 4 more): a call
# given up keeps its thread until the call ends (its server stops trickling, or the caller's own check or
# hang-up ends it), so a service trickling its answers holds at most this many; further calls to it wait their
# turn (and time out), and the other services' calls go on. Fewer than the request threads, calls to a healthy
# service would queue behind each other and time out.
_POOLS: dict[str, ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()


class TransactionHeld(RuntimeError):
    """A call to an outside service was about to be made inside a database transaction."""


def outside_transaction(service: str) -> None:
    """Raise TransactionHeld if a database transaction is open (a test case's own does not count,
    as for Django's durable blocks)."""
    if connection.atomic_blocks and not getattr(connection.atomic_blocks[-1], "_from_testcase", False):
        raise TransactionHeld(f"{service} called inside a database transaction")


def _pools_forget() -> None:
    """In a child process: threads do not survive a fork, and a pool made before it (a call in the process
    a worker or web server forks its children from) would hand calls to idle threads that are gone."""
    global _POOLS_LOCK
    _POOLS.clear()
    _POOLS_LOCK = threading.Lock()


os.register_at_fork(after_in_child=_pools_forget)


class DeadlinePassed(TimeoutError):
    """An outside service gave no whole answer within the time allowed for it."""


def _pool(service: str) -> ThreadPoolExecutor:
    with _POOLS_LOCK:
        pool = _POOLS.get(service)
        if pool is None:
            name = "".join(c if c.isalnum() else "-" for c in service.lower())
            pool = _POOLS[service] = ThreadPoolExecutor(max_workers=settings.OUTBOUND_THREADS,
                                                          thread_name_prefix=name)
        return pool


def call_within(seconds: float, service: str, call: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Return `call(*args, **kwargs)`, or raise DeadlinePassed once `seconds` have gone by, however slowly
    the service answers; the call's own exceptions are raised as they are.

    The call runs in a thread kept for `service`, and this one waits for it at most `seconds`. A call given
    up is not stopped (a thread cannot be): it ends with its own timeouts or when its server stops, so give
    it one (a per-read timeout no longer than `seconds`), and hand it nothing it would change afterwards
    (no database work: it runs outside this thread's connection and transaction). Not started yet because
    every thread of the service was held, it never starts.
    """
    if seconds <= 0:
        raise DeadlinePassed(f"{service}: no time left")
    future = _pool(service).submit(call, *args, **kwargs)
    try:
        return future.result(timeout=seconds)
    except TimeoutError:  # the wait's, or the call's own (a socket timeout is one too)
        if future.done():
            return future.result()
        future.cancel()
        raise DeadlinePassed(f"{service} gave no whole answer within {seconds:g} s") from None
