"""Paymob's transaction messages for the tests, written from Paymob's documentation rather than from the
shop's code: a card transaction as its callback and its inquiry report it, and the callback's POST."""

import json
from typing import Any

from orders.payments.paymob import hmac_sign

CARD_INTEGRATION = 4097558
HMAC_SECRET = "test_hmac_secret"  # the shop's secret in the `fake_paymob` fixture's settings


def paymob_transaction(payment, *, tx_id: int = 555001, success: bool = True, **fields: Any) -> dict[str, Any]:
    """Paymob's card transaction for `payment` (settled, not refunded); `fields` replace its own."""
    return {
        "id": tx_id, "pending": False, "amount_cents": int(payment.amount * 100), "success": success,
        "is_auth": False, "is_capture": False, "is_standalone_payment": True, "is_voided": False,
        "is_refunded": False, "is_3d_secure": True, "integration_id": CARD_INTEGRATION, "profile_id": 1,
        "has_parent_transaction": False, "order": {"id": int(payment.provider_order_id), "currency": "EGP"},
        "created_at": "2026-11-21T20:00:00.123456", "currency": "EGP", "error_occured": False, "owner": 302852,
        "source_data": {"pan": "2346", "type": "card", "sub_type": "MasterCard"},
        **fields,
    }


def paymob_callback(client, obj: dict[str, Any], *, signature: str | None = None):
    """`obj` POSTed to the shop's callback as Paymob posts it, signed with the shop's secret unless
    `signature` is given."""
    signature = hmac_sign(obj, HMAC_SECRET) if signature is None else signature
    return client.post(f"/payment/callback/paymob?hmac={signature}",
                       data=json.dumps({"type": "TRANSACTION", "obj": obj}), content_type="application/json")
