"""Only the visitor who placed an order (its session or its customer) may see or act on it by payment id."""

import pytest
from django.test import Client

from orders.models import Order, PaymentStatus

pytestmark = pytest.mark.django_db

INTENTION = "/api/payment/create-intention"


@pytest.fixture
def sandbox_start(client, make_product, checkout_body):
    client.post("/api/cart/items", {"productId": make_product().pk}, content_type="application/json")
    start = client.post(INTENTION, checkout_body(paymentMethod="sandbox"), content_type="application/json")
    assert start.status_code == 201, start.content
    return start.json()


def test_post_orders_answers_the_owner_and_404s_for_anyone_else_holding_the_payment_id(client, sandbox_start):
    # given a paid order
    client.post(sandbox_start["paymentUrl"], {"action": "pay"})
    body = {"paymentId": sandbox_start["paymentId"]}
    # when
    mine = client.post("/api/orders", body, content_type="application/json")
    theirs = Client().post("/api/orders", body, content_type="application/json")
    unknown = Client().post("/api/orders", {"paymentId": "pay_nope"}, content_type="application/json")
    # then
    assert mine.status_code == 200 and mine.json()["orderId"] == Order.objects.get().number
    assert theirs.status_code == 404 and unknown.status_code == 404
    assert theirs.json() == unknown.json()  # nothing tells them the id exists
    assert "mona@example.com" not in theirs.content.decode()


def test_a_signed_in_customer_owns_their_order_from_any_session(client, alice, make_product, checkout_body):
    # given alice checks out signed in, then asks from another browser
    client.force_login(alice)
    client.post("/api/cart/items", {"productId": make_product().pk}, content_type="application/json")
    start = client.post(INTENTION, checkout_body(paymentMethod="sandbox"), content_type="application/json").json()
    client.post(start["paymentUrl"], {"action": "pay"})
    other_browser = Client()
    other_browser.force_login(alice)
    # when
    response = other_browser.post("/api/orders", {"paymentId": start["paymentId"]},
                                  content_type="application/json")
    # then
    assert response.status_code == 200


def test_the_test_page_404s_for_anyone_else_and_their_pay_changes_nothing(client, sandbox_start):
    # given a stranger who learnt the payment URL
    stranger = Client()
    # when
    page = stranger.get(sandbox_start["paymentUrl"])
    pay = stranger.post(sandbox_start["paymentUrl"], {"action": "pay"})
    # then
    assert page.status_code == 404 and pay.status_code == 404
    assert Order.objects.get().payment_status == PaymentStatus.AWAITING
    assert client.get(sandbox_start["paymentUrl"]).status_code == 200


def test_verify_tells_a_stranger_nothing_of_the_payment(client, sandbox_start):
    # given
    client.post(sandbox_start["paymentUrl"], {"action": "pay"})
    url = f"/api/payment/verify/{sandbox_start['paymentId']}"
    # when
    mine = client.get(url)
    theirs = Client().get(url)
    # then the stranger gets the answer of an unknown payment
    assert mine.json()["order"]["orderId"] == Order.objects.get().number
    assert theirs.status_code == 404 and "status" not in theirs.json()
    assert theirs.json() == Client().get("/api/payment/verify/pay_unknown").json()
