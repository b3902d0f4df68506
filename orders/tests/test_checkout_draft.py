"""The checkout draft: what a card checkout typed stays in the session (never the password) until
that order is paid, and comes back as the checkout page's prefill (issue 12)."""

import json

import pytest

from orders.models import Order, PaymentStatus

pytestmark = pytest.mark.django_db

INTENTION = "/api/payment/create-intention"


def _props(response, name):
    html = response.content.decode()
    start = html.index(f'<script id="{name}"')
    return json.loads(html[html.index(">", start) + 1:html.index("</script>", start)])


def _place(api, make_product, checkout_body, method, **extra):
    tea = make_product(stock=10)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, format="json")
    body = checkout_body(paymentMethod=method, **extra)
    body["billingAddress"] = {**body["billingAddress"], "building": "7", "floor": "٣"}
    response = api.post(INTENTION, body, format="json")
    assert response.status_code == 201, response.content
    return Order.objects.get(number=response.json()["orderId"])


def test_a_card_checkout_is_kept_without_the_password_and_prefills_the_next_checkout(api, make_product,
                                                                                     checkout_body):
    # given a card checkout that also asked for an account
    _place(api, make_product, checkout_body, "sandbox", testMode=True, createAccount=True,
           password="a long secret 1", confirmPassword="a long secret 1")
    # when the checkout page is opened again
    prefill = _props(api.get("/checkout"), "checkout-props")["prefill"]
    # then it holds what was typed (as stored: Western digits), never a password
    assert prefill["email"] == "mona@example.com" and prefill["building"] == "7" and prefill["floor"] == "3"
    assert prefill["paymentMethod"] == "sandbox"
    assert "password" not in json.dumps(prefill).lower()
    assert "a long secret" not in json.dumps(dict(api.session.items()))


def test_pay_cod_chooses_cash_on_delivery_and_a_paid_order_ends_the_draft(api, make_product, checkout_body):
    # given
    order = _place(api, make_product, checkout_body, "sandbox", testMode=True)
    # when / then
    assert _props(api.get("/checkout?pay=cod"), "checkout-props")["prefill"]["paymentMethod"] == "cod"
    Order.objects.filter(pk=order.pk).update(payment_status=PaymentStatus.PAID)
    prefill = _props(api.get("/checkout"), "checkout-props")["prefill"]
    assert "paymentMethod" not in prefill and prefill["street"] == "" and prefill["email"] == ""


def test_a_cash_on_delivery_order_keeps_no_draft(api, make_product, checkout_body):
    _place(api, make_product, checkout_body, "cod")
    assert "checkout_draft" not in api.session


def test_an_applied_coupon_stays_applied_when_the_shopper_comes_back_to_checkout(api, make_product):
    # given a coupon applied on the checkout page
    from decimal import Decimal

    from orders.models import Coupon

    Coupon.objects.create(code="SAVE50", type="fixed", value=Decimal("50.00"))
    tea = make_product(price="300.00", stock=10)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, format="json")
    assert api.post("/api/cart/summary", {"couponCode": "save50"}, format="json").status_code == 200
    # when they go to the cart, add one more, and come back (or reload)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, format="json")
    props = _props(api.get("/checkout"), "checkout-props")
    # then the coupon is still typed and applied to the summary
    assert props["prefill"]["couponCode"] == "SAVE50"
    assert (props["cart"]["couponCode"], props["cart"]["discount"]) == ("SAVE50", "50.00")
    # and taking it off (applying an empty code) forgets it
    api.post("/api/cart/summary", {"couponCode": ""}, format="json")
    assert _props(api.get("/checkout"), "checkout-props")["prefill"].get("couponCode", "") == ""


@pytest.mark.parametrize("address", [
    {"state": "North Sinai", "city": "Arish"},  # a governorate the couriers take no cash in
    {"street": "King Fahd Rd", "city": "Riyadh", "state": "Riyadh", "country": "SAU"},  # abroad
], ids=["no-cash-governorate", "abroad"])
def test_a_failed_card_payment_offers_pay_on_delivery_only_where_it_can_be_taken(api, make_product, checkout_body,
                                                                                 address):
    # given a card payment declined for an address cash on delivery cannot serve
    tea = make_product(stock=10)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, format="json")
    body = checkout_body(paymentMethod="sandbox", testMode=True)
    body["billingAddress"] = {**body["billingAddress"], **address}
    assert api.post(INTENTION, body, format="json").status_code == 201
    Order.objects.update(payment_status=PaymentStatus.FAILED)
    # when the return page is shown
    props = _props(api.get("/payment/success"), "payment-props")
    # then it offers to try again, but not "Pay on delivery instead", which the checkout would refuse
    assert (props["retry"], props["codAvailable"]) == (True, False)


def test_the_checkout_page_reads_a_failed_payments_draft_once(api, make_product, checkout_body):
    # given a card checkout with a coupon, declined: the session holds its draft and no coupon of its own
    from decimal import Decimal

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from orders.models import Coupon

    Coupon.objects.create(code="SAVE50", type="fixed", value=Decimal("50.00"))
    order = _place(api, make_product, checkout_body, "sandbox", testMode=True, couponCode="SAVE50")
    Order.objects.filter(pk=order.pk).update(payment_status=PaymentStatus.FAILED)
    assert "checkout_coupon" not in api.session
    # when the checkout page is opened again
    with CaptureQueriesContext(connection) as queries:
        props = _props(api.get("/checkout"), "checkout-props")
    # then the draft's order is read once, for its fields and its coupon alike
    draft_reads = [query["sql"] for query in queries.captured_queries
                   if 'FROM "orders_order"' in query["sql"] and '"orders_order"."number" =' in query["sql"]]
    assert len(draft_reads) == 1, draft_reads
    assert props["prefill"]["couponCode"] == "SAVE50" and props["prefill"]["street"] == "12 Nile St"


def test_a_coupon_taken_off_since_the_order_is_not_brought_back_by_its_draft(api, make_product, checkout_body):
    # given a declined card checkout with a coupon, whose draft remembers it
    from decimal import Decimal

    from orders.models import Coupon

    Coupon.objects.create(code="SAVE50", type="fixed", value=Decimal("50.00"))
    order = _place(api, make_product, checkout_body, "sandbox", testMode=True, couponCode="SAVE50")
    Order.objects.filter(pk=order.pk).update(payment_status=PaymentStatus.FAILED)
    assert _props(api.get("/checkout"), "checkout-props")["prefill"].get("couponCode") == "SAVE50"
    # when the shopper takes the coupon off (the session applies "", not no coupon at all)
    session = api.session
    session["checkout_coupon"] = ""
    session.save()
    # then the checkout page does not fall back to the draft's coupon
    prefill = _props(api.get("/checkout"), "checkout-props")["prefill"]
    assert prefill.get("couponCode", "") == "" and prefill["street"] == "12 Nile St"
