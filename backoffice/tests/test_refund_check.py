"""Flags staff settle by a check (`refund_to_check`, `paid_twice`, `amount_to_check` in Paymob's dashboard;
`paid_after_replaced`, of the two orders): cleared with "Mark as checked", never with a status change."""

import pytest

from accounts.roles import has_permission
from backoffice.models import AuditEntry
from backoffice.orders import CHECKS
from orders.actions import CHECKED_BY_HAND, order_paid_twice, order_refund_to_check
from orders.models import Order, OrderStatus, OrderStatusChange
from tests.factories import make_order

pytestmark = pytest.mark.django_db


def _flagged_order(**kwargs):
    order = make_order(**kwargs)
    order_refund_to_check(order=order, note="refund 99 (65000 piasters, payment paid)")
    return Order.objects.get(pk=order.pk)


def _mark(client, order, reason="refund_to_check", **headers):
    return client.post(f"/api/admin/orders/{order.pk}/checked", {"reason": reason}, content_type="application/json",
                       **headers)


def test_a_status_change_from_the_orders_own_row_leaves_a_refund_to_check_flagged(client, manager):
    # given an order flagged with money returned that does not match its payment
    order = _flagged_order()
    client.force_login(manager)
    # when staff ship it on its own
    response = client.put(f"/api/admin/orders/{order.pk}/status", {"status": "shipped"},
                          content_type="application/json")
    # then it moved, and the refund is still to check: nobody said it was
    assert response.status_code == 200, response.content
    order.refresh_from_db()
    assert (order.status, order.needs_attention, order.attention_reason) == (
        OrderStatus.SHIPPED, True, "refund_to_check")
    assert response.json()["needsAttention"] is True


def test_mark_as_checked_clears_the_flag_and_keeps_the_status(client, manager):
    # given
    order = _flagged_order(status="processing")
    changes_before = OrderStatusChange.objects.filter(order=order).count()
    client.force_login(manager)
    # when
    response = _mark(client, order)
    # then the flag is gone, the order stays where it was, and no status change is recorded
    assert response.status_code == 200, response.content
    order.refresh_from_db()
    assert (order.status, order.needs_attention) == (OrderStatus.PROCESSING, False)
    assert OrderStatusChange.objects.filter(order=order).count() == changes_before
    assert response.json()["needsAttention"] is False and response.json()["status"] == "processing"
    assert client.get("/api/admin/dashboard").json()["attentionOrders"] == 0


def test_mark_as_checked_is_audited_with_who_and_when(client, manager):
    # given
    order = _flagged_order()
    client.force_login(manager)
    # when
    _mark(client, order)
    # then one entry names the staff member, the order and the moment
    entry = AuditEntry.objects.get(action="order.refund_checked")
    assert (entry.actor, entry.actor_name, entry.target_type, entry.target_id) == (
        manager, "manager", "order", str(order.pk))
    assert order.number in entry.details and entry.created_at is not None
    activity = client.get("/api/admin/dashboard").json()["recentActivity"]
    assert activity[0]["action"] == "order.refund_checked"


@pytest.mark.parametrize("reason", ["refund_to_check", "paid_twice", "paid_after_replaced"])
@pytest.mark.parametrize("role", ["owner", "manager"])
def test_the_roles_that_may_settle_money_may_mark_a_flag_checked(request, client, role, reason):
    # given
    user = request.getfixturevalue(role)
    order = _flagged_with(reason)
    client.force_login(user)
    # when
    response = _mark(client, order, reason=reason)
    # then the right is the orders "edit" right (orders "all" in DECISIONS.md's table)
    assert has_permission(user, "orders", "edit")
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("reason", ["refund_to_check", "paid_twice", "paid_after_replaced"])
@pytest.mark.parametrize("role", ["head_support", "support"])
def test_support_staff_cannot_mark_a_money_flag_checked(request, client, role, reason):
    # given a flag that says money went where it should not (settled by a refund or a check in Paymob):
    # support roles move orders along ("view, status"), they do not settle money
    user = request.getfixturevalue(role)
    order = _flagged_with(reason)
    client.force_login(user)
    # when
    response = _mark(client, order, reason=reason)
    # then the flag stays for the Owner or a Manager to settle
    assert response.status_code == 403
    assert response.json()["message"] == "Admin permissions required"
    assert Order.objects.get(pk=order.pk).attention_reasons == [reason]


@pytest.mark.parametrize("reason", ["refund_to_check", "paid_twice", "paid_after_replaced"])
@pytest.mark.parametrize("caller", [None, "alice"])
def test_customers_and_visitors_cannot_mark_a_refund_checked(request, client, caller, reason):
    # given
    order = _flagged_with(reason)
    if caller:
        client.force_login(request.getfixturevalue(caller))
    # when
    response = _mark(client, order, reason=reason)
    # then
    assert response.status_code == 401
    assert Order.objects.get(pk=order.pk).attention_reasons == [reason]


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("flag", [None, "paid_after_cancel"], ids=["not flagged", "flagged for another reason"])
def test_an_order_without_a_refund_to_check_is_refused(client, manager, language, flag):
    # given an order not flagged, or flagged for money captured on a cancelled order (restore or refund it)
    order = make_order()
    if flag:
        Order.objects.filter(pk=order.pk).update(needs_attention=True, attention_reasons=[flag])
    client.force_login(manager)
    # when
    response = _mark(client, order, HTTP_ACCEPT_LANGUAGE=language)
    # then
    assert response.status_code == 409
    assert response.json()["message"] == {
        "en": "This order has no returned money to check",
        "ar": "لا يوجد في هذا الطلب مبلغ مُسترد يحتاج إلى مراجعة"}[language]
    assert Order.objects.get(pk=order.pk).needs_attention == bool(flag)
    assert not AuditEntry.objects.filter(action="order.refund_checked").exists()


def test_marking_twice_records_one_entry(client, manager):
    # given
    order = _flagged_order()
    client.force_login(manager)
    # when
    first, second = _mark(client, order), _mark(client, order)
    # then
    assert (first.status_code, second.status_code) == (200, 409)
    assert AuditEntry.objects.filter(action="order.refund_checked").count() == 1


# A second payment for a paid order (`paid_twice`) is checked in Paymob's dashboard too: the same action.

def _paid_twice_order(**kwargs):
    order = make_order(**kwargs)
    order_paid_twice(order=order, note="paymob 2")
    return Order.objects.get(pk=order.pk)


def test_mark_as_checked_clears_a_paid_twice_flag_and_keeps_the_status(client, manager):
    # given an order paid twice, staff having refunded one payment in Paymob
    order = _paid_twice_order(status="processing")
    changes_before = OrderStatusChange.objects.filter(order=order).count()
    client.force_login(manager)
    # when they mark the second payment checked
    response = _mark(client, order, reason="paid_twice")
    # then the flag is gone without touching the status, and who did it is audited
    assert response.status_code == 200, response.content
    order.refresh_from_db()
    assert (order.status, order.needs_attention, order.attention_reasons) == (OrderStatus.PROCESSING, False, [])
    assert OrderStatusChange.objects.filter(order=order).count() == changes_before
    assert response.json()["attentionReasons"] == [] and response.json()["status"] == "processing"
    entry = AuditEntry.objects.get(action="order.paid_twice_checked")
    assert (entry.actor, entry.target_id) == (manager, str(order.pk)) and order.number in entry.details


def test_a_status_change_never_clears_a_paid_twice_flag(client, manager):
    # given an order paid twice
    order = _paid_twice_order(status="processing")
    client.force_login(manager)
    # when staff ship it from its own row
    client.put(f"/api/admin/orders/{order.pk}/status", {"status": "shipped"}, content_type="application/json")
    # then the second payment still waits for its check: a move says nothing about Paymob
    order.refresh_from_db()
    assert (order.status, order.needs_attention, order.attention_reasons) == (
        OrderStatus.SHIPPED, True, ["paid_twice"])


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("flag", [None, "refund_to_check"], ids=["not flagged", "another flag to check"])
def test_an_order_without_a_second_payment_to_check_is_refused(client, manager, language, flag):
    # given
    order = _flagged_order() if flag else make_order()
    client.force_login(manager)
    # when
    response = _mark(client, order, reason="paid_twice", HTTP_ACCEPT_LANGUAGE=language)
    # then nothing changes, and the other flag is not cleared in its place
    assert response.status_code == 409
    assert response.json()["message"] == {
        "en": "This order has no second payment to check",
        "ar": "لا توجد في هذا الطلب دفعة ثانية تحتاج إلى مراجعة"}[language]
    order.refresh_from_db()
    assert order.attention_reasons == ([flag] if flag else [])
    assert not AuditEntry.objects.filter(action__endswith="_checked").exists()


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("reason", ["refund_due", "paid_after_cancel", "nonsense"])
def test_a_flag_that_no_check_settles_cannot_be_marked_checked(client, manager, reason, language):
    # given an order flagged with money owed back (staff refund it, or restore the order)
    order = make_order()
    Order.objects.filter(pk=order.pk).update(needs_attention=True, attention_reasons=["refund_due"])
    client.force_login(manager)
    # when
    response = _mark(client, order, reason=reason, HTTP_ACCEPT_LANGUAGE=language)
    # then
    assert response.status_code == 400 and response.json()["field"] == "reason", response.content
    assert response.json()["message"] == {
        "en": "Only a flag checked in the payment provider's dashboard can be marked as checked",
        "ar": "لا يمكن تعليم تنبيه كمُراجَع إلا إذا كانت مراجعته تتم في لوحة تحكم مزوّد الدفع"}[language]
    assert Order.objects.get(pk=order.pk).attention_reasons == ["refund_due"]
    assert not AuditEntry.objects.filter(action__endswith="_checked").exists()


def test_every_flag_checked_by_hand_has_its_audit_entry_and_answer():
    assert CHECKS.keys() == CHECKED_BY_HAND


def test_the_order_says_which_of_its_flags_staff_mark_checked(client, manager):
    # given an order paid twice and cancelled by staff: a refund due, and a second payment to check
    order = _paid_twice_order()
    client.force_login(manager)
    client.put(f"/api/admin/orders/{order.pk}/status", {"status": "cancelled"}, content_type="application/json")
    # when
    detail = client.get(f"/api/admin/orders/{order.pk}").json()
    # then
    assert (detail["attentionReasons"], detail["attentionToCheck"]) == (["paid_twice", "refund_due"], ["paid_twice"])


def test_each_flag_to_check_is_marked_on_its_own(client, manager):
    # given an order paid twice whose refund of one payment came back as money Paymob returned to check
    order = _paid_twice_order()
    order_refund_to_check(order=order, note="refund 3 of transaction 2")
    client.force_login(manager)
    # when staff check the second payment only
    response = _mark(client, order, reason="paid_twice")
    # then the returned money is still to check
    assert response.status_code == 200, response.content
    order.refresh_from_db()
    assert (order.needs_attention, order.attention_reasons) == (True, ["refund_to_check"])
    assert response.json()["attentionReasons"] == ["refund_to_check"]
    # when they check it too (no reason: the returned money, as before)
    assert _mark(client, order).status_code == 200
    # then
    order.refresh_from_db()
    assert (order.needs_attention, order.attention_reasons) == (False, [])
    assert sorted(AuditEntry.objects.filter(action__endswith="_checked").values_list("action", flat=True)) == [
        "order.paid_twice_checked", "order.refund_checked"]


def _paid_after_replaced_order(**kwargs):
    # a card order paid after its customer ordered the same items for cash on delivery
    # (orders.actions._flag_paid_after_replaced), as it is flagged
    order = make_order(**kwargs)
    Order.objects.filter(pk=order.pk).update(needs_attention=True, attention_reasons=["paid_after_replaced"])
    return Order.objects.get(pk=order.pk)


def test_a_card_order_kept_beside_its_replacement_is_offered_mark_as_checked(client, manager):
    # given a card order paid after its cash-on-delivery replacement was placed
    order = _paid_after_replaced_order(status="processing")
    changes_before = OrderStatusChange.objects.filter(order=order).count()
    client.force_login(manager)
    # then the order lists it among the flags staff mark checked
    assert client.get(f"/api/admin/orders/{order.pk}").json()["attentionToCheck"] == ["paid_after_replaced"]
    # when staff, having shipped one of the two orders and cancelled the other, mark it checked
    response = _mark(client, order, reason="paid_after_replaced")
    # then the flag is gone without touching the status, and who did it is audited
    assert response.status_code == 200, response.content
    order.refresh_from_db()
    assert (order.status, order.needs_attention, order.attention_reasons) == (OrderStatus.PROCESSING, False, [])
    assert OrderStatusChange.objects.filter(order=order).count() == changes_before
    entry = AuditEntry.objects.get(action="order.paid_after_replaced_checked")
    assert (entry.actor, entry.target_id) == (manager, str(order.pk))
    assert entry.details == (f"{order.number}: card order and its cash-on-delivery replacement checked, one "
                             f"to ship and the other cancelled (status processing kept)")


def test_a_status_change_never_clears_a_paid_after_replaced_flag(client, manager):
    # given a card order kept beside its cash-on-delivery replacement
    order = _paid_after_replaced_order(status="processing")
    client.force_login(manager)
    # when staff ship it from its own row
    client.put(f"/api/admin/orders/{order.pk}/status", {"status": "shipped"}, content_type="application/json")
    # then it still waits for its check: shipping this one says nothing of the other, which may ship too
    order.refresh_from_db()
    assert (order.status, order.attention_reasons) == (OrderStatus.SHIPPED, ["paid_after_replaced"])


@pytest.mark.parametrize("language", ["en", "ar"])
def test_an_order_without_a_replacement_to_check_is_refused(client, manager, language):
    order = _paid_twice_order()
    client.force_login(manager)
    response = _mark(client, order, reason="paid_after_replaced", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 409
    assert response.json()["message"] == {
        "en": "This order has no cash-on-delivery replacement to check",
        "ar": "لا يوجد لهذا الطلب طلب بديل بالدفع عند الاستلام يحتاج إلى مراجعة"}[language]
    assert Order.objects.get(pk=order.pk).attention_reasons == ["paid_twice"]


def _flagged_with(reason):
    return {"refund_to_check": _flagged_order, "paid_twice": _paid_twice_order,
            "paid_after_replaced": _paid_after_replaced_order}[reason]()
