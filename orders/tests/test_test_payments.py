"""The local test payment page: never reachable when cards go to Paymob; its orders are flagged, never revenue."""

import pytest
from django.core import mail
from django.core.checks import run_checks
from django.test import Client

from orders.checks import sandbox_in_production
from orders.models import Order, PaymentStatus

pytestmark = pytest.mark.django_db

INTENTION = "/api/payment/create-intention"


def _sandbox_order(client, make_product, checkout_body, *, price="300.00"):
    tea = make_product(price=price)
    client.post("/api/cart/items", {"productId": tea.pk}, content_type="application/json")
    start = client.post(INTENTION, checkout_body(paymentMethod="sandbox"), content_type="application/json")
    assert start.status_code == 201, start.content
    return start.json()


@pytest.mark.parametrize("method, test_mode", [("sandbox", False), ("card", True), ("sandbox", True)])
def test_a_paymob_shop_refuses_the_test_page_whatever_the_body_says(api, make_product, checkout_body,
                                                                    fake_paymob, method, test_mode):
    # given a shop whose cards go to Paymob, with the sandbox switch left on
    tea = make_product()
    api.post("/api/cart/items", {"productId": tea.pk}, format="json")
    # when
    response = api.post(INTENTION, checkout_body(paymentMethod=method, testMode=test_mode), format="json")
    # then
    assert response.status_code == 400
    assert response.json()["message"] == "Test payments are not available in this shop"
    assert response.json()["field"] == "paymentMethod"
    assert Order.objects.count() == 0 and fake_paymob.requests == []


def test_the_test_page_and_its_pay_button_404_once_cards_go_to_paymob(client, make_product, checkout_body,
                                                                      settings):
    # given a test payment started before the shop switched to Paymob
    start = _sandbox_order(client, make_product, checkout_body)
    settings.PAYMENT_PROVIDER = "paymob"
    # when
    page = client.get(start["paymentUrl"])
    pay = client.post(start["paymentUrl"], {"action": "pay"})
    # then
    assert page.status_code == 404 and pay.status_code == 404
    assert Order.objects.get().payment_status == PaymentStatus.AWAITING


def test_the_checkout_page_offers_the_test_payment_only_where_it_may_be_used(client, settings):
    assert "sandbox" in client.get("/checkout").context["props"]["methods"]
    settings.PAYMENT_PROVIDER = "paymob"
    assert "sandbox" not in client.get("/checkout").context["props"]["methods"]


def test_an_order_paid_on_the_test_page_is_flagged_and_keeps_its_normal_statuses(
        client, make_product, checkout_body, django_capture_on_commit_callbacks):
    # given
    start = _sandbox_order(client, make_product, checkout_body)
    # when
    with django_capture_on_commit_callbacks(execute=True):
        client.post(start["paymentUrl"], {"action": "pay"})
    # then
    order = Order.objects.get()
    assert order.is_test is True
    assert (order.status, order.payment_status) == ("processing", "paid")
    assert len(mail.outbox) == 1 and mail.outbox[0].subject.startswith("[TEST] ")


def test_test_orders_never_count_in_revenue_or_analytics(client, owner, make_product, checkout_body):
    # given one real cash-on-delivery order and one test order paid on the test page
    tea = make_product(price="100.00")
    client.post("/api/cart/items", {"productId": tea.pk}, content_type="application/json")
    client.post(INTENTION, checkout_body(paymentMethod="cod"), content_type="application/json")
    start = _sandbox_order(client, make_product, checkout_body, price="300.00")
    client.post(start["paymentUrl"], {"action": "pay"})
    assert Order.objects.filter(payment_status=PaymentStatus.PAID, is_test=True).count() == 1
    staff = Client()
    staff.force_login(owner)
    # when
    stats = staff.get("/api/admin/dashboard").json()
    analytics = staff.get("/api/admin/analytics?period=7d").json()["data"]
    rows = {row["number"]: row for row in staff.get("/api/admin/orders").json()["results"]}
    # then only the COD order (100 + 50 shipping) is money
    assert stats["totalRevenue"] == "150.00"
    assert analytics["orders"]["revenueThisMonth"] == "150.00"
    assert analytics["orders"]["ordersThisMonth"] == 1
    assert [p["totalSold"] for p in analytics["products"]["topSellingProducts"]] == [1]
    test_order = Order.objects.get(is_test=True)
    assert rows[test_order.number]["isTest"] is True
    assert [row["isTest"] for number, row in rows.items() if number != test_order.number] == [False]


def test_check_deploy_warns_when_the_test_page_is_on_without_debug(settings):
    # given
    settings.DEBUG = False
    settings.PAYMENT_SANDBOX = True
    # when
    warnings = run_checks(include_deployment_checks=True, tags=["security"])
    # then
    assert "orders.W001" in [w.id for w in warnings]
    settings.PAYMENT_SANDBOX = False
    assert sandbox_in_production(None) == []
