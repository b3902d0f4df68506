"""Issue 14: what a visitor's cart holds (the header badge, GET /api/cart's answer) is kept per web
process until their cart changes (orders.cart.cart_memo), and every change shows on the next request."""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from catalog.services import product_upsert
from orders import cart as carts
from orders.models import Cart
from shop.store_settings import store_settings_get
from tests.factories import make_product

pytestmark = pytest.mark.django_db

BADGE = re.compile(r'<span class="badge"[^>]*>(\d+)</span>')


@pytest.fixture(autouse=True)
def _fresh_process_copies():
    carts._carts.clear()
    yield
    carts._carts.clear()


@pytest.fixture
def tea(db):
    store_settings_get()
    return make_product(slug="kenya-gold", stock=50, price="300.00")


def _cart_queries(queries):
    return [q["sql"] for q in queries if "orders_cart" in q["sql"]]


def _add(client, product, quantity=1):
    response = client.post("/api/cart/items", {"productId": product.pk, "quantity": quantity},
                           content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()


def _get(client, url="/api/cart"):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return response, _cart_queries(queries)


def test_get_cart_is_answered_from_the_kept_copy_until_the_cart_changes(tea):
    shopper = Client()
    written = _add(shopper, tea, 2)
    first, queries = _get(shopper)
    assert first.json() == written and len(queries) == 1
    again, queries = _get(shopper)
    assert again.json() == written and queries == []
    _add(shopper, tea, 1)
    after, queries = _get(shopper)
    assert after.json()["itemCount"] == 3 and len(queries) == 1
    shopper.patch(f"/api/cart/items/{tea.pk}", {"quantity": 1}, content_type="application/json")
    assert _get(shopper)[0].json()["itemCount"] == 1
    shopper.delete(f"/api/cart/items/{tea.pk}")
    assert _get(shopper)[0].json()["itemCount"] == 0


def test_a_price_change_shows_on_the_next_read(tea):
    shopper = Client()
    _add(shopper, tea)
    assert _get(shopper)[0].json()["subtotal"] == "300.00"
    product_upsert(slug=tea.slug, title_en=tea.title, price_amount="280.00", category=tea.category)
    assert _get(shopper)[0].json()["subtotal"] == "280.00"


def test_another_language_and_another_visitor_get_their_own_answer(tea):
    one, two = Client(), Client()
    _add(one, tea, 2)
    _add(two, tea, 5)
    assert _get(one)[0].json()["itemCount"] == 2 and _get(two)[0].json()["itemCount"] == 5
    arabic = one.get("/api/cart", HTTP_ACCEPT_LANGUAGE="ar").json()
    assert arabic["itemCount"] == 2 and arabic["items"][0]["title"] != ""


def test_a_change_made_by_another_process_shows_once_its_token_goes(tea):
    shopper = Client()
    _add(shopper, tea, 2)
    _get(shopper)
    with connection.cursor() as cursor:  # another process changes the line ...
        cursor.execute('UPDATE "orders_cartline" SET "quantity" = 4')
    assert _get(shopper)[0].json()["itemCount"] == 2  # (this process's copy)
    cache.delete(carts._carts.key(f"session:{shopper.session.session_key}"))  # ... and drops the token
    assert _get(shopper)[0].json()["itemCount"] == 4


def test_the_badge_is_kept_and_follows_every_change(tea, alice):
    assert Client().get("/shop").status_code == 200  # stored
    shopper = Client()
    _add(shopper, tea, 2)
    page, queries = _get(shopper, "/shop")
    assert BADGE.search(page.content.decode()).group(1) == "2" and len(queries) == 1
    page, queries = _get(shopper, "/shop")
    assert BADGE.search(page.content.decode()).group(1) == "2" and queries == []
    _add(shopper, tea, 1)
    assert BADGE.search(_get(shopper, "/shop")[0].content.decode()).group(1) == "3"
    # signing in merges the guest cart into the customer's: both owners' copies go
    response = shopper.post("/login", {"email": alice.email, "password": "correct horse 42"})
    assert response.status_code == 302, response.content
    assert BADGE.search(_get(shopper, "/shop")[0].content.decode()).group(1) == "3"
    assert _get(shopper)[0].json()["itemCount"] == 3
    # the customer's cart emptied elsewhere (an order placed from another device empties it)
    carts.cart_clear(cart=Cart.objects.get(user=alice))
    assert BADGE.search(_get(shopper, "/shop")[0].content.decode()).group(1) == "0"
    assert _get(shopper)[0].json()["itemCount"] == 0


def test_a_deleted_product_leaves_the_kept_cart(tea):
    other = make_product(price="80.00")
    shopper = Client()
    _add(shopper, tea)
    _add(shopper, other)
    assert _get(shopper)[0].json()["itemCount"] == 2
    other.delete()  # its cart lines go with it
    assert [item["productId"] for item in _get(shopper)[0].json()["items"]] == [tea.pk]


def test_a_customers_cart_token_is_read_with_their_row_token_and_its_change_leaves_the_row_kept(
        tea, alice, monkeypatch):
    assert Client().get("/shop").status_code == 200  # stored
    customer = Client()
    customer.force_login(alice)
    _add(customer, tea, 2)
    customer.get("/shop")
    reads, inside = [], []
    real_get, real_get_many = cache.get, cache.get_many

    def get(key, *args, **kwargs):
        if not inside:  # the file cache's get_many calls get for each key
            reads.append([key])
        return real_get(key, *args, **kwargs)

    def get_many(keys, *args, **kwargs):
        reads.append(list(keys))
        inside.append(1)
        try:
            return real_get_many(keys, *args, **kwargs)
        finally:
            inside.pop()

    monkeypatch.setattr(cache, "get", get)
    monkeypatch.setattr(cache, "get_many", get_many)
    page, queries = _get(customer, "/shop")
    # the user's two tokens (their row's, their cart's) in one read, with their session (shop.sessions);
    # the badge needs no query
    tokens = [[key for key in keys if "generation" in key] for keys in reads]
    assert tokens == [[f"user:generation:{alice.pk}", f"user-cart:generation:{alice.pk}"]]  # and one read only
    assert BADGE.search(page.content.decode()).group(1) == "2" and queries == []
    _add(customer, tea, 1)  # a change to the cart drops its token: the next page shows it
    with CaptureQueriesContext(connection) as after:
        page = customer.get("/shop")
    assert BADGE.search(page.content.decode()).group(1) == "3"
    # and leaves the user's row kept: the next page reads the cart, not the user
    assert not [q for q in after.captured_queries if "accounts_user" in q["sql"]], after.captured_queries


def test_a_customers_cart_write_makes_no_cart_token_and_the_next_read_makes_one(tea, alice, monkeypatch):
    # issue 14: their cart's token is made where a kept answer needs it, not with their row's: a cart
    # write deletes it, so making it for the write was a cache write for nothing
    customer = Client()
    customer.force_login(alice)
    _add(customer, tea, 1)
    _get(customer)  # the kept answer's token made, and the row kept
    made, real_add = [], cache.add

    def add(key, *args, **kwargs):
        made.append(key)
        return real_add(key, *args, **kwargs)

    monkeypatch.setattr(cache, "add", add)
    _add(customer, tea, 1)
    _add(customer, tea, 1)
    assert made == []
    body, queries = _get(customer)
    assert body.json()["itemCount"] == 3 and queries  # the new cart read, once
    assert made == [f"user-cart:generation:{alice.pk}"]
    assert _get(customer)[1] == []  # then kept
