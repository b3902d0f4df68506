"""Malformed JSON and numbers are a clean 400 with the API's error shape, never a 500."""

import json

import pytest
from rest_framework import exceptions

from shop.api.errors import exception_handler
from shop.api.parsers import json_loads, nesting_depth

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000 + "]" * 100_000


def _post(client, url, raw):
    return client.post(url, data=raw, content_type="application/json")


@pytest.mark.parametrize("url", ["/api/cart/items", "/api/contact", "/api/auth/login", "/api/newsletter",
                                 "/api/users/checkout-register", "/api/admin/login"])
def test_it_answers_100000_deep_nesting_with_400_on_json_endpoints(client, url):
    # when
    response = _post(client, url, DEEP)
    # then
    assert response.status_code == 400
    assert response.json()["message"] == "Malformed request."


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "NaN", "1e400", "1" + "0" * 30, "-" + "9" * 25])
def test_it_refuses_non_finite_and_huge_numbers(client, number):
    # when
    response = _post(client, "/api/cart/items", '{"productId": 1, "quantity": %s}' % number)
    # then
    assert response.status_code == 400


def test_it_refuses_non_finite_money_in_the_dashboard(client, owner):
    # given
    client.force_login(owner)
    # when
    response = client.put("/api/admin/settings", data='{"shippingRate": Infinity}', content_type="application/json")
    # then
    assert response.status_code == 400


@pytest.mark.parametrize("value", ["99999999999999999999", "3000000000"])
def test_it_refuses_an_id_beyond_what_a_column_holds_with_a_field_error(client, value):
    # when: a number sent as a string passes the parser and reaches the field
    response = client.post("/api/cart/items", {"productId": value}, content_type="application/json")
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "productId"


def test_it_refuses_stock_beyond_an_integer_column(client, owner):
    # given
    from tests.factories import make_product

    product = make_product()
    client.force_login(owner)
    # when
    response = client.put(f"/api/admin/products/{product.pk}", {"stock": 3_000_000_000},
                          content_type="application/json")
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "stock"


@pytest.mark.parametrize("url", ["/api/admin/products/99999999999999999999999",
                                 "/api/admin/orders/99999999999999999999999",
                                 "/api/cart/items/99999999999999999999999"])
def test_an_id_in_the_url_no_database_can_hold_is_not_found(client, owner, url):
    # given
    client.force_login(owner)
    # when
    response = client.get(url)
    # then
    assert response.status_code == 404


def test_it_refuses_a_lone_surrogate_with_a_field_error_in_valid_json(client):
    # when
    response = _post(client, "/api/cart/summary", '{"couponCode": "", "paymentMethod": "\\ud800"}')
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "paymentMethod"


def test_it_names_the_nested_field_holding_a_nul_by_its_own_key(client):
    # when
    response = _post(client, "/api/payment/create-intention",
                     '{"customer": {"firstName": "Sa\\u0000ra"}, "paymentMethod": "cod"}')
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "firstName"


def test_an_error_never_echoes_a_character_utf8_cannot_carry():
    # given: DRF quotes the refused value in a choice error
    error = exceptions.ValidationError({"status": ['"\ud800\x1b" is not a valid choice.']})
    # when
    response = exception_handler(error, {})
    # then
    body = json.dumps(response.data, ensure_ascii=False).encode("utf-8")
    assert response.status_code == 400
    assert b"valid choice" in body and response.data["field"] == "status"


def test_the_depth_scan_ignores_brackets_inside_strings():
    assert nesting_depth('{"a": "[[[[\\"[[[", "b": [1, {"c": []}]}') == 4
    assert json_loads('{"a": "%s"}' % ("[" * 40)) == {"a": "[" * 40}


def test_the_depth_scan_of_an_unclosed_string_is_linear():
    # a body of escaped quotes would make a naive string pattern quadratic
    with pytest.raises(ValueError):
        json_loads('"' + '\\"' * 500_000)


def test_malformed_json_is_answered_in_the_shoppers_language(client, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ar"
    response = _post(client, "/api/contact", "{not json")
    assert response.status_code == 400
    assert response.json()["message"] == "الطلب صيغ بشكل سيء."
