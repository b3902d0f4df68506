"""The one interface every payment provider implements (healthchecks-style transports)."""

from dataclasses import dataclass, field
from typing import Any, Protocol

from orders.models import Order, Payment


class PaymentError(Exception):
    """The provider failed. `permanent` means retrying the same request will not help;
    `timed_out` that the provider did not answer in time (the shopper is told so)."""

    def __init__(self, message: str, *, permanent: bool = False, timed_out: bool = False) -> None:
        super().__init__(message)
        self.message = str(message)
        self.permanent = permanent
        self.timed_out = timed_out


@dataclass(frozen=True)
class PaymentStart:
    """Where to send the browser, and the provider's ids for the attempt."""

    payment_url: str
    provider_order_id: str = ""
    reference: str = ""  # e.g. Paymob's intention id
    # the provider's numeric integration ids the attempt was made for (Paymob's intention answer)
    integration_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class TransactionResult:
    """A transaction as the provider reported it (callback, redirect or inquiry)."""

    transaction_id: str
    provider_order_id: str
    success: bool
    pending: bool
    amount_cents: int
    currency: str
    raw: dict[str, Any] = field(default_factory=dict)
    # money going back, never money received: "refund" for a transaction of its own that returns its
    # amount (a refund or a void of `returns_transaction`); "refunded" or "voided" for a payment's own
    # transaction reported again once (part of) it was returned, "refunded" claiming `claimed_cents` in
    # all so far; "" for a payment. Only what the signature covers decides (orders.payments.services).
    returns: str = ""
    returns_transaction: str = ""
    claimed_cents: int = 0
    # the capture of an earlier authorisation: the money the authorisation reported, not money received again
    captures: bool = False
    # the provider's integration (payment method account) that made it
    integration_id: str = ""


class Provider(Protocol):
    name: str

    def is_configured(self) -> bool: ...

    def start(self, *, order: Order, payment: Payment, return_url: str, notification_url: str) -> PaymentStart: ...

    def inquire(self, *, payment: Payment) -> TransactionResult | None: ...
