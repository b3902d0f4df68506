"""The coupon applied at checkout shows on the cart too (its code, its discount, the total after it), as the
server computes it: on the page, in the island's initial JSON and in every cart answer; the cart can take it off."""

import json
import re
from decimal import Decimal

import pytest

from orders.models import Coupon

pytestmark = pytest.mark.django_db


@pytest.fixture
def save50(db):
    return Coupon.objects.create(code="SAVE50", type="fixed", value=Decimal("50.00"),
                                 minimum_order_amount=Decimal("200.00"))


def _cart_with_coupon(client, tea, code="save50"):
    client.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, content_type="application/json")
    client.get("/api/cart")  # an answer kept before the coupon: applying it must not leave this one showing
    applied = client.post("/api/cart/summary", {"couponCode": code}, content_type="application/json")
    assert applied.status_code == 200 and applied.json()["couponCode"] == "SAVE50"
    return applied.json()


def _props(response):
    page = response.content.decode()
    found = re.search(r'<script id="cart-props" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(found[1])


def test_the_cart_api_answers_the_coupon_applied_at_checkout(client, make_product, save50):
    tea = make_product(price="300.00")
    at_checkout = _cart_with_coupon(client, tea)
    body = client.get("/api/cart").json()
    assert (body["couponCode"], body["subtotal"], body["discount"]) == ("SAVE50", "300.00", "50.00")
    assert body["total"] == at_checkout["total"] == "300.00"  # 300 - 50 + 50 shipping
    # a cart write answers it too (the island shows what the write answers)
    after_add = client.post("/api/cart/items", {"productId": tea.pk, "quantity": 1},
                            content_type="application/json").json()
    assert (after_add["couponCode"], after_add["discount"], after_add["subtotal"]) == ("SAVE50", "50.00", "600.00")


@pytest.mark.parametrize("prefix, words", [("", ["Discount", "(<bdi>SAVE50</bdi>)", "-E£50.00", "E£300.00"]),
                                           ("/ar", ["الخصم", "(<bdi>SAVE50</bdi>)", "\u200e-50.00\u00a0ج.م"])])
def test_the_cart_page_shows_the_coupon_its_discount_and_the_total_after_it(client, make_product, save50, prefix,
                                                                             words):
    tea = make_product(price="300.00")
    _cart_with_coupon(client, tea)
    response = client.get(f"{prefix}/cart")
    page = response.content.decode()
    assert all(word in page for word in words), [word for word in words if word not in page]
    props = _props(response)
    assert (props["cart"]["couponCode"], props["cart"]["discount"], props["cart"]["total"]) == (
        "SAVE50", "50.00", "300.00")
    assert props["text"]["removeCoupon"] == ("إزالة القسيمة" if prefix else "Remove coupon")
    assert props["text"]["couponRemoved"] == ("تمت إزالة القسيمة" if prefix else "Coupon removed")


def test_choosing_a_governorate_on_the_cart_keeps_the_coupon(client, make_product, save50):
    # the cart's governorate select sends no coupon: it used to take the checkout's coupon off
    tea = make_product(price="300.00")
    _cart_with_coupon(client, tea)
    body = client.post("/api/cart/summary", {"governorate": "Giza"}, content_type="application/json").json()
    assert (body["governorate"], body["couponCode"], body["discount"]) == ("Giza", "SAVE50", "50.00")
    assert client.get("/checkout").context["props"]["prefill"]["couponCode"] == "SAVE50"


def test_the_cart_takes_the_coupon_off_for_the_checkout_too(client, make_product, save50):
    tea = make_product(price="300.00")
    _cart_with_coupon(client, tea)
    body = client.post("/api/cart/summary", {"couponCode": ""}, content_type="application/json").json()
    assert (body["couponCode"], body["discount"], body["total"]) == ("", "0.00", "350.00")
    assert client.get("/api/cart").json()["couponCode"] == ""
    assert _props(client.get("/cart"))["cart"]["couponCode"] == ""
    assert "couponCode" not in client.get("/checkout").context["props"]["prefill"]


def test_a_coupon_the_cart_no_longer_reaches_is_not_shown_but_kept_for_the_checkout(client, make_product, save50):
    tea = make_product(price="300.00")
    _cart_with_coupon(client, tea)
    cheap = make_product(price="100.00")
    client.delete(f"/api/cart/items/{tea.pk}")
    body = client.post("/api/cart/items", {"productId": cheap.pk}, content_type="application/json").json()
    # under the coupon's E£200 minimum: no discount is shown or counted
    assert (body["couponCode"], body["discount"], body["subtotal"]) == ("", "0.00", "100.00")
    assert _props(client.get("/cart"))["cart"]["discount"] == "0.00"
    # the checkout still has it typed, and says why when it is applied
    assert client.get("/checkout").context["props"]["prefill"]["couponCode"] == "SAVE50"


@pytest.mark.parametrize("refused, message", [("NOSUCH", "Invalid coupon code"), ("OLD10", "This coupon has expired")])
def test_a_refused_code_leaves_the_coupon_applied_before_applied(client, make_product, save50, refused, message):
    # the checkout says the coupon applied before is still applied after a refusal (its summary is left showing,
    # and it is the code the island sends to place the order): the server must keep it for the cart and checkout
    Coupon.objects.create(code="OLD10", type="fixed", value=Decimal("10.00"), expiry_date="2020-01-01T00:00:00Z")
    tea = make_product(price="300.00")
    _cart_with_coupon(client, tea)
    answer = client.post("/api/cart/summary", {"couponCode": refused}, content_type="application/json")
    assert (answer.status_code, answer.json()["field"], answer.json()["message"]) == (400, "couponCode", message)
    assert (client.get("/api/cart").json()["couponCode"], _props(client.get("/cart"))["cart"]["discount"]) == (
        "SAVE50", "50.00")
    props = client.get("/checkout").context["props"]
    assert (props["prefill"]["couponCode"], props["cart"]["couponCode"], props["cart"]["discount"]) == (
        "SAVE50", "SAVE50", "50.00")
    assert client.post("/api/cart/summary", {"governorate": "Giza"}, content_type="application/json").json()[
        "couponCode"] == "SAVE50"


def _card_order_with_coupon(client, tea, fake_paymob, *, paid):
    """Place a card order with SAVE50 applied at checkout and have Paymob answer it (declined or paid), then
    come back from Paymob's page as the shopper does (the return page and its verification)."""
    from django.test import Client

    from orders.models import Payment
    from orders.payments.paymob import hmac_sign
    from orders.tests.conftest import CHECKOUT
    from orders.tests.payments.test_paymob_flow import _callback_body, _post_callback

    _cart_with_coupon(client, tea)
    placed = client.post("/api/payment/create-intention", {**CHECKOUT, "paymentMethod": "card",
                                                           "couponCode": "SAVE50"}, content_type="application/json")
    assert placed.status_code == 201, placed.content
    payment = Payment.objects.get()
    body = _callback_body(payment, success=paid)
    assert _post_callback(Client(), body, hmac_sign(body["obj"], "test_hmac_secret")).status_code == 200
    assert client.get(f"/payment/success?payment_id={payment.payment_id}").status_code == 200
    assert client.get(f"/api/payment/verify/{payment.payment_id}").json()["confirmed"] is paid
    payment.order.refresh_from_db()
    return payment.order


def test_a_failed_card_payment_brings_its_coupon_back_to_the_cart(client, make_product, save50, fake_paymob):
    # given a card order placed with SAVE50, its payment declined (the order cancelled, the coupon's use given back)
    tea = make_product(price="300.00")
    order = _card_order_with_coupon(client, tea, fake_paymob, paid=False)
    assert (order.coupon_code, order.payment_status) == ("SAVE50", "failed")
    # when the shopper goes to the cart (its lines are still there), then the coupon shows there again
    body = client.get("/api/cart").json()
    assert (body["couponCode"], body["discount"], body["total"]) == ("SAVE50", "50.00", "300.00")
    assert _props(client.get("/cart"))["cart"]["couponCode"] == "SAVE50"
    # as at the checkout the draft prefills
    props = client.get("/checkout").context["props"]
    assert (props["prefill"]["couponCode"], props["cart"]["discount"]) == ("SAVE50", "50.00")
    # and a coupon applied since wins over the failed order's
    Coupon.objects.create(code="SAVE10", type="fixed", value=Decimal("10.00"))
    applied = client.post("/api/cart/summary", {"couponCode": "save10"}, content_type="application/json")
    assert applied.status_code == 200
    assert client.get("/checkout").context["props"]["prefill"]["couponCode"] == "SAVE10"
    # and "Remove coupon" on the cart takes it off for the checkout too: the failed order's does not come back
    client.post("/api/cart/summary", {"couponCode": ""}, content_type="application/json")
    assert client.get("/api/cart").json()["couponCode"] == ""
    assert "couponCode" not in client.get("/checkout").context["props"]["prefill"]


def test_a_paid_card_order_leaves_no_coupon_for_the_next_cart(client, make_product, save50, fake_paymob):
    tea = make_product(price="300.00")
    _card_order_with_coupon(client, tea, fake_paymob, paid=True)
    client.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, content_type="application/json")
    assert client.get("/api/cart").json()["couponCode"] == ""
    assert "couponCode" not in client.get("/checkout").context["props"]["prefill"]
