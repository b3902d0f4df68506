"""Track my order, for guests too.

A shopper finds an order with its number plus the phone or e-mail used at
checkout; every wrong pair (unknown number, wrong contact, malformed input)
gets the same answer, and the lookups are rate-limited by the callers
(`track` scope), so orders cannot be enumerated. Order e-mails and the
thank-you page carry a signed link (django.core.signing) that opens the
tracking page without typing anything. What the page shows is masked where
it would tell a stranger holding the link more than they need.
"""

import re
from dataclasses import dataclass
from datetime import date, datetime

from django.conf import settings
from django.core import signing
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import override

from orders.delivery import day_label, window_text
from orders.documents import invoice_allowed, invoice_url
from orders.models import Order, OrderItem, OrderStatus
from orders.places import governorate_name
from orders.selectors import order_kiosk_reference
from shop.errors import ShopError
from shop.templatetags.shop_tags import text_direction
from shop.validation import EMAIL_MAX, PHONE_MAX, clean_text, western_digits

SALT = "orders.tracking"
NUMBER_MAX = 32


class TrackingError(ShopError):
    """The one answer to every lookup that finds nothing."""


def _not_found() -> TrackingError:
    return TrackingError(
        _("We could not find an order with these details. Please check the order number and the phone "
          "number or e-mail address you used at checkout."),
        status=404, code="order_not_found",
    )


def tracking_token(order: Order) -> str:
    """The signed order number: the same link every time (no expiry; order e-mails are kept for good)."""
    return signing.Signer(salt=SALT).sign_object(order.number)


def tracking_path(order: Order, language: str | None = None) -> str:
    """`/track/<token>` (or `/ar/track/<token>`) for `order`, in its language unless told."""
    language = language or order.language or "en"
    prefix = "" if language == "en" else f"/{language}"
    return f"{prefix}/track/{tracking_token(order)}"


def tracking_url(order: Order, language: str | None = None) -> str:
    """The absolute signed link for e-mails and WhatsApp messages."""
    base = settings.SITE_URL or (order.site_url or "").rstrip("/")
    return f"{base}{tracking_path(order, language)}"


def order_from_token(token: str) -> Order:
    """The order a signed link names, or TrackingError (a forged or mangled link)."""
    try:
        number = signing.Signer(salt=SALT).unsign_object(str(token or ""))
    except signing.BadSignature:
        raise _not_found() from None
    order = Order.objects.filter(number=number).first()
    if order is None:
        raise _not_found()
    return order


def _digits(text: str | None) -> str:
    return re.sub(r"\D", "", western_digits(text))


def _phone_matches(typed: str, stored: str) -> bool:
    typed, stored = _digits(typed), _digits(stored)
    if len(typed) < 7 or len(stored) < 7:
        return False
    if len(typed) >= 10 and len(stored) >= 10:  # +20 10…, 0020 10…, 010… are one number
        return typed[-10:] == stored[-10:]
    return typed == stored


def order_track_lookup(*, number: object, contact: object) -> Order:
    """The order numbered `number` whose checkout phone or e-mail is `contact`; else TrackingError."""
    number = western_digits(clean_text(number, field="orderNumber", max_length=NUMBER_MAX)).upper()
    contact = clean_text(contact, field="contact", max_length=max(EMAIL_MAX, PHONE_MAX))
    if not number or not contact:
        raise _not_found()
    order = Order.objects.filter(number=number).first()
    if order is None:
        raise _not_found()
    if "@" in contact:
        matches = contact.lower() == order.email.lower()
    else:
        matches = _phone_matches(contact, order.phone)
    if not matches:
        raise _not_found()
    return order


def _mask(text: str, keep: int = 3) -> str:
    text = (text or "").strip()
    if len(text) <= keep:
        return "•" * len(text)
    return text[:keep] + "•" * min(len(text) - keep, 8)


@dataclass(frozen=True)
class Shipment:
    tracking_number: str
    courier: str
    note: str  # the shop's note to the customer


def shipment_of(order: Order) -> Shipment | None:
    """The latest 'shipped' change with its tracking number, courier and note to the customer.

    A staff note added to an order already shipped (a change from shipped to shipped without shipping
    details) leaves the shipment as it was; a new shipping (from another status) starts afresh.
    """
    changes = [c for c in order.status_changes.all() if c.to_status == OrderStatus.SHIPPED and not (
        c.from_status == OrderStatus.SHIPPED and not (c.tracking_number or c.courier or c.customer_note))]
    change = changes[-1] if changes else None
    if change is None or not (change.tracking_number or change.courier or change.customer_note):
        return None
    return Shipment(tracking_number=change.tracking_number, courier=change.courier, note=change.customer_note)


@dataclass(frozen=True)
class TrackingStep:
    status: str
    label: str
    at: datetime
    day: str  # "Sun 29 Nov" in the page's language


@dataclass(frozen=True)
class TrackingDelivery:
    earliest: date
    latest: date
    text: str  # "Arrives Sun 29 Nov – Tue 1 Dec"


@dataclass(frozen=True)
class MaskedAddress:
    name: str
    street: str
    # the street's own direction: masked ("12 •••••••") it has no letter left for the page's dir="auto"
    street_dir: str
    city: str
    governorate: str
    country: str
    phone: str


@dataclass(frozen=True)
class Tracking:
    """What the tracking page and API show of `order` (`orders.serializers.TrackingOutputSerializer`)."""

    order: Order
    status_label: str
    payment_label: str
    history: list[TrackingStep]
    items: list[OrderItem]
    address: MaskedAddress
    delivery: TrackingDelivery | None
    shipment: Shipment | None
    invoice_url: str | None  # only for the order's owner and staff: the invoice shows the full address
    # the reference to pay with at an Aman or Masary outlet, while a kiosk payment is pending
    kiosk_reference: str = ""


def tracking_data(order: Order, *, language: str, request: HttpRequest) -> Tracking:
    """Everything the tracking page and API show to the visitor of `request`, in `language` (masked address
    and phone; the invoice link only when `invoice_allowed` lets this visitor open it)."""
    labels = dict(OrderStatus.choices)
    with override(language):
        history: list[TrackingStep] = []
        for change in order.status_changes.all():
            if change.to_status == (history[-1].status if history else None):
                continue
            label = str(labels.get(change.to_status, change.to_status))
            history.append(TrackingStep(status=change.to_status, label=label, at=change.created_at,
                                        day=day_label(change.created_at, language)))
        delivery = None
        on_the_way = order.status not in (OrderStatus.CANCELLED, OrderStatus.DELIVERED)
        if order.delivery_min_date and order.delivery_max_date and on_the_way:
            delivery = TrackingDelivery(earliest=order.delivery_min_date, latest=order.delivery_max_date,
                                        text=window_text((order.delivery_min_date, order.delivery_max_date), language))
        state = governorate_name(order.state, language)
        return Tracking(
            order=order,
            status_label=str(labels.get(order.status, order.status)),
            payment_label=str(order.get_payment_status_display()),
            history=history,
            items=list(order.items.all()),
            address=MaskedAddress(name=f"{order.first_name} {order.last_name[:1]}.".strip(), street=_mask(order.street),
                                  street_dir=text_direction(order.street or ""),
                                  city=order.city, governorate=state, country=order.country,
                                  phone="•" * 6 + _digits(order.phone)[-3:]),
            delivery=delivery,
            shipment=shipment_of(order),
            # not for whoever holds the tracking link or knows number + phone: the PDF has the full address
            invoice_url=invoice_url(order=order, language=language) if invoice_allowed(request, order) else None,
            kiosk_reference=order_kiosk_reference(order),
        )
