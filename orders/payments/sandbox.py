"""A local imitation of a hosted payment page ("Test payment").

It signs its callback exactly like Paymob, with its own secret, and goes
through the same callback code. Refused unless `sandbox_enabled()`: PAYMENT_SANDBOX on and
card payments not going to Paymob. Orders paid here are flagged `is_test`.
"""

import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from orders.models import Order, Payment
from orders.payments.base import PaymentError, PaymentStart, TransactionResult
from orders.payments.paymob import hmac_sign
from shop.money import to_minor_units


def sandbox_enabled() -> bool:
    """Whether the local test payment page may be used at all.

    Only when an operator turned it on (PAYMENT_SANDBOX) and card payments do
    not go to Paymob: a shop that takes real cards never offers a page where
    "Pay" marks an order paid without money.
    """
    return bool(settings.PAYMENT_SANDBOX) and settings.PAYMENT_PROVIDER != "paymob"


class SandboxProvider:
    name = "sandbox"

    @staticmethod
    def is_configured() -> bool:
        return sandbox_enabled()

    @property
    def hmac_secret(self) -> str:
        return hashlib.sha256(f"sandbox-hmac:{settings.SECRET_KEY}".encode()).hexdigest()

    def start(self, *, order: Order, payment: Payment, return_url: str, notification_url: str) -> PaymentStart:
        if not self.is_configured():
            raise PaymentError("The test payment provider is switched off", permanent=True)
        return PaymentStart(
            payment_url=reverse("orders:payment-sandbox", args=[payment.payment_id]),
            provider_order_id=f"sbx{secrets.randbelow(10**9):09d}",
            reference=f"sbx_{payment.payment_id}",
        )

    def inquire(self, *, payment: Payment) -> TransactionResult | None:
        return None  # the sandbox reports only through its callback

    def transaction(self, *, payment: Payment, success: bool) -> tuple[dict[str, Any], str]:
        """The Paymob-shaped callback body for a Pay/Decline click, and its HMAC."""
        obj = {
            "id": int(timezone.now().timestamp() * 1000) * 100 + secrets.randbelow(100),
            "pending": False, "amount_cents": to_minor_units(payment.amount), "success": success,
            "is_auth": False, "is_capture": False, "is_standalone_payment": True, "is_voided": False,
            "is_refunded": False, "is_3d_secure": True, "integration_id": 0, "profile_id": 0,
            "has_parent_transaction": False,
            "order": {"id": payment.provider_order_id, "merchant_order_id": payment.order.number,
                      "amount_cents": to_minor_units(payment.amount), "currency": payment.currency},
            "created_at": timezone.now().strftime("%Y-%m-%dT%H:%M:%S.%f"), "currency": payment.currency,
            "source_data": {"pan": "4242", "type": "card", "sub_type": "Test"},
            "data": {"message": "Approved" if success else "Declined"},
            "error_occured": False, "is_live": False, "owner": 0,
        }
        return {"type": "TRANSACTION", "obj": obj}, hmac_sign(obj, self.hmac_secret)
