from decimal import Decimal

import pytest

from shop.store_settings import store_settings_update

pytestmark = pytest.mark.django_db


def test_it_adds_a_product_and_answers_the_whole_cart(api, make_product):
    # given
    tea = make_product(price="300.00", sale="250.00")
    # when
    response = api.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, format="json")
    # then
    assert response.status_code == 200
    body = response.json()
    assert body["itemCount"] == 2
    assert body["items"][0]["unitPrice"] == "250.00"
    assert body["subtotal"] == "500.00"
    assert body["shipping"] == "50.00"
    assert body["total"] == "550.00"
    assert body["freeShippingRemaining"] == "500.00"


def test_adding_the_same_product_twice_adds_up_but_never_beyond_stock(api, make_product):
    # given
    tea = make_product(stock=3)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, format="json")
    # when
    response = api.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, format="json")
    # then
    assert response.json()["itemCount"] == 3
    assert "notice" in response.json()


def test_setting_quantity_to_zero_removes_the_line(api, make_product):
    # given
    tea = make_product()
    api.post("/api/cart/items", {"productId": tea.pk}, format="json")
    # when
    response = api.patch(f"/api/cart/items/{tea.pk}", {"quantity": 0}, format="json")
    # then
    assert response.json()["items"] == []
    assert response.json()["itemCount"] == 0


def test_it_removes_a_line_and_clears_the_cart(api, make_product):
    # given
    a, b = make_product(), make_product()
    api.post("/api/cart/items", {"productId": a.pk}, format="json")
    api.post("/api/cart/items", {"productId": b.pk}, format="json")
    # when
    after_remove = api.delete(f"/api/cart/items/{a.pk}").json()
    after_clear = api.delete("/api/cart").json()
    # then
    assert [i["productId"] for i in after_remove["items"]] == [b.pk]
    assert after_clear["itemCount"] == 0


def test_it_refuses_out_of_stock_and_unknown_products(api, make_product):
    # given
    empty = make_product(stock=0, title="Empty Tea")
    # when
    out = api.post("/api/cart/items", {"productId": empty.pk}, format="json")
    unknown = api.post("/api/cart/items", {"productId": 999999}, format="json")
    # then
    assert out.status_code == 400 and "Empty Tea" in out.json()["message"]
    assert unknown.status_code == 404


def test_shipping_is_free_from_the_threshold_and_vat_is_included(api, make_product):
    # given
    tea = make_product(price="500.00")
    # when
    body = api.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, format="json").json()
    # then
    assert body["shipping"] == "0.00"
    assert body["total"] == "1000.00"
    assert body["pricesIncludeTax"] is True
    assert Decimal(body["tax"]) == Decimal("122.81")  # 1000 × 0.14 / 1.14


def test_vat_is_added_when_prices_exclude_it(api, make_product):
    # given
    store_settings_update(prices_include_tax=False)
    tea = make_product(price="100.00")
    # when
    body = api.post("/api/cart/items", {"productId": tea.pk}, format="json").json()
    # then
    assert body["tax"] == "14.00"
    assert body["total"] == "164.00"


def test_the_cart_page_renders_the_server_summary(client, make_product):
    # given
    tea = make_product(price="200.00")
    client.post("/api/cart/items", {"productId": tea.pk}, content_type="application/json")
    # when
    response = client.get("/cart")
    # then
    assert response.status_code == 200
    assert "E£200.00" in response.content.decode()
    assert "more for free shipping" in response.content.decode()
