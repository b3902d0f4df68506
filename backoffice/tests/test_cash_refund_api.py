"""POST /api/admin/orders/<id>/cash-refund: the Owner and Manager record cash given back for a paid
cash-on-delivery order (orders.actions.order_cash_refund); support roles cannot, and a refusal answers
the service's message in the dashboard's language."""

from decimal import Decimal

import pytest

from orders.models import Order
from tests.factories import make_order

pytestmark = pytest.mark.django_db


def _refund(client, order, amount, **headers):
    return client.post(f"/api/admin/orders/{order.pk}/cash-refund", {"amount": amount},
                       content_type="application/json", **headers)


def test_a_manager_records_a_partial_cash_refund_and_net_revenue_drops(client, manager):
    order = make_order(payment_status="cod", status="delivered")
    client.force_login(manager)
    before = Decimal(client.get("/api/admin/dashboard").json()["totalRevenue"])
    response = _refund(client, order, "40.00")
    assert response.status_code == 200, response.content
    assert response.json()["paymentStatus"] == "cod"
    assert client.get(f"/api/admin/orders/{order.pk}").json()["refunded"] == "40.00"
    assert Order.objects.get(pk=order.pk).refunded_amount == Decimal("40.00")
    assert Decimal(client.get("/api/admin/dashboard").json()["totalRevenue"]) == before - Decimal("40.00")


@pytest.mark.parametrize("role", ["support", "head_support"])
def test_support_roles_cannot_record_a_cash_refund(client, request, role):
    order = make_order(payment_status="cod", status="delivered")
    client.force_login(request.getfixturevalue(role))
    assert _refund(client, order, "40.00").status_code == 403
    assert Order.objects.get(pk=order.pk).refunded_amount == 0


def test_too_much_is_refused_with_the_message_in_arabic(client, owner):
    order = make_order(payment_status="cod", status="delivered")
    client.force_login(owner)
    response = _refund(client, order, str(order.total_amount + 1), HTTP_ACCEPT_LANGUAGE="ar")
    assert response.status_code == 400
    assert response.json()["message"] == f"المتبقي للاسترداد من هذا الطلب {order.total_amount} جنيه على الأكثر"
    assert response.json()["field"] == "amount"
    assert Order.objects.get(pk=order.pk).refunded_amount == 0


def test_a_card_order_is_refused(client, owner):
    order = make_order(payment_status="paid")
    client.force_login(owner)
    response = _refund(client, order, "10.00")
    assert response.status_code == 409
    assert response.json()["message"] == ("A cash refund can be recorded only for a paid cash-on-delivery order "
                                           "not refunded yet")


def test_an_order_not_delivered_yet_is_refused_in_arabic_as_no_cash_was_collected(client, owner):
    # given a cash-on-delivery order on its way: the courier has collected nothing yet
    order = make_order(payment_status="cod", status="shipped")
    client.force_login(owner)
    # when the Owner records cash given back for it
    response = _refund(client, order, "10.00", HTTP_ACCEPT_LANGUAGE="ar")
    # then it is refused in the API's error shape, in the dashboard's language, and nothing is recorded
    assert response.status_code == 409
    refusal = "لم يُحصَّل أي مبلغ نقدي عن هذا الطلب: لا يُسجَّل استرداد نقدي إلا بعد توصيله"
    assert response.json() == {"error": refusal, "message": refusal, "field": "amount"}
    assert Order.objects.get(pk=order.pk).refunded_amount == 0


@pytest.mark.parametrize("kwargs, moves, offered", [
    ({"payment_status": "cod", "status": "delivered"}, [], True),
    ({"payment_status": "cod", "status": "delivered"}, ["cancelled"], True),  # the tea came back
    ({"payment_status": "cod", "status": "shipped"}, [], False),  # the courier has not collected it yet
    ({"payment_status": "cod", "status": "shipped"}, ["cancelled"], False),
    ({"payment_status": "paid", "status": "delivered"}, [], False),  # a card: refunded in Paymob
])
def test_the_detail_offers_a_cash_refund_only_once_the_cash_was_collected(client, manager, kwargs, moves, offered):
    order = make_order(**kwargs)
    client.force_login(manager)
    for status in moves:
        client.put(f"/api/admin/orders/{order.pk}/status", {"status": status}, content_type="application/json")
    assert client.get(f"/api/admin/orders/{order.pk}").json()["cashRefundable"] is offered


def test_nothing_is_offered_once_all_the_cash_was_given_back(client, manager):
    order = make_order(payment_status="cod", status="delivered")
    client.force_login(manager)
    assert _refund(client, order, str(order.total_amount)).status_code == 200
    assert client.get(f"/api/admin/orders/{order.pk}").json()["cashRefundable"] is False
