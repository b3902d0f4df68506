"""An order flagged for staff keeps every open reason: a later flag never replaces an earlier one, and what
settles one reason (restoring the order, the refund coming back) leaves the others, above all those staff
settle by a check in Paymob's dashboard (`orders.actions.CHECKED_BY_HAND`)."""

import pytest

from backoffice.models import AuditEntry
from orders.actions import order_attention_settle, order_paid_twice, order_refund_record, order_refund_to_check
from orders.models import Order, OrderStatus
from tests.factories import make_order
from tests.migrations import migrate_to

pytestmark = pytest.mark.django_db


def _move(client, order, status):
    response = client.put(f"/api/admin/orders/{order.pk}/status", {"status": status},
                          content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()


def test_cancelling_an_order_with_returned_money_to_check_keeps_that_check_beside_the_refund_due(client, manager):
    # given a paid order flagged with money Paymob returned that does not match its payment
    order = make_order(status="processing")
    order_refund_to_check(order=order, note="refund 99 of another transaction")
    client.force_login(manager)
    # when staff cancel it from its own row
    row = _move(client, order, "cancelled")
    # then both things to do are open, the older first
    order.refresh_from_db()
    assert (order.needs_attention, order.attention_reasons) == (True, ["refund_to_check", "refund_due"])
    assert row["attentionReasons"] == ["refund_to_check", "refund_due"]
    assert row["attentionReason"] == "refund_due"  # the latest, as before
    # when they restore it: no refund is due any more
    row = _move(client, order, "processing")
    # then the returned money is still to check, on the order and on the overview
    order.refresh_from_db()
    assert (order.status, order.needs_attention, order.attention_reasons) == (
        OrderStatus.PROCESSING, True, ["refund_to_check"])
    assert (row["needsAttention"], row["attentionReasons"]) == (True, ["refund_to_check"])
    assert client.get("/api/admin/dashboard").json()["attentionOrders"] == 1


def test_a_later_flag_never_hides_a_paid_twice(client, manager):
    # given an order paid twice, then refunded in full before it shipped
    order = make_order(status="processing")
    order_paid_twice(order=order, note="paymob 2")
    order_refund_record(order=order, returned=order.total_amount, in_full=True)
    client.force_login(manager)
    # then both show
    detail = client.get(f"/api/admin/orders/{order.pk}").json()
    assert detail["attentionReasons"] == ["paid_twice", "refunded_unshipped"]
    # when staff cancel it, as the refund asks
    _move(client, order, "cancelled")
    # then the refund before shipping is settled (refunded, no refund is due), and the second payment still
    # waits for its check
    order.refresh_from_db()
    assert order.attention_reasons == ["paid_twice"]


def test_cancelling_a_card_order_kept_beside_its_replacement_keeps_that_check_beside_the_refund_due(
        client, manager):
    # given a card order paid beside its cash-on-delivery replacement (orders.actions._flag_paid_after_replaced)
    order = make_order(status="processing")
    Order.objects.filter(pk=order.pk).update(needs_attention=True, attention_reasons=["paid_after_replaced"])
    client.force_login(manager)
    # when staff cancel it from its own row, to ship the other
    row = _move(client, order, "cancelled")
    # then its payment is to refund, and the two orders still wait for staff to say they are settled
    assert row["attentionReasons"] == ["paid_after_replaced", "refund_due"]
    assert row["attentionToCheck"] == ["paid_after_replaced"]
    # when the refund comes back in full, the refund due is settled, the check is not
    order_refund_record(order=order, returned=order.total_amount, in_full=True)
    order_attention_settle(order=order)
    assert Order.objects.get(pk=order.pk).attention_reasons == ["paid_after_replaced"]


def test_a_reason_raised_again_is_listed_once_and_audited_each_time():
    # given
    order = make_order()
    # when the same unmatched return is reported twice
    order_refund_to_check(order=order, note="refund 7")
    order_refund_to_check(order=order, note="refund 8")
    # then
    order.refresh_from_db()
    assert order.attention_reasons == ["refund_to_check"]
    assert AuditEntry.objects.filter(action="order.refund_to_check").count() == 2


def test_the_orders_list_gives_every_open_reason_and_filters_on_any(client, manager):
    # given
    flagged, quiet = make_order(), make_order()
    order_refund_to_check(order=flagged, note="refund 7")
    order_paid_twice(order=flagged, note="paymob 2")
    client.force_login(manager)
    # when
    rows = client.get("/api/admin/orders?attention=1").json()["results"]
    # then
    assert [(row["number"], row["attentionReasons"]) for row in rows] == [
        (flagged.number, ["refund_to_check", "paid_twice"])]
    assert quiet.number not in {row["number"] for row in rows}




@pytest.mark.django_db(transaction=True)
def test_the_reason_an_order_was_flagged_with_before_becomes_its_one_open_reason(latest_schema_after):
    # given orders as they were with one reason each: flagged, flagged before reasons were named, settled
    flagged, unnamed, settled = make_order(), make_order(), make_order()
    old = migrate_to([("orders", "0012_cart_line_position")]).get_model("orders", "Order")
    old.objects.filter(pk=flagged.pk).update(needs_attention=True, attention_reason="refund_to_check")
    old.objects.filter(pk=unnamed.pk).update(needs_attention=True, attention_reason="")
    old.objects.filter(pk=settled.pk).update(needs_attention=False, attention_reason="refund_due")
    # when
    new = migrate_to([("orders", "0013_order_attention_reasons")]).get_model("orders", "Order")
    # then the open reason is kept, a flag without a name is the first the shop had (money captured on a
    # cancelled order), and a settled one is no open reason
    reasons = dict(new.objects.values_list("pk", "attention_reasons"))
    assert reasons == {flagged.pk: ["refund_to_check"], unnamed.pk: ["paid_after_cancel"], settled.pk: []}
