"""Cash on delivery: no provider to talk to; the order is confirmed at once."""

from django.urls import reverse

from orders.models import Order, Payment
from orders.payments.base import PaymentStart, TransactionResult


class CodProvider:
    name = "cod"

    @staticmethod
    def is_configured() -> bool:
        return True

    def start(self, *, order: Order, payment: Payment, return_url: str, notification_url: str) -> PaymentStart:
        return PaymentStart(payment_url=reverse("orders:thankyou"))

    def inquire(self, *, payment: Payment) -> TransactionResult | None:
        return None
