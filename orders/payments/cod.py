"""Cash on delivery: no provider to talk to; the order is confirmed at once."""

from django.urls import reverse

from orders.models import Order
from orders.payments.base import PaymentStart


class CodProvider:
    name = "cod"

    @staticmethod
    def is_configured() -> bool:
        return True

    def start(self, *, order: Order, payment, return_url, notification_url):
        return PaymentStart(payment_url=reverse("orders:thankyou"))

    def inquire(self, *, payment):
        return None
