"""Calls to outside services are never made inside a database transaction.

Paymob, the exchange-rate services, the producer's site, WhatsApp and the mail server may each take
seconds to answer. A transaction open meanwhile holds its rows; on SQLite it holds the database's one
write lock (shop.sqlite), so every cart change, checkout and payment callback of the shop waits behind
the slow service and gives up after the busy timeout. Each client of an outside service calls
`outside_transaction` first: a request view that calls one must leave the request's transaction
(`transaction.non_atomic_requests`) and commit its own writes before the call.
"""

from django.db import connection


class TransactionHeld(RuntimeError):
    """A call to an outside service was about to be made inside a database transaction."""


def outside_transaction(service: str) -> None:
    """Raise TransactionHeld if a database transaction is open (a test case's own does not count,
    as for Django's durable blocks)."""
    if connection.atomic_blocks and not getattr(connection.atomic_blocks[-1], "_from_testcase", False):
        raise TransactionHeld(f"{service} called inside a database transaction")
