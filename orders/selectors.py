"""Reads about orders that pages and the API share: who may see one, and its summary."""

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Exists, OuterRef, Q
from django.http import HttpRequest
from django.utils import timezone

from orders import notes
from orders.models import (
    Order,
    OrderStatus,
    OrderStatusChange,
    Payment,
    PaymentEvent,
    PaymentMethod,
    PaymentStatus,
)
from orders.notes import note_patterns, note_write
from shop.stored_texts import stored_text_read


def session_owns(request: HttpRequest, order: Order) -> bool:
    """Whether this visitor placed `order`: the signed-in customer, or the session that placed it."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and order.user_id == user.pk:
        return True
    session = getattr(request, "session", None)
    return session is not None and order.number in session.get("orders", [])


@dataclass(frozen=True)
class OrderSummary:
    """An order as the storefront islands read it (`orders.serializers.OrderSummaryOutputSerializer`)."""

    order_id: str
    total: Decimal
    email: str
    payment_id: str
    payment_method: str
    payment_status: str
    status: str


def order_summary(order: Order, payment: Payment | None = None) -> OrderSummary:
    """What the islands are told about `order` (and its payment) after checkout and payment."""
    return OrderSummary(order_id=order.number, total=order.total_amount, email=order.email,
                        payment_id=payment.payment_id if payment else "", payment_method=order.payment_method,
                        payment_status=order.payment_status, status=order.status)


def order_card_orders_unsettled(order: Order) -> list[Order]:
    """The card orders of the same cart that cash-on-delivery `order` replaced while Paymob could not say
    whether they were paid ("Pay on delivery instead": orders.checkout._unpayable_orders_cancel,
    notes.REPLACED_BY_COD_UNANSWERED): kept pending for the expiry job to ask again, their stock handed to
    `order`. Their customer is told on `order`'s thank-you page while that question is open; once answered
    (expired unpaid, or paid and flagged for staff: orders.actions._flag_paid_after_replaced) they are not."""
    if order.payment_method != PaymentMethod.COD:
        return []
    if order.user_id is not None:
        theirs = Order.objects.filter(user_id=order.user_id)
    elif order.session_key:
        theirs = Order.objects.filter(user=None, session_key=order.session_key)
    else:
        return []
    handed_over = OrderStatusChange.objects.filter(order=OuterRef("pk"), note=notes.REPLACED_BY_COD_UNANSWERED,
                                                   created_at__lte=order.created_at)
    items = sorted(order.items.values_list("product_id", "quantity"))
    candidates = (theirs.filter(Exists(handed_over), status=OrderStatus.PENDING,
                                payment_status=PaymentStatus.AWAITING, stock_reserved=False)
                  .exclude(payment_method=PaymentMethod.COD).exclude(pk=order.pk)
                  .prefetch_related("items").order_by("created_at"))
    return [card for card in candidates
            if sorted((item.product_id, item.quantity) for item in card.items.all()) == items]


# a card order unpaid this long expires and its stock comes back (orders.tasks.orders_expire_unpaid)
UNPAID_LIFETIME = timedelta(minutes=30)


@dataclass(frozen=True)
class UnpaidLifetime:
    """How long an order awaiting its payment is held before it expires, from when (`since`:
    order_unpaid_since), and the note its expiry records."""

    length: timedelta
    note: str
    since: datetime

    def over(self, now: datetime) -> bool:
        """Whether the order has outlived it at `now`."""
        return now - self.since >= self.length


def order_unpaid_since(order: Order) -> datetime:
    """When `order` began awaiting its payment: when it was placed or, restored to pending after it was
    cancelled (staff restoring an order whose kiosk reference was taken after it expired:
    orders.actions.order_pending_after_cancel), when it was last restored. Counted from its placing, one
    restored more than a lifetime later would expire again at the expiry job's next run."""
    restored = (OrderStatusChange.objects.filter(order=order, from_status=OrderStatus.CANCELLED,
                                                 to_status=OrderStatus.PENDING)
                .order_by("-created_at").values_list("created_at", flat=True).first())
    return max(order.created_at, restored) if restored is not None else order.created_at


def order_pending_report(order: Order) -> PaymentEvent | None:
    """The latest report of a payment `order` still awaits that said it is pending: a kiosk (Aman, Masary)
    payment, whose reference the customer takes to an outlet to pay cash (`payload.data.bill_reference`)."""
    return (PaymentEvent.objects.filter(payment__order=order, payment__status=PaymentStatus.AWAITING,
                                        kind__endswith="-pending")
            .order_by("-created_at", "-pk").first())


def order_kiosk_reference(order: Order) -> str:
    """The reference `order`'s customer pays with at an Aman or Masary outlet: the `bill_reference` of its
    payment's pending report, while the order still awaits it; "" when there is none. Paymob does not sign
    it, so only a number is shown (whoever could change it holds the signed report of their own payment)."""
    if (order.status, order.payment_status) != (OrderStatus.PENDING, PaymentStatus.AWAITING):
        return ""
    report = order_pending_report(order)
    payload = report.payload if report is not None and isinstance(report.payload, dict) else {}
    data = payload.get("data")
    # a callback's or inquiry's nested object, or the redirect's flat parameters
    reference = data.get("bill_reference") if isinstance(data, dict) else payload.get("data.bill_reference")
    reference = "" if reference is None or isinstance(reference, bool) else str(reference)
    return reference if re.fullmatch(r"[0-9]{1,20}", reference) else ""


def order_awaits_kiosk_cash(order: Order) -> bool:
    """Whether `order` awaits the cash its customer pays at an Aman or Masary outlet: still pending, its
    payment reported pending (kiosk) and not yet paid. Such an order is held PAYMOB_PENDING_HOURS."""
    return ((order.status, order.payment_status) == (OrderStatus.PENDING, PaymentStatus.AWAITING)
            and order_pending_report(order) is not None)


def order_unpaid_lifetime(order: Order, *, provider_silent: Mapping[str, str] | None = None) -> UnpaidLifetime:
    """How long `order` may await its card payment before it expires and its stock comes back.

    UNPAID_LIFETIME (30 minutes), unless its payment was reported pending: a kiosk payment, which the
    customer often pays in cash hours later, and Paymob cannot refund one that lands on a cancelled
    order. That order is held PAYMOB_PENDING_HOURS. Each is counted from when it was placed, or last
    restored to pending (order_unpaid_since).

    `provider_silent` ({provider, reason}): its provider could not be asked whether it was paid (down, slow,
    garbage; the expiry job, orders.tasks). It has not said "not paid", and a payment whose callback never
    came would be lost with its order, so the order is held as long as a kiosk one, PAYMOB_PENDING_HOURS;
    the note says for how long and why."""
    since = order_unpaid_since(order)
    if provider_silent:
        hours = settings.PAYMOB_PENDING_HOURS
        return UnpaidLifetime(timedelta(hours=hours),
                              note_write(notes.UNPAID_PROVIDER_SILENT, hours=f"{hours:g}", **provider_silent), since)
    if order_pending_report(order) is not None:
        hours = settings.PAYMOB_PENDING_HOURS
        return UnpaidLifetime(timedelta(hours=hours), note_write(notes.UNPAID_KIOSK, hours=f"{hours:g}"), since)
    return UnpaidLifetime(UNPAID_LIFETIME, notes.UNPAID_30_MINUTES, since)


def _placed_by(*, session_key: str = "", client_ip: str | None = None,
               user: AbstractBaseUser | AnonymousUser | None = None) -> Q:
    """Orders placed by this session, this address or this customer (any one of those given); none if none is."""
    who = Q(pk__in=[])
    if session_key:
        who |= Q(session_key=session_key)
    if client_ip:
        who |= Q(client_ip=client_ip)
    if user is not None and user.is_authenticated:
        who |= Q(user=user)
    return who


def reported_pending() -> Exists:
    """Whether an order's payment was reported pending (a kiosk reference): order_pending_report in SQL, to
    annotate a list of orders (with pending and awaiting, order_awaits_kiosk_cash for each of them)."""
    return Exists(PaymentEvent.objects.filter(payment__order=OuterRef("pk"), payment__status=PaymentStatus.AWAITING,
                                              kind__endswith="-pending"))


def unpaid_orders_count(*, session_key: str = "", client_ip: str | None = None,
                        user: AbstractBaseUser | AnonymousUser | None = None) -> int:
    """Orders placed in the last 30 minutes (UNPAID_LIFETIME) and still waiting for their payment by this
    session, address or customer: card attempts. Not those awaiting cash at a kiosk (kiosk_orders_held_count),
    held a day, nor an older one the expiry job keeps while the provider cannot say whether it was paid
    (orders.tasks): its visitor was told to wait 30 minutes, and did. Nor one replaced by a cash-on-delivery
    order of its cart while the provider could not be asked (orders.actions.order_stock_hand_over): it holds
    no stock, and is kept only to be asked about."""
    who = _placed_by(session_key=session_key, client_ip=client_ip, user=user)
    return Order.objects.filter(who, ~reported_pending(), status=OrderStatus.PENDING,
                                payment_status=PaymentStatus.AWAITING, stock_reserved=True,
                                created_at__gt=timezone.now() - UNPAID_LIFETIME).count()


def kiosk_orders_held_count(*, session_key: str = "", client_ip: str | None = None,
                            user: AbstractBaseUser | AnonymousUser | None = None) -> int:
    """Orders placed by this session, address or customer that await cash at an Aman or Masary outlet
    (order_awaits_kiosk_cash), each held PAYMOB_PENDING_HOURS."""
    who = _placed_by(session_key=session_key, client_ip=client_ip, user=user)
    return Order.objects.filter(who, reported_pending(), status=OrderStatus.PENDING,
                                payment_status=PaymentStatus.AWAITING).count()


def open_cod_orders_count(*, session_key: str = "", user: AbstractBaseUser | AnonymousUser | None = None,
                          since: datetime) -> int:
    """Cash-on-delivery orders this session or customer placed since `since` that have not shipped yet:
    each holds its stock until staff act. (Not by address: many homes share a mobile carrier's.)"""
    return Order.objects.filter(_placed_by(session_key=session_key, user=user), payment_status=PaymentStatus.COD,
                                created_at__gte=since,
                                status__in=[OrderStatus.PENDING, OrderStatus.PROCESSING]).count()


def status_note_text(note: str, *, by_staff: bool) -> str:
    """The note of a status change as the reader reads it: one the shop wrote (`by_staff` False; one of
    orders.notes.SYSTEM_NOTES, stored in English) in the active language, the values it carries (the
    provider and its transaction id) kept as written; a staff member's own words as they wrote them, and a
    note the shop no longer writes as it was written."""
    if by_staff:
        return note
    read = stored_text_read(note, note_patterns())
    return note if read is None else read
