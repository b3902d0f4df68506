from decimal import Decimal
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from orders import api as cart_api
from orders import cart as carts
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
    # then VAT is added on the tea and on its shipping (50.00)
    assert body["tax"] == "21.00"
    assert body["total"] == "171.00"


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


# issue 14: a cart write reads the cart's lines once, in its own transaction, and answers from them;
# GET /api/cart reads the lines of the visitor's cart in one query


def _line_reads(queries):
    return [q["sql"] for q in queries if q["sql"].startswith("SELECT") and '"orders_cartline"' in q["sql"]]


def _cart_reads(queries):
    """Reads of the cart row on its own (not as the lines' subquery)."""
    return [q["sql"] for q in queries if q["sql"].startswith("SELECT") and 'FROM "orders_cart"' in q["sql"]
            and '"orders_cartline"' not in q["sql"]]


@pytest.mark.parametrize("method", ["post", "patch"])
def test_a_cart_write_reads_the_lines_once_and_answers_what_a_read_gives(api, make_product, method):
    a, b, c = make_product(price="300.00"), make_product(price="120.00", stock=3), make_product(price="80.00")
    for product in (a, b):
        api.post("/api/cart/items", {"productId": product.pk, "quantity": 1}, format="json")
    for product, quantity in ((b, 5), (c, 2)):  # an existing line (capped at the stock), a new one
        url = "/api/cart/items" if method == "post" else f"/api/cart/items/{product.pk}"
        body = {"productId": product.pk, "quantity": quantity} if method == "post" else {"quantity": quantity}
        with CaptureQueriesContext(connection) as queries:
            written = getattr(api, method)(url, body, format="json")
        assert written.status_code == 200
        assert len(_line_reads(queries)) == 1
        answer = written.json()
        assert answer.pop("notice", None) == ("Only the quantity in stock was added" if product is b else None)
        assert answer == api.get("/api/cart").json()
    assert [(i["productId"], i["quantity"]) for i in answer["items"]] == [(a.pk, 1), (b.pk, 3), (c.pk, 2)]


@pytest.mark.django_db(transaction=True)  # autocommit between statements, as in a cart request
def test_a_write_to_a_line_reads_the_cart_once_and_writes_once(api, make_product):
    """Issue 14: the cart, its version and its lines in one read; the line and the version in one write
    (on SQLite a short transaction of two)."""
    tea = make_product(stock=50)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, format="json")
    with CaptureQueriesContext(connection) as queries:
        assert api.patch(f"/api/cart/items/{tea.pk}", {"quantity": 2}, format="json").json()["itemCount"] == 2
    statements = [query["sql"].split()[0].upper() for query in queries.captured_queries]
    assert statements == (["SELECT", "WITH"] if connection.vendor == "postgresql"
                          else ["SELECT", "BEGIN", "UPDATE", "UPDATE", "COMMIT"])


def test_a_write_builds_no_header_table(api, make_product):
    """Issue 14: request.headers builds a table of every header's name; a cart write (the islands'
    Accept header, a bearer token looked for) reads the two it needs from META."""
    tea = make_product(stock=50)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, format="json")
    with mock.patch("django.http.request.HttpHeaders.__init__", side_effect=AssertionError("built")) as built:
        written = api.patch(f"/api/cart/items/{tea.pk}", {"quantity": 2}, format="json", HTTP_ACCEPT="application/json")
    assert written.status_code == 200
    built.assert_not_called()


def test_a_refused_write_changes_nothing(api, make_product):
    store_settings_update(max_quantity_per_order=3)
    a, b = make_product(), make_product()
    api.post("/api/cart/items", {"productId": a.pk, "quantity": 2}, format="json")
    refused = api.post("/api/cart/items", {"productId": b.pk, "quantity": 2}, format="json")
    assert refused.status_code == 400
    assert api.patch(f"/api/cart/items/{a.pk}", {"quantity": 4}, format="json").status_code == 400
    inactive = make_product(active=False)
    assert api.post("/api/cart/items", {"productId": inactive.pk}, format="json").status_code == 404
    a.is_active = False
    a.save()
    assert api.patch(f"/api/cart/items/{a.pk}", {"quantity": 1}, format="json").status_code == 404
    a.is_active = True
    a.save()
    assert [(i["productId"], i["quantity"]) for i in api.get("/api/cart").json()["items"]] == [(a.pk, 2)]


def test_get_cart_is_one_query_for_the_cart_and_its_lines(api, make_product):
    tea = make_product()
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, format="json")
    with CaptureQueriesContext(connection) as queries:
        body = api.get("/api/cart").json()
    assert body["itemCount"] == 2
    assert len(_line_reads(queries)) == 1 and _cart_reads(queries) == []


def test_the_cart_answer_names_every_line_and_total_as_the_islands_read_them(api, make_product):
    tea, gift = make_product(price="300.00", sale="250.00"), make_product(price="80.50", stock=2)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, format="json")
    body = api.post("/api/cart/items", {"productId": gift.pk, "quantity": 5}, format="json").json()
    assert body.pop("notice") == "Only the quantity in stock was added"
    assert api.get("/api/cart").json() == body
    first, second = body.pop("items")
    assert first == {"id": tea.pk, "productId": tea.pk, "slug": tea.slug, "title": tea.title,
                     "image": tea.images[0] if tea.images else "", "price": "300.00", "salePrice": "250.00",
                     "unitPrice": "250.00", "quantity": 2, "lineTotal": "500.00", "stock": tea.stock}
    assert (second["salePrice"], second["unitPrice"], second["quantity"], second["lineTotal"]) == (
        None, "80.50", 2, "161.00")
    assert set(body) == {"itemCount", "subtotal", "discount", "couponCode", "shipping", "codFee", "tax", "taxRate",
                         "pricesIncludeTax", "total", "freeShippingThreshold", "freeShippingRemaining",
                         "governorate", "delivery", "codAvailable"}
    assert (body["itemCount"], body["subtotal"], body["discount"], body["couponCode"]) == (4, "661.00", "0.00", "")
    assert all(isinstance(body[key], str) and body[key].count(".") == 1 and len(body[key].split(".")[1]) == 2
               for key in ("shipping", "codFee", "tax", "total", "freeShippingThreshold", "freeShippingRemaining"))


@pytest.mark.django_db(transaction=True)
def test_a_cart_write_holds_its_transaction_only_while_it_writes(api, make_product, monkeypatch):
    """Issue 14: the answer is built after the write's transaction has ended, so the next write to the
    cart (on SQLite, any write) does not wait for it."""
    seen: dict[str, list[bool]] = {"write": [], "answer": []}

    def spy(name, real):
        def call(*args, **kwargs):
            seen[name].append(connection.in_atomic_block)
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(carts, "_write_unless_changed", spy("write", carts._write_unless_changed))
    monkeypatch.setattr(cart_api, "cart_output", spy("answer", cart_api.cart_output))
    tea, gift = make_product(), make_product()
    assert api.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, format="json").status_code == 200
    assert api.post("/api/cart/items", {"productId": gift.pk, "quantity": 1}, format="json").status_code == 200
    assert api.patch(f"/api/cart/items/{tea.pk}", {"quantity": 3}, format="json").status_code == 200
    assert api.delete(f"/api/cart/items/{gift.pk}").status_code == 200
    assert api.delete("/api/cart").json()["itemCount"] == 0
    assert len(seen["write"]) == 3 and seen["answer"] == [False] * 5


def test_a_line_put_back_at_its_position_keeps_the_carts_order(api, make_product):
    # given three teas in the cart, the middle one removed
    a, b, c = make_product(), make_product(), make_product()
    for tea in (a, b, c):
        api.post("/api/cart/items", {"productId": tea.pk}, format="json")
    api.delete(f"/api/cart/items/{b.pk}")
    # when it is put back at the place it had (Undo)
    answer = api.post("/api/cart/items", {"productId": b.pk, "quantity": 1, "position": 1}, format="json").json()
    # then the answer and every later read list it where it was
    assert [i["productId"] for i in answer["items"]] == [a.pk, b.pk, c.pk]
    assert [i["productId"] for i in api.get("/api/cart").json()["items"]] == [a.pk, b.pk, c.pk]
    # and a line added afterwards still goes last, the first one put back goes first
    d = make_product()
    api.post("/api/cart/items", {"productId": d.pk}, format="json")
    api.delete(f"/api/cart/items/{a.pk}")
    answer = api.post("/api/cart/items", {"productId": a.pk, "position": 0}, format="json").json()
    assert [i["productId"] for i in answer["items"]] == [a.pk, b.pk, c.pk, d.pk]
    assert [i["productId"] for i in api.get("/api/cart").json()["items"]] == [a.pk, b.pk, c.pk, d.pk]


def test_a_position_past_the_end_puts_the_line_last(api, make_product):
    # given
    a, b = make_product(), make_product()
    api.post("/api/cart/items", {"productId": a.pk}, format="json")
    # when
    answer = api.post("/api/cart/items", {"productId": b.pk, "position": 7}, format="json").json()
    # then
    assert [i["productId"] for i in answer["items"]] == [a.pk, b.pk]
    assert [i["productId"] for i in api.get("/api/cart").json()["items"]] == [a.pk, b.pk]
