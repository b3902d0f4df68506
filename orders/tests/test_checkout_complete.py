"""checkout_complete: one service places the server-side cart; body items only confirm it; unpaid limit."""

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.middleware import SessionMiddleware
from django.test import RequestFactory
from django.utils import timezone
from rest_framework.test import APIClient

from catalog.models import Product
from orders import cart as carts
from orders.checkout import CheckoutResult, checkout_complete
from orders.models import Coupon, Order, OrderStatus, PaymentStatus
from shop.store_settings import store_settings_update

pytestmark = pytest.mark.django_db

INTENTION = "/api/payment/create-intention"
FIELDS = {"first_name": "Mona", "last_name": "Ali", "email": "mona@example.com", "phone": "01012345678",
          "street": "12 Nile St", "city": "Cairo", "state": "Cairo", "country": "EGY"}


def _fill_cart(api, product, quantity=1):
    response = api.post("/api/cart/items", {"productId": product.pk, "quantity": quantity}, format="json")
    assert response.status_code == 200, response.content


def test_checkout_complete_places_a_cash_on_delivery_order_from_the_cart_as_a_service(make_product):
    # given a visitor's request with a session and a cart, and no view in between
    request = RequestFactory().post(INTENTION, REMOTE_ADDR="203.0.113.7")
    SessionMiddleware(lambda r: None).process_request(request)
    request.user = AnonymousUser()
    tea = make_product(price="300.00", stock=5)
    carts.cart_line_add(owner=carts.cart_owner(request, create=True), product_id=tea.pk, quantity=2)
    # when
    result = checkout_complete(request=request, fields=FIELDS, payment_method="cod")
    # then
    assert isinstance(result, CheckoutResult) and not result.error
    order = result.order
    assert order.status == OrderStatus.PROCESSING and order.payment_status == PaymentStatus.COD
    assert order.client_ip == "203.0.113.7" and order.session_key == request.session.session_key
    assert request.session["orders"] == [order.number]
    assert carts.cart_lines(carts.cart_get_for_request(request)) == []


def test_items_that_differ_from_the_cart_are_refused_with_409_and_nothing_changes(api, make_product,
                                                                                  checkout_body):
    # given a cart of two teas, and a body naming three
    tea = make_product(stock=10)
    _fill_cart(api, tea, 2)
    # when
    response = api.post(INTENTION, checkout_body(paymentMethod="cod", items=[{"id": tea.pk, "quantity": 3}]),
                        format="json")
    # then
    assert response.status_code == 409
    assert response.json()["message"] == "Your cart has changed. Please review it and try again."
    assert response.json()["field"] == "items"
    assert Order.objects.count() == 0
    tea.refresh_from_db()
    assert tea.stock == 10
    assert api.get("/api/cart").json()["itemCount"] == 2


def test_items_that_name_another_product_are_refused_too(api, make_product, checkout_body):
    tea, other = make_product(), make_product()
    _fill_cart(api, tea)
    response = api.post(INTENTION, checkout_body(paymentMethod="cod", items=[{"id": other.pk, "quantity": 1}]),
                        format="json")
    assert response.status_code == 409
    assert Order.objects.count() == 0


def test_a_total_other_than_the_one_shown_is_refused_with_409_and_nothing_changes(api, make_product, checkout_body):
    # given a tea on sale, and the checkout's summary showing its total
    tea = make_product(price="400.00", sale="300.00", stock=10)
    _fill_cart(api, tea)
    shown = api.post("/api/cart/summary", {"paymentMethod": "cod", "governorate": "Cairo"}, format="json").json()
    items = [{"id": tea.pk, "quantity": 1}]
    # when the sale ends before the shopper presses Place order
    Product.objects.filter(pk=tea.pk).update(sale_price_amount=None)
    response = api.post(INTENTION, checkout_body(paymentMethod="cod", items=items, total=shown["total"]),
                        format="json")
    # then nothing is placed at a price they did not see
    assert response.status_code == 409
    assert response.json() | {"field": "items"} == response.json()
    assert Order.objects.count() == 0
    assert Product.objects.get(pk=tea.pk).stock == 10
    # and the total they see now places the order
    shown = api.post("/api/cart/summary", {"paymentMethod": "cod", "governorate": "Cairo"}, format="json").json()
    placed = api.post(INTENTION, checkout_body(paymentMethod="cod", items=items, total=shown["total"]), format="json")
    assert placed.status_code == 201
    assert str(Order.objects.get().total_amount) == shown["total"]


def test_items_that_match_the_cart_confirm_it(api, make_product, checkout_body):
    # given
    tea = make_product(stock=10)
    _fill_cart(api, tea, 2)
    # when
    response = api.post(INTENTION, checkout_body(paymentMethod="cod", items=[{"id": tea.pk, "quantity": 2}]),
                        format="json")
    # then
    assert response.status_code == 201, response.content
    assert Order.objects.get().items.get().quantity == 2


def test_malformed_items_are_a_400(api, make_product, checkout_body):
    _fill_cart(api, make_product())
    response = api.post(INTENTION, checkout_body(paymentMethod="cod", items=[{"quantity": 1}]), format="json")
    assert response.status_code == 400 and response.json()["field"] == "items"
    assert Order.objects.count() == 0


def test_body_items_never_make_an_order_from_an_empty_cart(api, make_product, checkout_body):
    # given no session and no cart, only items in the body
    tea = make_product(stock=10)
    # when
    response = api.post(INTENTION, checkout_body(paymentMethod="cod", items=[{"id": tea.pk, "quantity": 5}]),
                        format="json")
    # then
    assert response.status_code == 400
    assert response.json()["message"] == "Your cart is empty"
    assert Order.objects.count() == 0
    tea.refresh_from_db()
    assert tea.stock == 10


def test_the_409_is_translated(api, make_product, checkout_body):
    tea = make_product()
    _fill_cart(api, tea)
    response = api.post(INTENTION, checkout_body(paymentMethod="cod", items=[{"id": tea.pk, "quantity": 4}]),
                        format="json", HTTP_ACCEPT_LANGUAGE="ar")
    assert response.status_code == 409
    assert response.json()["message"] == "تغيّرت سلة التسوق. يرجى مراجعتها والمحاولة مرة أخرى."


def test_a_session_holding_the_limit_of_unpaid_orders_cannot_place_another(api, make_product, checkout_body):
    # given three card orders this session left unpaid (the cart stays until payment; one more tea each
    # time, or the same checkout again would get the same order back)
    tea = make_product(stock=10)
    for _attempt in range(3):
        _fill_cart(api, tea)
        assert api.post(INTENTION, checkout_body(paymentMethod="sandbox"), format="json").status_code == 201
    # when
    _fill_cart(api, tea)
    response = api.post(INTENTION, checkout_body(paymentMethod="sandbox"), format="json")
    # then
    assert response.status_code == 429
    assert response.json()["message"] == ("You have too many unpaid orders. Please pay for one or wait "
                                          "30 minutes before ordering again.")
    assert Order.objects.count() == 3


def test_the_unpaid_limit_also_holds_per_address_across_sessions(make_product, checkout_body):
    # given three unpaid orders from one address, each from a fresh session
    tea = make_product(stock=20)
    for _visitor in range(3):
        visitor = APIClient(REMOTE_ADDR="198.51.100.4")
        _fill_cart(visitor, tea)
        assert visitor.post(INTENTION, checkout_body(paymentMethod="sandbox"), format="json").status_code == 201
    same_address, elsewhere = APIClient(REMOTE_ADDR="198.51.100.4"), APIClient(REMOTE_ADDR="198.51.100.5")
    _fill_cart(same_address, tea)
    _fill_cart(elsewhere, tea)
    # when
    refused = same_address.post(INTENTION, checkout_body(paymentMethod="cod"), format="json")
    accepted = elsewhere.post(INTENTION, checkout_body(paymentMethod="cod"), format="json")
    # then
    assert refused.status_code == 429
    assert accepted.status_code == 201


def test_the_unpaid_limit_holds_for_an_ipv6_host_on_any_address_of_its_network(make_product, checkout_body):
    # given three unpaid orders from three addresses of one /64, each from a fresh session
    tea = make_product(stock=20)
    for n in (1, 2, 3):
        visitor = APIClient(REMOTE_ADDR=f"2001:db8:5:6::{n}")
        _fill_cart(visitor, tea)
        assert visitor.post(INTENTION, checkout_body(paymentMethod="sandbox"), format="json").status_code == 201
    fourth = APIClient(REMOTE_ADDR="2001:db8:5:6:ffff::4")
    _fill_cart(fourth, tea)
    # when
    response = fourth.post(INTENTION, checkout_body(paymentMethod="sandbox"), format="json")
    # then
    assert response.status_code == 429


def test_paid_and_cancelled_orders_do_not_count_against_the_limit(api, make_product, checkout_body):
    # given a limit of one, and the one order paid
    store_settings_update(max_unpaid_orders=1)
    tea = make_product(stock=10)
    _fill_cart(api, tea)
    api.post(INTENTION, checkout_body(paymentMethod="sandbox"), format="json")
    Order.objects.update(payment_status=PaymentStatus.PAID, status=OrderStatus.PROCESSING)
    # when
    response = api.post(INTENTION, checkout_body(paymentMethod="sandbox"), format="json")
    # then
    assert response.status_code == 201


def test_an_order_kept_past_its_30_minutes_while_paymob_cannot_answer_does_not_count_against_the_limit(
        api, make_product, checkout_body):
    # given a limit of one, and the one card order kept pending past its 30 minutes by the expiry job because
    # Paymob could not say whether it was paid (orders.tasks)
    store_settings_update(max_unpaid_orders=1)
    tea = make_product(stock=10)
    _fill_cart(api, tea)
    api.post(INTENTION, checkout_body(paymentMethod="sandbox"), format="json")
    Order.objects.update(created_at=timezone.now() - timedelta(minutes=45))
    # when the shopper orders another tea (the refusal says "wait 30 minutes": they did)
    api.delete("/api/cart")
    _fill_cart(api, make_product(stock=10))
    response = api.post(INTENTION, checkout_body(paymentMethod="sandbox"), format="json")
    # then
    assert response.status_code == 201, response.content


@pytest.mark.parametrize("field, value, where", [
    ("firstName", "M" * 121, "customer"),
    ("email", "a" * 250 + "@example.com", "customer"),
    ("phone", "010" + " " * 30 + "12345678", "customer"),  # a valid number, padded past PHONE_MAX
    ("street", "S" * 201, "billingAddress"),
    ("city", "Cairo\x00", "billingAddress"),
    ("street", "12 Nile St\ud800", "billingAddress"),
])
def test_checkout_fields_pass_the_one_text_gate(api, make_product, checkout_body, field, value, where):
    # given
    _fill_cart(api, make_product())
    body = checkout_body(paymentMethod="cod")
    body[where] = {**body[where], field: value}
    # when (ASCII JSON, so a lone surrogate travels as the \\ud800 escape a browser would send)
    response = api.post(INTENTION, json.dumps(body), content_type="application/json")
    # then
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert Order.objects.count() == 0


def test_the_longest_accepted_name_and_city_are_stored_whole(api, make_product, checkout_body):
    # given names and a city at the text gate's limits
    _fill_cart(api, make_product())
    body = checkout_body(paymentMethod="cod")
    body["customer"] = {**body["customer"], "firstName": "M" * 120}
    body["billingAddress"] = {**body["billingAddress"], "city": "C" * 200}
    # when
    response = api.post(INTENTION, body, format="json")
    # then
    assert response.status_code == 201, response.content
    order = Order.objects.get()
    assert len(order.first_name) == 120 and len(order.city) == 200


def _cod_order_placed(api, make_product, checkout_body):
    tea = make_product(stock=10)
    _fill_cart(api, tea, 2)
    body = checkout_body(paymentMethod="cod", items=[{"id": tea.pk, "quantity": 2}])
    response = api.post(INTENTION, body, format="json")
    assert response.status_code == 201, response.content
    return tea, body, response.json()


def test_a_cash_on_delivery_checkout_sent_again_after_a_lost_answer_gets_its_order_back(api, make_product,
                                                                                       checkout_body):
    # given a COD order just placed (its cart emptied), whose answer the shopper never saw
    tea, body, first = _cod_order_placed(api, make_product, checkout_body)
    # when the same checkout is sent again
    response = api.post(INTENTION, body, format="json")
    # then it is answered with the same order and its page, and nothing is placed or taken twice
    assert response.status_code == 201, response.content
    assert response.json()["orderId"] == first["orderId"]
    assert response.json()["paymentUrl"] == first["paymentUrl"]
    assert Order.objects.count() == 1
    tea.refresh_from_db()
    assert tea.stock == 8


@pytest.mark.parametrize("change", [
    {"paymentMethod": "card"},
    {"billingAddress": {"street": "9 Other St", "city": "Giza", "state": "Giza", "country": "EGY"}},
    {"items": [{"id": 0, "quantity": 2}]},
])
def test_a_different_checkout_on_an_emptied_cart_is_still_told_the_cart_is_empty(api, make_product, checkout_body,
                                                                                  change):
    _cod_order_placed(api, make_product, checkout_body)
    response = api.post(INTENTION, checkout_body(**{"paymentMethod": "cod", **change}), format="json")
    assert response.status_code == 400, response.content
    assert response.json()["message"] == "Your cart is empty"
    assert Order.objects.count() == 1


def test_the_order_is_given_back_only_to_its_session_and_only_for_ten_minutes(api, make_product, checkout_body):
    # given a COD order placed by one session
    _tea, body, _first = _cod_order_placed(api, make_product, checkout_body)
    # then another browser sending the same details is told its cart is empty
    assert APIClient().post(INTENTION, body, format="json").json()["message"] == "Your cart is empty"
    # and so is the same session eleven minutes later
    Order.objects.update(created_at=timezone.now() - timedelta(minutes=11))
    response = api.post(INTENTION, body, format="json")
    assert response.status_code == 400 and response.json()["message"] == "Your cart is empty"


def test_a_card_order_a_coupon_makes_free_is_paid_at_once_without_paymob(api, make_product, checkout_body,
                                                                         fake_paymob):
    # given a gift coupon covering a whole order big enough to ship free
    Coupon.objects.create(code="GIFT100", type="percentage", value=Decimal("100"), usage_limit=1)
    tea = make_product(price="600.00", stock=10)
    _fill_cart(api, tea, 2)
    # when it is placed by card
    response = api.post(INTENTION, checkout_body(paymentMethod="card", couponCode="GIFT100"), format="json")
    # then nothing is asked of Paymob (it takes no payment of 0), and the order is paid and confirmed
    assert response.status_code == 201, response.content
    assert response.json()["paymentUrl"] == "/thankyou"
    assert fake_paymob.requests == []
    order = Order.objects.get()
    assert order.total_amount == Decimal("0.00")
    assert (order.status, order.payment_status) == (OrderStatus.PROCESSING, PaymentStatus.PAID)
    assert order.payments.get().status == PaymentStatus.PAID
    assert Coupon.objects.get().used_count == 1
    assert Product.objects.get(pk=tea.pk).stock == 8
    assert api.get("/api/cart").json()["itemCount"] == 0
    assert api.get("/thankyou").status_code == 200


def test_one_visitor_cannot_take_the_stock_with_cash_on_delivery_orders(api, make_product, checkout_body):
    # given a tea with twelve packs, and a visitor placing cash-on-delivery orders of two, each with another phone
    tea = make_product(price="300.00", stock=12)
    answers = []
    for n in range(5):
        _fill_cart(api, tea, 2)
        body = checkout_body(paymentMethod="cod")
        body["customer"]["phone"] = f"0101234567{n}"
        answers.append(api.post(INTENTION, body, format="json"))
    # then the store's limit of unpaid orders (3) holds for them too, with a message that says why
    assert [answer.status_code for answer in answers] == [201, 201, 201, 429, 429]
    assert answers[3].json()["message"] == ("You have too many orders waiting to be shipped. "
                                            "Please wait until one ships, or contact us.")
    assert Product.objects.get(pk=tea.pk).stock == 6
    # and once one of them ships, another may be placed
    Order.objects.filter(pk=Order.objects.earliest("created_at").pk).update(status=OrderStatus.SHIPPED)
    assert api.post(INTENTION, checkout_body(paymentMethod="cod"), format="json").status_code == 201


def test_cash_on_delivery_is_offered_and_taken_in_egypt_only(api, make_product, checkout_body):
    # given a cart, and a shopper whose address is in Saudi Arabia
    tea = make_product(stock=5)
    _fill_cart(api, tea)
    abroad = {"paymentMethod": "cod", "country": "SAU"}
    # then the summary offers no cash on delivery there, as it does in Cairo
    assert api.post("/api/cart/summary", abroad, format="json").json()["codAvailable"] is False
    assert api.post("/api/cart/summary", {"paymentMethod": "cod", "governorate": "Cairo"},
                    format="json").json()["codAvailable"] is True
    # and an order sent anyway is refused at the payment method, in the shopper's language, placing nothing
    body = checkout_body(paymentMethod="cod")
    body["billingAddress"] = {"street": "King Fahd Rd", "city": "Riyadh", "state": "Riyadh", "country": "SAU"}
    refused = api.post(INTENTION, body, format="json")
    assert (refused.status_code, refused.json()["field"]) == (400, "paymentMethod")
    assert refused.json()["message"] == "Cash on delivery is available in Egypt only"
    arabic = api.post(INTENTION, body, format="json", HTTP_ACCEPT_LANGUAGE="ar").json()["message"]
    assert arabic == "الدفع عند الاستلام متاح داخل مصر فقط"
    assert Order.objects.count() == 0


def test_the_arabic_thank_you_page_keeps_the_e_mail_address_left_to_right(api, make_product, checkout_body):
    # given a shopper whose address holds a hyphen, who ordered on the Arabic pages
    _fill_cart(api, make_product())
    body = checkout_body(paymentMethod="cod")
    body["customer"]["email"] = "guest-mona@example.com"
    assert api.post(INTENTION, body, format="json").status_code == 201
    # when the thank-you page shows it
    page = api.get("/ar/thankyou").content.decode()
    # then the address is a left-to-right island: wrapped on a phone, its "guest-" no longer showed as "-guest"
    assert '<dd data-testid="order-email"><bdi dir="ltr">guest-mona@example.com</bdi></dd>' in page
