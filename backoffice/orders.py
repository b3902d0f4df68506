"""Staff order writes: a status change (one order or a selection), each with its audit entry.

The move itself (transition table, stock back on cancel, the customer's e-mail)
is `orders.actions.order_set_status`; this adds the staff member's text checks
and the audit entry a changed status leaves.
"""

from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from backoffice import audit_texts as texts
from backoffice.audit import audit_record
from backoffice.audit_texts import audit_text
from orders.actions import COURIER_MAX, NOTE_MAX, TRACKING_MAX, order_attention_checked, order_set_status
from orders.models import Order
from shop.errors import ShopError
from shop.validation import clean_text


def order_status_change(*, actor: User, order: Order, status: str, note: str = "", tracking_number: str = "",
                        courier: str = "", customer_note: str = "", one_order: bool = True) -> Order:
    """Move one order to `status`; a move that changes it records one audit entry, and so does a note or
    new shipping details sent with the status it already has (`orders.actions._details_record`).

    Moved on its own (from its page, where its alert shows), the order's flag for staff is cleared: they
    restored or settled what it was about. Moved with a selection (`one_order` False), it stays flagged:
    nobody saw the alert (money captured on a cancelled order). A flag settled by a check in the provider's
    dashboard (a refund to check, a second payment) is never cleared by a move: staff mark it checked
    (`order_attention_mark_checked`)."""
    order_status_move(actor=actor, order=order, status=status, note=note, tracking_number=tracking_number,
                      courier=courier, customer_note=customer_note, one_order=one_order)
    return order


def order_status_move(*, actor: User, order: Order, status: str, note: str = "", tracking_number: str = "",
                      courier: str = "", customer_note: str = "", one_order: bool = True) -> bool:
    """`order_status_change`, telling whether it moved the order: True when the status it found under the
    order's lock was another (not the one the request read: another member of staff may have moved it since)."""
    note = clean_text(note, field="note", max_length=NOTE_MAX)
    tracking_number = clean_text(tracking_number, field="trackingNumber", max_length=TRACKING_MAX)
    courier = clean_text(courier, field="courier", max_length=COURIER_MAX)
    customer_note = clean_text(customer_note, field="customerNote", max_length=NOTE_MAX)
    with transaction.atomic():
        # the status this move leaves, under the order's lock (order_set_status takes it again): the one the
        # request read may be stale, another member of staff having moved the order since, and the audit
        # entry then named the wrong move, or none when the move went back to the status read
        previous = Order.objects.select_for_update().values_list("status", flat=True).get(pk=order.pk)
        last = order.status_changes.order_by("-pk").values_list("pk", flat=True).first() or 0
        order_set_status(order=order, status=status, actor=actor, note=note, tracking_number=tracking_number,
                         courier=courier, customer_note=customer_note, settles_attention=one_order)
        if status != previous:
            audit_record(actor=actor, action="order.status", target=order,
                         details=audit_text(texts.ORDER_STATUS, number=order.number, previous=previous, status=status))
        elif added := order.status_changes.filter(pk__gt=last).first():
            shipping = added.tracking_number or added.courier or added.customer_note
            audit_record(actor=actor, action="order.shipment" if shipping else "order.note",
                         details=f"{order.number}: {added.tracking_number or added.note}", target=order)
    return status != previous


# the most orders one staff action takes at once (a bulk status change, a print run of documents): each
# moved order is a transaction and an e-mail, so one request never sweeps the whole shop's orders
SELECTION_MAX = 200


@dataclass
class BulkResult:
    updated: int = 0
    failed: list[dict[str, object]] = field(default_factory=list)  # {"id", "number", "message"}


def order_status_change_bulk(*, actor: User, order_ids: list[int], status: str, note: str = "") -> BulkResult:
    """Move each selected order to `status`; one refused move does not stop the others.

    An id that is no order (deleted since the list was read, or mistyped) is reported in `failed`.
    """
    if not order_ids:
        raise ShopError(_("No orders selected"), field="orderIds")
    if len(set(order_ids)) > SELECTION_MAX:
        raise ShopError(_("Select at most %(most)d orders at a time") % {"most": SELECTION_MAX}, field="orderIds")
    orders = list(Order.objects.filter(pk__in=order_ids).order_by("pk"))
    note = clean_text(note, field="note", max_length=NOTE_MAX)
    result = BulkResult()
    found = {order.pk for order in orders}
    for pk in dict.fromkeys(order_ids):  # each missing id once, in the order sent
        if pk not in found:
            result.failed.append({"id": pk, "number": f"#{pk}", "message": _("Order not found")})
    for order in orders:
        try:
            # an order already at `status` is not counted: "3 orders updated" means three moved. Whether it
            # moved is read under its lock: the status read above may be stale, and counting from it was one
            # off when another member of staff moved the order in between
            result.updated += order_status_move(actor=actor, order=order, status=status, note=note,
                                                one_order=False)
        except ShopError as error:
            result.failed.append({"id": order.pk, "number": order.number, "message": error.message})
    return result


# each flag staff settle by a check (orders.actions.CHECKED_BY_HAND), most in the payment provider's dashboard:
# its audit entry and its details (backoffice.audit_texts), the answer when it is not open
CHECKS = {
    "refund_to_check": ("order.refund_checked", texts.REFUND_CHECKED,
                        gettext_lazy("This order has no returned money to check")),
    "paid_twice": ("order.paid_twice_checked", texts.PAID_TWICE_CHECKED,
                   gettext_lazy("This order has no second payment to check")),
    "amount_to_check": ("order.amount_checked", texts.AMOUNT_CHECKED,
                        gettext_lazy("This order has no payment of another amount to check")),
    "paid_after_replaced": ("order.paid_after_replaced_checked", texts.PAID_AFTER_REPLACED_CHECKED,
                            gettext_lazy("This order has no cash-on-delivery replacement to check")),
}


def order_attention_mark_checked(*, actor: User, order: Order, reason: str = "refund_to_check") -> Order:
    """"Mark as checked": staff checked what `order` is flagged with `reason` for in the payment provider's
    dashboard (money returned that does not match its payment, a second payment), or settled a card order paid
    beside its cash-on-delivery replacement (one of the two shipped, the other cancelled), so that reason is cleared
    and any other stays open. The status stays as it is; the audit entry keeps who checked it and when.

    Only the reasons a check settles can be marked so (400 otherwise): money captured on a cancelled
    order, or a refund due, is settled by restoring the order or by the refund coming back, not by saying
    so. A reason that is not open answers 409 (not flagged so, or another member of staff marked it a
    moment ago). `reason` defaults to the returned money, the only one this action once served."""
    if reason not in CHECKS:
        raise ShopError(_("Only a flag checked in the payment provider's dashboard can be marked as checked"),
                        field="reason")
    action, details, not_open = CHECKS[reason]
    with transaction.atomic():
        if not order_attention_checked(order=order, reasons={reason}):
            raise ShopError(not_open, status=409)
        audit_record(actor=actor, action=action, target=order,
                     details=audit_text(details, number=order.number, status=order.status))
    return order
