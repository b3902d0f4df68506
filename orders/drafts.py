"""What the shopper typed at checkout, kept in their session so a failed card payment does not
blank the form (issue 12): "Try again" and "Pay on delivery instead" come back to it prefilled.

The draft is the validated form without passwords, tied to the order it placed; once that order
is paid (or confirmed as cash on delivery) it is no longer offered.
"""

from typing import TYPE_CHECKING

from django.http import HttpRequest
from rest_framework.request import Request

from orders.models import Order, PaymentStatus

if TYPE_CHECKING:  # orders.checkout imports this module
    from orders.checkout import CheckoutForm

SESSION_KEY = "checkout_draft"
# CheckoutForm attribute -> the island's field name; passwords are never kept
FIELDS = {
    "email": "email", "first_name": "firstName", "last_name": "lastName", "phone": "phone",
    "street": "street", "building": "building", "apartment": "apartment", "floor": "floor",
    "city": "city", "state": "state", "postal_code": "postalCode", "country": "country",
    "coupon_code": "couponCode", "payment_method": "paymentMethod",
}


def checkout_draft_keep(*, request: HttpRequest | Request, form: "CheckoutForm", order: Order) -> None:
    """Keep `form` (a validated CheckoutForm) for this session, tied to `order`."""
    request.session[SESSION_KEY] = {
        "order": order.number,
        "fields": {key: getattr(form, name) for name, key in FIELDS.items()},
    }


def checkout_draft_drop(*, request: HttpRequest | Request) -> None:
    request.session.pop(SESSION_KEY, None)


def checkout_draft_get(*, request: HttpRequest | Request) -> dict[str, str] | None:
    """The fields this session typed for an order still unpaid, else None."""
    draft = request.session.get(SESSION_KEY)
    if not isinstance(draft, dict) or not isinstance(draft.get("fields"), dict):
        return None
    status = Order.objects.filter(number=draft.get("order")).values_list("payment_status", flat=True).first()
    if status in (PaymentStatus.PAID, PaymentStatus.COD):
        return None
    return {key: str(draft["fields"].get(key, "")) for key in FIELDS.values()}

