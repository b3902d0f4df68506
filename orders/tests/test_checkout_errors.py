"""Checkout validation answers every field's problem at once (issue 12: one missing field per
submit): the decided {error, message, field} for the first, and `fields` with all of them."""

import pytest

from orders.models import Order

pytestmark = pytest.mark.django_db

INTENTION = "/api/payment/create-intention"


def test_it_reports_every_wrong_field_and_keeps_the_first_as_the_error(api, make_product):
    # given a cart, and a form with a bad e-mail, no phone, no city and no governorate
    api.post("/api/cart/items", {"productId": make_product().pk, "quantity": 1}, format="json")
    body = {"paymentMethod": "cod",
            "customer": {"firstName": "Mona", "lastName": "Ali", "email": "mona@", "phone": ""},
            "billingAddress": {"street": "12 Nile St", "city": "", "state": "", "country": "EGY"}}
    # when
    response = api.post(INTENTION, body, format="json")
    # then
    data = response.json()
    assert response.status_code == 400
    assert (data["field"], data["message"], data["error"]) == ("phone", "Please fill in all required fields",
                                                               "Please fill in all required fields")
    assert data["fields"] == {"phone": "Please fill in all required fields",
                              "email": "Please enter a valid email address",
                              "city": "Please fill in your billing address",
                              "state": "Please fill in your billing address"}
    assert Order.objects.count() == 0


def test_the_messages_come_in_the_page_language(api, make_product):
    # given
    api.post("/api/cart/items", {"productId": make_product().pk, "quantity": 1}, format="json")
    body = {"paymentMethod": "cod", "customer": {"firstName": "", "lastName": "", "email": "", "phone": "12"},
            "billingAddress": {"street": "", "city": "Cairo", "state": "Cairo", "country": "EGY"}}
    # when
    data = api.post(INTENTION, body, format="json", HTTP_ACCEPT_LANGUAGE="ar").json()
    # then
    assert data["field"] == "email"
    assert set(data["fields"]) == {"email", "firstName", "lastName", "phone", "street"}
    assert data["fields"]["phone"].startswith("يرجى إدخال رقم هاتف")


def test_a_single_problem_still_answers_the_one_field_shape(api, make_product, checkout_body):
    # given
    api.post("/api/cart/items", {"productId": make_product().pk, "quantity": 1}, format="json")
    body = checkout_body(paymentMethod="cod")
    body["customer"] = {**body["customer"], "phone": "12"}
    # when
    data = api.post(INTENTION, body, format="json").json()
    # then
    assert data["field"] == "phone" and data["fields"] == {"phone": data["message"]}
