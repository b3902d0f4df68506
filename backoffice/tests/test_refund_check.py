"""Money returned to check (`refund_to_check`): staff clear it with "Mark as checked", never with a status change."""

import pytest

from accounts.roles import has_permission
from backoffice.models import AuditEntry
from orders.actions import order_refund_to_check
from orders.models import Order, OrderStatus, OrderStatusChange
from tests.factories import make_order

pytestmark = pytest.mark.django_db


def _flagged_order(**kwargs):
    order = make_order(**kwargs)
    order_refund_to_check(order=order, note="refund 99 (65000 piasters, payment paid)")
    return Order.objects.get(pk=order.pk)


def _mark(client, order, **headers):
    return client.post(f"/api/admin/orders/{order.pk}/refund-checked", {}, content_type="application/json",
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


def test_mark_as_checked_clears_the_flag_and_keeps_the_status(client, head_support):
    # given
    order = _flagged_order(status="processing")
    changes_before = OrderStatusChange.objects.filter(order=order).count()
    client.force_login(head_support)
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


@pytest.mark.parametrize("role", ["owner", "manager", "head_support", "support"])
def test_every_role_that_may_change_an_orders_status_may_mark_its_refund_checked(request, client, role):
    # given
    user = request.getfixturevalue(role)
    order = _flagged_order()
    client.force_login(user)
    # when
    response = _mark(client, order)
    # then the right follows the orders "status" right of the role matrix
    assert has_permission(user, "orders", "status")
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("caller", [None, "alice"])
def test_customers_and_visitors_cannot_mark_a_refund_checked(request, client, caller):
    # given
    order = _flagged_order()
    if caller:
        client.force_login(request.getfixturevalue(caller))
    # when
    response = _mark(client, order)
    # then
    assert response.status_code == 401
    assert Order.objects.get(pk=order.pk).needs_attention


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
