"""What the checkout form starts with: the one place that merges every source.

`checkout_prefill` answers the checkout island's initial form values, in the
island's field names. Sources, later ones winning field by field:

1. the signed-in customer's account (name, e-mail, phone);
2. a saved address: the one asked for (`?address=<id>` on /checkout), else the default;
3. what this session typed before a failed card payment (`orders.drafts`), which the shopper
   expects to see again, with the payment method it chose;
4. the coupon this session applied last (`checkout_coupon_remembered`: the one applied since the
   last order was placed, else that order's while it is unpaid), so that leaving checkout for the
   cart and coming back, reloading, or coming back from a failed card payment keeps the discount.

Only non-empty values override, and only known fields pass. Every field is
answered (empty when nothing is known; country EGY), so the island needs no
defaults of its own.
"""

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from rest_framework.request import Request

from accounts.addresses import address_default
from accounts.models import Address, User
from orders.drafts import SESSION_KEY as _DRAFT_KEY
from orders.drafts import checkout_draft_get

_COUPON_KEY = "checkout_coupon"

# the checkout island's field names that may be prefilled
FIELDS = ("email", "firstName", "lastName", "phone", "street", "building", "apartment", "floor",
          "city", "state", "postalCode", "country")

_ADDRESS_FIELDS = {"firstName": "first_name", "lastName": "last_name", "phone": "phone", "street": "street",
                   "building": "building", "apartment": "apartment", "floor": "floor", "city": "city",
                   "state": "state", "postalCode": "postal_code", "country": "country"}


def _merge(into: dict[str, str], values: Mapping[str, Any]) -> None:
    for name in FIELDS:
        value = values.get(name)
        if isinstance(value, str) and value.strip():
            into[name] = value


def checkout_saved_address(*, user: User | AnonymousUser | None, address_id: int | str | None = None) -> Address | None:
    """The saved address to prefill: the one asked for when it is the customer's own, else the default."""
    if user is None or not user.is_authenticated:
        return None
    if address_id:
        chosen = Address.objects.filter(user=user, pk=address_id).first()
        if chosen is not None:
            return chosen
    return address_default(user=user)


def checkout_coupon_remember(*, request: HttpRequest, code: str) -> None:
    """Keep the coupon the shopper applied (a valid one) for this session's checkout and cart.

    "" takes it off: kept as "" while a placed order's draft is in the session, whose coupon would
    otherwise stand in for it (`checkout_coupon_remembered`).
    """
    if not code and _COUPON_KEY not in request.session and _DRAFT_KEY not in request.session:
        return
    if request.session.get(_COUPON_KEY) != code:
        request.session[_COUPON_KEY] = code


def checkout_coupon_forget(*, request: HttpRequest | Request) -> None:
    """Forget the coupon applied at checkout: an order was placed with it (its draft keeps it while unpaid)."""
    request.session.pop(_COUPON_KEY, None)


def checkout_coupon_applied(*, request: HttpRequest | Request) -> str | None:
    """The code of the coupon this session applied (or took off: "") since its last order was placed;
    None when it did neither, and the draft of that order, while unpaid, answers instead."""
    session = getattr(request, "session", None)
    if session is None or _COUPON_KEY not in session:
        return None
    code = session.get(_COUPON_KEY)
    return code if isinstance(code, str) else ""


def _draft_coupon(draft: Mapping[str, str] | None) -> str:
    """The coupon of a placed order's draft (`checkout_draft_get`; None for none)."""
    return draft["couponCode"] if draft else ""


def checkout_coupon_remembered(*, request: HttpRequest | Request) -> str:
    """The code of the coupon this session applied last at checkout ("" for none); the cart shows it too.

    Placing an order forgets the coupon applied (`checkout_coupon_forget`); until another is applied
    or it is taken off (`checkout_coupon_applied`), the coupon of that order's draft answers while the
    order is unpaid, so a declined or abandoned card payment leaves the coupon on the cart and the
    checkout, and a paid order leaves none for the next.
    """
    if getattr(request, "session", None) is None:
        return ""
    applied = checkout_coupon_applied(request=request)
    return applied if applied is not None else _draft_coupon(checkout_draft_get(request=request))


def checkout_prefill(*, request: HttpRequest,
                     address_id: int | str | None = None) -> tuple[dict[str, str], Address | None]:
    """The checkout form's starting values (island field names) and the saved address used, if any."""
    user = request.user if request.user.is_authenticated else None
    values = {name: "" for name in FIELDS} | {"country": "EGY"}
    if user is not None:
        _merge(values, {"email": user.email, "firstName": user.first_name, "lastName": user.last_name,
                        "phone": getattr(user, "phone", "")})
    address = checkout_saved_address(user=user, address_id=address_id)
    if address is not None:
        _merge(values, {form: getattr(address, field) for form, field in _ADDRESS_FIELDS.items()})
    session = getattr(request, "session", None)
    draft = checkout_draft_get(request=request) if session is not None else None
    if draft:
        _merge(values, draft)
        if draft.get("paymentMethod"):
            values["paymentMethod"] = draft["paymentMethod"]
    # checkout_coupon_remembered, with the draft read above (one query, not two)
    applied = checkout_coupon_applied(request=request)
    remembered = applied if applied is not None else _draft_coupon(draft)
    if remembered:
        values["couponCode"] = remembered
    if user is not None:  # a signed-in customer keeps the account's e-mail (checkout_validate insists)
        values["email"] = user.email
    return values, address
