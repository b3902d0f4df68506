"""Staff record money they gave back in cash for a cash-on-delivery order (tea returned after it was paid at
the door): recorded as a refund from Paymob is (orders.actions.order_refund_record), so revenue counts what
the order kept, the customer is told once per refund, and the audit log names who gave it back."""

from decimal import Decimal

import pytest

from backoffice.models import AuditEntry
from orders.actions import order_cash_refund, order_set_status
from orders.models import Order, OrderStatus, Payment, PaymentStatus
from shop.errors import ShopError
from shop.models import OutboundEmail
from tests.factories import make_order

pytestmark = pytest.mark.django_db

LRI, PDI = "\u2066", "\u2069"


def _cod_order(status="delivered", **kwargs):
    order = make_order(payment_status="cod", status=status, **kwargs)
    OutboundEmail.objects.all().delete()
    AuditEntry.objects.all().delete()
    return Order.objects.get(pk=order.pk)


def _unchanged(order):
    fresh = Order.objects.get(pk=order.pk)
    return (fresh.refunded_amount, fresh.payment_status, OutboundEmail.objects.count(),
            AuditEntry.objects.count()) == (Decimal("0.00"), PaymentStatus.COD, 0, 0)


@pytest.mark.parametrize("amount", ["0", "-5", "0.001", "NaN", "Infinity"])
def test_an_amount_not_above_nothing_or_finer_than_piasters_is_refused_and_changes_nothing(manager, amount):
    order = _cod_order()
    with pytest.raises(ShopError) as refused:
        order_cash_refund(order=order, amount=Decimal(amount), actor=manager)
    assert refused.value.field == "amount" and refused.value.status == 400
    assert str(refused.value.message) == "Enter an amount above 0, in pounds and piasters"
    assert _unchanged(order)


@pytest.mark.parametrize("too_much", ["0.01", "1e30"])
def test_more_than_was_paid_is_refused_naming_what_is_left(manager, too_much):
    order = _cod_order()
    with pytest.raises(ShopError) as refused:
        order_cash_refund(order=order, amount=order.total_amount + Decimal(too_much), actor=manager)
    assert str(refused.value.message) == f"At most {order.total_amount} EGP of this order is left to refund"
    assert _unchanged(order)


@pytest.mark.parametrize("kwargs", [{"payment_status": "paid"}, {"payment_status": "awaiting", "status": "pending"}])
def test_only_a_paid_cash_on_delivery_order_takes_a_cash_refund(manager, kwargs):
    order = make_order(**kwargs)
    with pytest.raises(ShopError) as refused:
        order_cash_refund(order=order, amount=Decimal("10.00"), actor=manager)
    assert refused.value.status == 409
    assert Order.objects.get(pk=order.pk).refunded_amount == 0


def test_a_part_then_the_rest_is_recorded_mailed_and_audited_once_each(manager):
    # given a delivered cash-on-delivery order
    order = _cod_order()
    total = order.total_amount
    # when staff give E£50 back in cash
    order_cash_refund(order=order, amount=Decimal("50.00"), actor=manager)
    # then the order keeps the rest (still counted paid), the customer is told of the cash, and one audit
    # entry names who gave it back
    order.refresh_from_db()
    assert (order.refunded_amount, order.payment_status) == (Decimal("50.00"), PaymentStatus.COD)
    mail, = OutboundEmail.objects.all()
    assert f"We have refunded E£50.00 in cash for your order {LRI}{order.number}{PDI}." in mail.text
    assert "to your card" not in mail.text and "bank" not in mail.text
    entry, = AuditEntry.objects.all()
    assert (entry.action, entry.actor) == ("order.partly_refunded", manager)
    assert entry.details == (f"{order.number}: 50.00 of {total} EGP returned in cash (recorded by "
                             f"{manager.username}); the rest stays paid.")
    # when the rest is given back, then all of it is refunded: the order and its payment
    order_cash_refund(order=order, amount=total - Decimal("50.00"), actor=manager)
    order.refresh_from_db()
    assert (order.refunded_amount, order.payment_status) == (total, PaymentStatus.REFUNDED)
    assert Payment.objects.get(order=order).status == PaymentStatus.REFUNDED
    assert OutboundEmail.objects.count() == 2
    assert f"All of your order's E£{total}" in OutboundEmail.objects.order_by("pk").last().text
    last = AuditEntry.objects.order_by("pk").last()
    assert (last.action, last.actor) == ("order.refunded", manager)
    assert "returned in cash (recorded by manager)" in last.details
    # and nothing more can be refunded of it
    with pytest.raises(ShopError):
        order_cash_refund(order=order, amount=Decimal("1.00"), actor=manager)


def test_a_stale_read_cannot_refund_more_than_is_left(manager, owner):
    # given an order the manager's request read before the owner recorded a refund of most of it
    order = _cod_order()
    read_by_manager = Order.objects.get(pk=order.pk)
    order_cash_refund(order=order, amount=order.total_amount - Decimal("10.00"), actor=owner)
    # when the manager records E£20 from that read, then it is refused: the order is read under its lock
    with pytest.raises(ShopError) as refused:
        order_cash_refund(order=read_by_manager, amount=Decimal("20.00"), actor=manager)
    assert "At most 10.00 EGP" in str(refused.value.message)
    assert Order.objects.get(pk=order.pk).refunded_amount == order.total_amount - Decimal("10.00")


NOT_COLLECTED = "No cash was collected for this order: a cash refund can be recorded only once it was delivered"


@pytest.mark.parametrize("moves", [["pending"], ["processing"], ["shipped"], ["cancelled"], ["shipped", "cancelled"],
                                   ["delivered", "shipped"], ["delivered", "shipped", "cancelled"]])
def test_an_order_not_delivered_takes_no_cash_refund_and_changes_nothing(manager, moves):
    # given a cash-on-delivery order whose cash the courier has not collected (never delivered, or moved back
    # from delivered, staff correcting a mistake, before it was cancelled)
    order = _cod_order(status="processing")
    for status in moves:
        order_set_status(order=order, status=status, actor=manager)
    OutboundEmail.objects.all().delete()
    AuditEntry.objects.all().delete()
    # when staff record cash given back for it
    with pytest.raises(ShopError) as refused:
        order_cash_refund(order=order, amount=Decimal("10.00"), actor=manager)
    # then it is refused as any other refund the order cannot take, and nothing is recorded
    assert (str(refused.value.message), refused.value.field, refused.value.status) == (NOT_COLLECTED, "amount", 409)
    assert _unchanged(order)


@pytest.mark.parametrize("before", ["processing", "shipped"])
def test_cancelling_an_order_before_it_was_delivered_owes_nothing_back(manager, before):
    order = _cod_order(status=before)
    order_set_status(order=order, status=OrderStatus.CANCELLED, actor=manager)
    order.refresh_from_db()
    assert (order.needs_attention, order.attention_reasons) == (False, [])
    assert not AuditEntry.objects.filter(action="order.refund_due").exists()


def test_cancelling_a_delivered_order_flags_the_cash_to_give_back(manager):
    # given a delivered cash-on-delivery order (the courier collected its cash), E£50 of it given back already
    order = _cod_order()
    order_cash_refund(order=order, amount=Decimal("50.00"), actor=manager)
    # when staff cancel it (the tea came back)
    order_set_status(order=order, status=OrderStatus.CANCELLED, actor=manager)
    # then the rest of its cash is owed back, and the audit entry says how to give it
    order.refresh_from_db()
    assert (order.needs_attention, order.attention_reasons, order.payment_status) == (
        True, ["refund_due"], PaymentStatus.COD)
    entry = AuditEntry.objects.get(action="order.refund_due")
    assert entry.details == (f"{order.number}: cancelled with {order.total_amount - Decimal('50.00')} EGP paid "
                             f"in cash on delivery. Give it back in cash, then record it (Record cash refund).")


def test_a_delivered_order_cancelled_then_restored_owes_nothing_back(client, manager):
    order = _cod_order()
    client.force_login(manager)
    for status in ("cancelled", "delivered"):
        response = client.put(f"/api/admin/orders/{order.pk}/status", {"status": status},
                              content_type="application/json")
        assert response.status_code == 200, response.content
    order.refresh_from_db()
    assert (order.status, order.attention_reasons) == (OrderStatus.DELIVERED, [])


def test_a_cancelled_order_refunded_in_full_has_its_refund_due_cleared(manager):
    # given a delivered cash-on-delivery order staff cancelled, flagged with the cash it owes back
    order = _cod_order()
    order_set_status(order=order, status=OrderStatus.CANCELLED, actor=manager)
    assert Order.objects.get(pk=order.pk).attention_reasons == ["refund_due"]
    # when part of it is given back, the refund is still due; when the rest is, it is settled
    order_cash_refund(order=order, amount=Decimal("10.00"), actor=manager)
    assert Order.objects.get(pk=order.pk).attention_reasons == ["refund_due"]
    order_cash_refund(order=order, amount=order.total_amount - Decimal("10.00"), actor=manager)
    order.refresh_from_db()
    assert (order.needs_attention, order.attention_reasons) == (False, [])


def test_an_arabic_customer_is_told_of_the_cash_in_arabic(manager):
    order = _cod_order(language="ar")
    order_cash_refund(order=order, amount=Decimal("25.00"), actor=manager)
    mail, = OutboundEmail.objects.all()
    assert mail.language == "ar"
    assert f"أعدنا إليك مبلغ 25.00\u00a0ج.م نقدًا عن طلبك رقم {LRI}{order.number}{PDI}." in mail.text
    assert "بطاقتك" not in mail.text
