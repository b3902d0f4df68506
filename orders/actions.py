"""Order state changes: one function per change.

`order_set_status` is what the dashboard calls; payment outcomes go through
`order_mark_paid` / `order_payment_failed`; `order_cancel` releases stock.
"""

import logging
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.text import Truncator
from django.utils.translation import gettext as _

from accounts.models import User
from backoffice import audit_texts as texts
from backoffice.audit import audit_record
from backoffice.audit_texts import audit_text
from orders import notes
from orders.cart import CartOwner, cart_clear_if_ordered
from orders.coupons import coupon_use_give_back, coupon_use_take
from orders.emails import (
    order_attention_send,
    order_confirmation_send,
    order_refund_send,
    order_refund_void_send,
    order_status_send,
)
from orders.models import Order, OrderStatus, OrderStatusChange, Payment, PaymentMethod, PaymentStatus
from orders.stock import InsufficientStock, stock_release, stock_reserve
from orders.tracking import shipment_of
from shop.errors import ShopError

logger = logging.getLogger(__name__)

S = OrderStatus
# There is no transition table: staff may set any status from any other
# (spec 4). Leaving `cancelled` takes the stock again, so it can fail when the
# products have sold out meanwhile; payment outcomes have their own functions.
NOTE_MAX = 300  # OrderStatusChange.note
PROBLEM_MAX = 100  # a stock problem inside an audit entry's details (AuditEntry.details keeps 500)
TRACKING_MAX = 100  # OrderStatusChange.tracking_number
COURIER_MAX = 100  # OrderStatusChange.courier
# statuses the customer hears about by e-mail
NOTIFY = {S.SHIPPED, S.DELIVERED, S.CANCELLED}
# flags settled by a human check in the payment provider's dashboard, never by a status change or a refund:
# nothing in those says the money was checked, so staff say it themselves ("Mark as checked",
# backoffice.orders.order_attention_mark_checked). Money returned that does not match the payment, and a
# second payment for a paid order (refund one of the two, then say so), and money taken in another amount or
# currency than the order's (refund it or settle the difference, then say so). A card order paid beside its
# cash-on-delivery replacement too: staff ship one of the two and cancel the other, and a move of this one
# says nothing of the other, which may ship as well
CHECKED_BY_HAND = frozenset({"refund_to_check", "paid_twice", "amount_to_check", "paid_after_replaced"})


class OrderStatusError(ShopError):
    """A status change the order cannot make; the status asked for is at fault."""

    field = "status"


def order_lines(order: Order) -> list[tuple[int, int]]:
    """(product id, quantity) of each of `order`'s items whose product still exists."""
    return [(item.product_id, item.quantity) for item in order.items.all() if item.product_id]


def _locked(order: Order) -> Order:
    return Order.objects.select_for_update().get(pk=order.pk)


def order_set_status(*, order: Order, status: str, actor: User | None = None, note: str = "", tracking_number: str = "",
                     courier: str = "", customer_note: str = "", notify: bool = True,
                     settles_attention: bool = False) -> Order:
    """Move `order` to `status`, record the change (with a staff note and, when
    shipped, a tracking number, courier and a note to the customer), and tell the
    customer (e-mail, and WhatsApp when they opted in). `settles_attention`: staff
    moved it from its own page, beside its alert, so its open reasons are settled, except those staff
    settle by a check in the provider's dashboard (CHECKED_BY_HAND: a refund to check, a second payment).

    Cancelling releases reserved stock and gives the coupon's use back; un-cancelling takes both again.
    Setting the current status again moves nothing, but a note or new shipping details sent with it are
    recorded (`_details_record`). Return the order.
    """
    if status not in S.values:
        raise OrderStatusError(_("Unknown order status"))
    if tracking_number and status != S.SHIPPED:
        raise OrderStatusError(_("A tracking number goes with the shipped status only"), field="trackingNumber")
    if (courier or customer_note) and status != S.SHIPPED:
        raise OrderStatusError(_("A courier and a note to the customer go with the shipped status only"),
                               field="courier" if courier else "customerNote")
    with transaction.atomic():
        locked = _locked(order)
        current = locked.status
        if status == current:
            _details_record(locked, actor=actor, note=note[:NOTE_MAX], tracking_number=tracking_number[:TRACKING_MAX],
                            courier=courier[:COURIER_MAX], customer_note=customer_note[:NOTE_MAX], notify=notify)
            return locked
        fields = ["status", "updated_at"]
        if status == S.CANCELLED and locked.stock_reserved:
            stock_release(lines=order_lines(locked))
            if locked.coupon_id is not None:
                coupon_use_give_back(locked.coupon_id)
            locked.stock_reserved = False
            fields.append("stock_reserved")
        elif current == S.CANCELLED and not locked.stock_reserved:
            try:
                stock_reserve(lines=order_lines(locked))
            except InsufficientStock as exc:
                raise OrderStatusError(exc.message) from None
            if locked.coupon_id is not None:
                # staff restoring an order keep the discount it was placed with, even past the
                # coupon's limit or after it was switched off; the count stops at the limit
                coupon_use_take(locked.coupon_id, active_only=False)
            locked.stock_reserved = True
            fields.append("stock_reserved")
        if settles_attention and _attention_drop(locked, set(locked.attention_reasons) - CHECKED_BY_HAND):
            fields += ["needs_attention", "attention_reasons"]
        locked.status = status
        locked.save(update_fields=fields)
        # money the shop holds is owed back: a paid card order's, or the cash a courier collected on delivery
        cash_collected = locked.payment_status == PaymentStatus.COD and current == S.DELIVERED
        if status == S.CANCELLED and (locked.payment_status == PaymentStatus.PAID or cash_collected):
            _refund_due_flag(locked)
        OrderStatusChange.objects.create(
            order=locked, from_status=current, to_status=status, note=note[:NOTE_MAX],
            tracking_number=tracking_number[:TRACKING_MAX],
            courier=courier[:COURIER_MAX], customer_note=customer_note[:NOTE_MAX],
            actor=actor if actor is not None and actor.is_authenticated else None,
        )
        if status in NOTIFY and notify:
            order_status_send(order=locked, status=status)
    order.refresh_from_db()
    return order


def _details_record(order: Order, *, actor: User | None, note: str, tracking_number: str, courier: str,
                    customer_note: str, notify: bool) -> None:
    """Record what came with the order's current status: a staff note, or new shipping details.

    A tracking number often comes after the parcel left (the courier books it later). It is kept as a change from
    shipped to shipped, keeping the courier and note to the customer already given unless new ones come, and the
    customer hears of it as they heard of the shipping. Details already given, sent again, record nothing.
    """
    given = shipment_of(order) if order.status == S.SHIPPED else None
    before = (given.tracking_number, given.courier, given.note) if given else ("", "", "")
    after = (tracking_number or before[0], courier or before[1], customer_note or before[2])
    new_shipment = order.status == S.SHIPPED and after != before
    if not (new_shipment or note):
        return
    tracking_number, courier, customer_note = after if new_shipment else ("", "", "")
    OrderStatusChange.objects.create(
        order=order, from_status=order.status, to_status=order.status, note=note, tracking_number=tracking_number,
        courier=courier, customer_note=customer_note,
        actor=actor if actor is not None and actor.is_authenticated else None,
    )
    if new_shipment and notify:
        order_status_send(order=order, status=order.status)


def order_cancel(*, order: Order, actor: User | None = None, note: str = "") -> Order:
    """Cancel `order` and put its stock back."""
    return order_set_status(order=order, status=S.CANCELLED, actor=actor, note=note)


def order_expire_unpaid(*, order: Order, note: str, notify: bool = True) -> bool:
    """Cancel `order` and put its stock back if it is still pending and awaiting its payment; True if it was.
    The customer is told unless `notify` is False.

    Checked under the order's lock: a payment recorded since the caller read the order (the callback
    landing while the expiry job runs) keeps it, where cancelling would release the stock of a paid order.
    """
    with transaction.atomic():
        locked = _locked(order)
        if locked.status != S.PENDING or locked.payment_status != PaymentStatus.AWAITING:
            return False
        order_set_status(order=locked, status=S.CANCELLED, note=note, notify=notify)
    return True


def order_mark_paid(*, order: Order, note: str = "") -> Order:
    """Record a verified payment: paid, processing, confirmation e-mail. Idempotent.

    Money captured on a cancelled order (paid after it expired, or a success
    after a decline) is never silent: the order keeps `cancelled` (its stock
    may be gone) and is flagged for staff, with an audit entry and an e-mail
    to the store's address.
    """
    with transaction.atomic():
        locked = _locked(order)
        if locked.payment_status == PaymentStatus.PAID:
            return locked
        was_cancelled = locked.status == S.CANCELLED
        previous_payment = locked.payment_status
        locked.payment_status = PaymentStatus.PAID
        locked.paid_at = timezone.now()
        locked.save(update_fields=["payment_status", "paid_at", "updated_at"])
        if was_cancelled:
            _flag_captured_on_cancelled(locked, previous_payment=previous_payment, note=note)
            # not the confirmation: nothing is on its way until staff restore the order or refund it
            order_status_send(order=locked, status="paid_after_cancel")
        else:
            replacing = _replacing_cod_order(locked) if locked.status == S.PENDING else None
            if locked.status == S.PENDING:
                order_set_status(order=locked, status=S.PROCESSING, note=note or notes.PAYMENT_RECEIVED)
            if replacing is not None:
                _flag_paid_after_replaced(locked, replacing=replacing, note=note)
            order_confirmation_send(order=locked)
            if locked.user_id is not None or locked.session_key:
                cart_clear_if_ordered(owner=CartOwner(locked.user_id, "" if locked.user_id else locked.session_key),
                                      ordered=order_lines(locked))
    order.refresh_from_db()
    return order


# the note an entry names its payment by when the payment came without one: a note the shop writes (read in the
# reader's language), not the English word "payment" inside an Arabic sentence
_NO_NOTE = notes.note_write(notes.PAYMENT_RECEIVED)


def _flag_captured_on_cancelled(order: Order, *, previous_payment: str, note: str) -> None:
    """Flag `order` (locked, cancelled, just paid) for staff: audit entry and store e-mail."""
    reason = ("paid_after_decline" if previous_payment == PaymentStatus.FAILED else "paid_after_cancel")
    _order_flag(order, reason, action="order.captured_on_cancelled",
                details=audit_text(texts.CAPTURED_ON_CANCELLED, number=order.number, amount=order.total_amount,
                                   reason=reason, note=note or _NO_NOTE))
    order_attention_send(order=order)


def order_stock_hand_over(*, order: Order, note: str) -> bool:
    """`order`, a card order its provider could not be asked about, is replaced by a cash-on-delivery order of
    the same cart about to be placed in the caller's transaction: it is kept pending (it may have been paid,
    its callback still to come; the expiry job asks again), but its stock and coupon use are given back for
    the new order to take, so the cart is held once. Recorded in its history (`note`); True if it was still
    pending, awaiting and holding its stock."""
    with transaction.atomic():
        locked = _locked(order)
        if locked.status != S.PENDING or locked.payment_status != PaymentStatus.AWAITING or not locked.stock_reserved:
            return False
        stock_release(lines=order_lines(locked))
        if locked.coupon_id is not None:
            coupon_use_give_back(locked.coupon_id)
        locked.stock_reserved = False
        locked.save(update_fields=["stock_reserved", "updated_at"])
        OrderStatusChange.objects.create(order=locked, from_status=S.PENDING, to_status=S.PENDING, note=note[:NOTE_MAX])
    return True


def _replacing_cod_order(order: Order) -> Order | None:
    """The cash-on-delivery order its customer placed instead of `order` (locked): `order` handed it its stock
    (order_stock_hand_over), and a later cash-on-delivery order of theirs holds exactly its items."""
    if order.stock_reserved or order.payment_method == PaymentMethod.COD:
        return None
    if order.user_id is not None:
        theirs = Order.objects.filter(user_id=order.user_id)
    elif order.session_key:
        theirs = Order.objects.filter(user=None, session_key=order.session_key)
    else:
        return None
    items = sorted(order.items.values_list("product_id", "quantity"))
    for later in theirs.filter(payment_method=PaymentMethod.COD, created_at__gte=order.created_at).exclude(
            pk=order.pk).order_by("created_at")[:10]:
        if sorted(later.items.values_list("product_id", "quantity")) == items:
            return later
    return None


def _flag_paid_after_replaced(order: Order, *, replacing: Order, note: str) -> None:
    """`order` (locked, just paid) was replaced by the cash-on-delivery order `replacing` while its provider could
    not say whether it was paid: both now stand for one cart. It takes its stock again if there is enough
    (then cancelling either order gives back only its own), and is flagged for staff to ship one and cancel
    the other (refunding this payment if it is this one)."""
    try:
        with transaction.atomic():
            stock_reserve(lines=order_lines(order))
            if order.coupon_id is not None:
                coupon_use_take(order.coupon_id, active_only=False)
            order.stock_reserved = True
            order.save(update_fields=["stock_reserved", "updated_at"])
        details = audit_text(texts.PAID_AFTER_REPLACED_STOCK_HELD, number=order.number, note=note or _NO_NOTE,
                             amount=order.total_amount, other=replacing.number)
    except InsufficientStock as exc:
        details = audit_text(texts.PAID_AFTER_REPLACED_NO_STOCK, number=order.number, note=note or _NO_NOTE,
                             amount=order.total_amount, other=replacing.number,
                             # the products' names cut short: whole, they pushed the sentence past the 500
                             # characters an entry keeps, losing what to do and its reading in Arabic
                             problem=Truncator(exc.message).chars(PROBLEM_MAX))
    _order_flag(order, "paid_after_replaced", action="order.paid_after_replaced", details=details)
    order_attention_send(order=order, reason="paid_after_replaced", other=replacing)


def _refund_due_flag(order: Order) -> None:
    """Flag the cancelled, paid `order` (locked; cash on delivery: cancelled once delivered) for staff: the
    money it kept is owed back, through the payment provider or, cash, by hand (order_cash_refund)."""
    left = order.total_amount - order.refunded_amount
    _order_flag(order, "refund_due", action="order.refund_due",
                details=audit_text(texts.REFUND_DUE_CASH if order.payment_status == PaymentStatus.COD
                                   else texts.REFUND_DUE, number=order.number, amount=left))


def order_cash_collected(order: Order) -> bool:
    """Whether the courier collected the cash of `order`, a cash-on-delivery order not refunded in full (what
    order_cash_refund may give back): it is delivered, or it was delivered when it was cancelled (the tea
    came back). One moved back from delivered before it was cancelled (staff correcting a mistaken click)
    was not: its last status before the cancellation is what counts."""
    if order.payment_method != PaymentMethod.COD or order.payment_status != PaymentStatus.COD:
        return False
    if order.status != S.CANCELLED:
        return order.status == S.DELIVERED
    cancelled_from = (order.status_changes.filter(to_status=S.CANCELLED).exclude(from_status=S.CANCELLED)
                      .order_by("-pk").values_list("from_status", flat=True).first())
    return cancelled_from == S.DELIVERED


def order_paid_twice(*, order: Order, note: str) -> None:
    """A second transaction captured money for an order already paid (two tabs on one payment page): flagged
    for staff to refund one of them, with an audit entry and an e-mail to the store's address."""
    with transaction.atomic():
        locked = _locked(order)
        _order_flag(locked, "paid_twice", action="order.paid_twice",
                    details=audit_text(texts.PAID_TWICE, number=locked.number, note=note, amount=locked.total_amount))
        order_attention_send(order=locked, reason="paid_twice")


def order_pending_after_cancel(*, order: Order, note: str) -> None:
    """Paymob reports a payment of `order` pending (a kiosk reference, to pay cash at an Aman or Masary outlet)
    after the order was cancelled unpaid: its hosted page outlived it (expired, replaced, cancelled). Cash paid
    with that reference would land on a cancelled order, and Paymob cannot refund it, so the order is flagged
    for staff, with an audit entry and an e-mail to the store's address, while there is time: restore the
    order (the stock allowing) so the cash lands on it, or tell the customer not to pay. Once per report."""
    with transaction.atomic():
        locked = _locked(order)
        if locked.status != S.CANCELLED or locked.payment_status not in (PaymentStatus.AWAITING, PaymentStatus.FAILED):
            return
        _order_flag(locked, "pending_after_cancel", action="order.pending_after_cancel",
                    details=audit_text(texts.PENDING_AFTER_CANCEL, number=locked.number, note=note))
        order_attention_send(order=locked, reason="pending_after_cancel")


def _order_flag(order: Order, reason: str, *, action: str, details: str, actor: User | None = None) -> None:
    """Flag `order` (locked) for staff with `reason`, beside the reasons still open (a later flag never
    replaces an earlier one; a reason already open is listed once). The audit log, entry `action`, keeps
    every flag raised (`actor`: the member of staff whose action raised it, None for the shop itself)."""
    if reason not in order.attention_reasons:
        order.attention_reasons = [*order.attention_reasons, reason]
    order.needs_attention = True
    order.save(update_fields=["needs_attention", "attention_reasons", "updated_at"])
    logger.warning("order %s flagged: %s", order.number, reason)
    audit_record(actor=actor, action=action, target=order, details=details)


def _attention_drop(order: Order, reasons: set[str] | frozenset[str]) -> list[str]:
    """Settle `reasons` on `order` (locked; not saved): the open ones among them are dropped, the others
    stay open. Return those dropped, in the order they were raised."""
    dropped = [reason for reason in order.attention_reasons if reason in reasons]
    if dropped:
        order.attention_reasons = [reason for reason in order.attention_reasons if reason not in reasons]
        order.needs_attention = bool(order.attention_reasons)
    return dropped


def order_attention_settle(*, order: Order) -> None:
    """The money owed back on a cancelled `order` was refunded in full: what it was flagged for is settled
    (money captured on it, a refund due), but not a flag staff settle by a check in the provider's
    dashboard (CHECKED_BY_HAND), which stays open."""
    with transaction.atomic():
        locked = _locked(order)
        if locked.status == S.CANCELLED and _attention_drop(locked, set(locked.attention_reasons) - CHECKED_BY_HAND):
            locked.save(update_fields=["needs_attention", "attention_reasons", "updated_at"])


def order_attention_to_check(order: Order) -> list[str]:
    """`order`'s open reasons that staff settle by a check in the provider's dashboard ("Mark as checked")."""
    return [reason for reason in order.attention_reasons if reason in CHECKED_BY_HAND]


def order_attention_checked(*, order: Order, reasons: set[str] | frozenset[str]) -> list[str]:
    """Staff checked `reasons` (each in CHECKED_BY_HAND) in the provider's dashboard: the open ones are
    dropped from `order`, the others stay. Return those dropped (none: nothing of them was open, or another
    member of staff checked them a moment ago). The status is not touched."""
    if not reasons <= CHECKED_BY_HAND:
        raise ValueError(f"not settled by a check: {sorted(reasons - CHECKED_BY_HAND)}")
    with transaction.atomic():
        locked = _locked(order)
        dropped = _attention_drop(locked, reasons)
        if dropped:
            locked.save(update_fields=["needs_attention", "attention_reasons", "updated_at"])
    order.refresh_from_db()
    return dropped


def order_partly_refunded(*, order: Order, returned: Decimal) -> None:
    """Part of a paid order's money was returned (a partial refund in the provider's dashboard; `returned`:
    all of it so far): the order stays paid, revenue counts only what it kept (`refunded_amount`), and the
    change is recorded for staff in the audit log, and the customer told (order_refund_record)."""
    order_refund_record(order=order, returned=returned)
    logger.info("order %s: %s EGP of %s returned", order.number, returned, order.total_amount)


def order_refund_record(*, order: Order, returned: Decimal, in_full: bool = False, paid_again: bool = False,
                        cash_by: User | None = None) -> None:
    """Record `returned`, all of `order`'s money its payment provider reports given back so far (`in_full`:
    all of the payment, which makes the order refunded), and tell the customer what this report adds to what
    the order had recorded (`refunded_amount`): one e-mail per refund, naming its own amount. The same total
    reported again (a replayed callback, the success that settles refunds reported before it) adds nothing
    and tells nothing. A refund voided afterwards lowers the total: the customer, told of it when it was
    made, gets one correction naming the amount that will not come back after all (once per void: a
    replayed void reports the same total again). Every change of the total, up or down, writes one audit
    entry here, whichever report made it, so none goes unrecorded for staff.

    `in_full` while the order still waits to be shipped: it is flagged `refunded_unshipped`, so that staff
    cancel it (its stock comes back) rather than send what is no longer paid, and that flag's audit entry
    (`order.refunded_unshipped`) is the refund's one entry, saying both.

    `paid_again`: a refund of the refunded order was voided, so the shop holds money of it again (its
    payment is paid again: orders.payments.services._full_refund_voided). The order is paid again too, and
    flagged as what it is now: no longer to cancel because all of it came back (`refunded_unshipped`), and,
    cancelled, owing back what it kept (`refund_due`), as a paid order staff cancel does.

    `cash_by`: the member of staff who gave cash back for a cash-on-delivery order (order_cash_refund), whom
    the audit entry names; the customer's e-mail says cash, not their card."""
    with transaction.atomic():
        locked = _locked(order)
        paid_again = paid_again and locked.payment_status == PaymentStatus.REFUNDED  # once: a replay finds it paid
        added = returned - locked.refunded_amount
        status = PaymentStatus.REFUNDED if in_full else PaymentStatus.PAID if paid_again else None
        fields = {"refunded_amount": returned, **({"payment_status": status} if status else {})}
        Order.objects.filter(pk=locked.pk).update(**fields)
        locked.refunded_amount = returned
        if added > 0:
            order_refund_send(order=locked, amount=added, refunded=returned, cash=cash_by is not None)
        elif added < 0:
            order_refund_void_send(order=locked, amount=-added, refunded=returned)
        if in_full and locked.status in (S.PENDING, S.PROCESSING):
            _refunded_unshipped_flag(locked, added=added, cash_by=cash_by)
        elif added:
            _refund_audit(locked, added=added, in_full=in_full, paid_again=paid_again, cash_by=cash_by)
        if paid_again:
            locked.payment_status = PaymentStatus.PAID
            if _attention_drop(locked, {"refunded_unshipped"}):
                locked.save(update_fields=["needs_attention", "attention_reasons", "updated_at"])
            if locked.status == S.CANCELLED:
                _refund_due_flag(locked)


def _refunded_unshipped_flag(order: Order, *, added: Decimal, cash_by: User | None = None) -> None:
    """Flag `order` (locked), refunded in full (`added` by this report) before it shipped, for staff to cancel
    it rather than send it: one audit entry records the refund and the flag (and who gave the cash back)."""
    number, total = order.number, order.total_amount
    if added <= 0:
        details = audit_text(texts.REFUNDED_UNSHIPPED_BEFORE, number=number, total=total)
    elif cash_by:
        details = audit_text(texts.REFUNDED_UNSHIPPED_CASH, number=number, added=added, total=total,
                             username=cash_by.username)
    else:
        details = audit_text(texts.REFUNDED_UNSHIPPED, number=number, added=added, total=total)
    _order_flag(order, "refunded_unshipped", action="order.refunded_unshipped", actor=cash_by, details=details)


def _refund_audit(order: Order, *, added: Decimal, in_full: bool, paid_again: bool,
                  cash_by: User | None = None) -> None:
    """The audit entry of a change of `order`'s refunded total (`refunded_amount`, already changed) by
    `added`: a refund of part of it, a refund completing all of it (`in_full`), or a refund voided (which
    made the refunded order paid again: `paid_again`). `cash_by`: staff gave it back in cash, named."""
    number, total, returned = order.number, order.total_amount, order.refunded_amount
    cash = {"username": cash_by.username} if cash_by else {}
    if added < 0:
        action, details = "order.refund_voided", audit_text(
            texts.REFUND_VOIDED_PAID_AGAIN if paid_again else texts.REFUND_VOIDED, number=number, voided=-added,
            returned=returned, total=total)
    elif in_full:
        action, details = "order.refunded", audit_text(texts.REFUNDED_CASH if cash_by else texts.REFUNDED,
                                                       number=number, added=added, total=total, **cash)
    else:
        action, details = "order.partly_refunded", audit_text(
            texts.PARTLY_REFUNDED_CASH if cash_by else texts.PARTLY_REFUNDED, number=number, returned=returned,
            total=total, **cash)
    audit_record(actor=cash_by, action=action, target=order, details=details)


def order_refund_to_check(*, order: Order, note: str) -> None:
    """Money returned that cannot be matched to the order's paid payment (orders.payments.services): the
    order is flagged for staff, with an audit entry, to check in the provider's dashboard before it ships
    or is settled; nothing else changes."""
    with transaction.atomic():
        locked = _locked(order)
        logger.warning("order %s: money returned that the shop cannot match (%s)", locked.number, note)
        _order_flag(locked, "refund_to_check", action="order.refund_to_check",
                    details=audit_text(texts.REFUND_TO_CHECK, number=locked.number, note=note))


def order_amount_to_check(*, order: Order, note: str) -> None:
    """The provider reports money taken for `order` in another amount or currency than the order's
    (orders.payments.services): the order is not paid by it (that is not what it costs), and it is flagged
    for staff, with an audit entry, to check in the provider's dashboard, where the money is."""
    with transaction.atomic():
        locked = _locked(order)
        _order_flag(locked, "amount_to_check", action="order.amount_to_check",
                    details=audit_text(texts.AMOUNT_TO_CHECK, number=locked.number, amount=locked.total_amount,
                                       note=note))


def order_confirm_cod(*, order: Order) -> Order:
    """Confirm a cash-on-delivery order at once: stock stays taken, e-mail goes out."""
    with transaction.atomic():
        locked = _locked(order)
        if locked.payment_status == PaymentStatus.COD:
            return locked
        locked.payment_status = PaymentStatus.COD
        locked.save(update_fields=["payment_status", "updated_at"])
        order_set_status(order=locked, status=S.PROCESSING, note=notes.CASH_ON_DELIVERY)
        order_confirmation_send(order=locked)
    order.refresh_from_db()
    return order


def order_payment_failed(*, order: Order, note: str = notes.PAYMENT_FAILED) -> Order:
    """Record a declined payment on an unpaid order: failed, cancelled, stock back.

    Only a pending order is cancelled. One staff moved on while it awaited its payment (packed or
    shipped it, restored it after it expired) stays as they set it, with the decline in its history:
    its packs may have left the shop, and putting them back into stock would sell them twice.
    """
    with transaction.atomic():
        locked = _locked(order)
        if locked.payment_status != PaymentStatus.AWAITING:
            return locked  # a paid order stays paid; a failure repeats nothing
        locked.payment_status = PaymentStatus.FAILED
        locked.save(update_fields=["payment_status", "updated_at"])
        if locked.status == S.PENDING:
            order_set_status(order=locked, status=S.CANCELLED, note=note)
        elif locked.status != S.CANCELLED:
            logger.warning("order %s: payment declined while %s; left to staff", locked.number, locked.status)
            order_set_status(order=locked, status=locked.status, note=note)  # a note in its history
    order.refresh_from_db()
    return order


def order_cash_refund(*, order: Order, amount: Decimal, actor: User) -> Order:
    """Staff gave `amount` back in cash for a cash-on-delivery order its customer paid at the door (tea
    returned; delivered, or cancelled once delivered: before, no cash was collected: order_cash_collected):
    recorded as a refund from Paymob is (order_refund_record: the order's refunded total, one
    e-mail to the customer, one audit entry, here naming `actor`). All that is left of it makes the order
    and its payment refunded and, cancelled, settles its flags as
    a full refund in Paymob does (order_attention_settle: `refund_due`). Checked under the order's lock, so
    two members of staff recording at once never return more than was paid. Return the order."""
    exponent = amount.normalize().as_tuple().exponent if amount.is_finite() else "n"  # "n": not a number
    if not isinstance(exponent, int) or exponent < -2 or amount <= 0:  # finer than piasters, or none
        raise ShopError(_("Enter an amount above 0, in pounds and piasters"), field="amount")
    with transaction.atomic():
        locked = _locked(order)
        if locked.payment_method != PaymentMethod.COD or locked.payment_status != PaymentStatus.COD:
            raise ShopError(_("A cash refund can be recorded only for a paid cash-on-delivery order not refunded yet"),
                            field="amount", status=409)
        if not order_cash_collected(locked):
            raise ShopError(_("No cash was collected for this order: a cash refund can be recorded only once it "
                              "was delivered"), field="amount", status=409)
        left = locked.total_amount - locked.refunded_amount
        if amount > left:
            raise ShopError(_("At most %(amount)s EGP of this order is left to refund") % {"amount": left},
                            field="amount")
        in_full = amount == left
        if in_full:
            Payment.objects.filter(order=locked, status=PaymentStatus.COD).update(status=PaymentStatus.REFUNDED)
        order_refund_record(order=locked, returned=locked.refunded_amount + amount, in_full=in_full, cash_by=actor)
        if in_full:
            order_attention_settle(order=locked)
    order.refresh_from_db()
    return order
