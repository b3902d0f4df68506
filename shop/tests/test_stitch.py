"""Issue 14: visitors with a session get the shared stored body with their own parts stitched in."""

import re

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from catalog import views as catalog_views
from shop.store_settings import store_settings_get, store_settings_update
from tests.factories import make_category, make_delivered_order, make_product
from tests.pages import without_random_parts

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
BADGE = re.compile(r'data-props=\'\{"itemCount": (\d+)\}\'>.*?<span class="badge"[^>]*>(\d+)</span>')


@pytest.fixture
def tea(db):
    store_settings_get()
    make_category("black-tea", "Black Tea", "شاي أسود")
    return make_product(slug="kenya-gold", stock=50)


def _add(client, product, quantity):
    response = client.post("/api/cart/items", {"productId": product.pk, "quantity": quantity},
                           content_type="application/json")
    assert response.status_code in (200, 201), response.content


def _store(url):
    """A visitor without a session asks first: the page is stored."""
    assert Client().get(url).status_code == 200


def _product_queries(queries):
    return [q["sql"] for q in queries if 'FROM "catalog_product"' in q["sql"] or "catalog_review" in q["sql"]]


@pytest.mark.django_db
class TestStitchedPages:
    @pytest.mark.parametrize("url", ["/", "/shop", "/shop?category=black-tea", "/product/kenya-gold",
                                     "/ar/shop", "/ar/product/kenya-gold"])
    def test_a_signed_in_customer_gets_the_stored_body_with_their_parts(self, tea, alice, url):
        _store(url)
        customer = Client()
        customer.force_login(alice)
        _add(customer, tea, 2)
        with CaptureQueriesContext(connection) as queries:
            body = customer.get(url).content.decode()
        # not rendered: the catalogue was not read
        assert _product_queries(queries) == []
        assert "Alice" in body and BADGE.search(body).groups() == ("2", "2")
        assert "__CSRF_TOKEN__" not in body and "__CSP_NONCE__" not in body and "<!--vp:" in body

    def test_a_stitched_page_is_the_page_a_render_gives(self, tea, alice):
        customer = Client()
        customer.force_login(alice)
        _add(customer, tea, 3)
        for url in ("/product/kenya-gold", "/ar/shop"):
            rendered = customer.get(url).content.decode()  # nothing stored yet: rendered
            _store(url)
            stitched = customer.get(url).content.decode()
            assert without_random_parts(stitched) == without_random_parts(rendered)

    def test_two_visitors_never_see_each_others_parts(self, tea, alice, bob):
        _store("/product/kenya-gold")
        one, two, guest = (Client(enforce_csrf_checks=True) for _ in range(3))
        one.force_login(alice)
        two.force_login(bob)
        for client, quantity in ((one, 2), (two, 5), (guest, 7)):
            client.get("/product/kenya-gold")  # a CSRF cookie
            response = client.post("/api/cart/items", {"productId": tea.pk, "quantity": quantity},
                                   content_type="application/json", HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
            assert response.status_code in (200, 201)
        pages = {}
        for _ in range(2):  # interleaved, twice
            for name, client in (("alice", one), ("bob", two), ("guest", guest)):
                pages[name] = (client, client.get("/product/kenya-gold").content.decode())
        alice_page, bob_page, guest_page = (without_random_parts(pages[n][1]) for n in ("alice", "bob", "guest"))
        assert BADGE.search(alice_page).group(1) == "2" and BADGE.search(bob_page).group(1) == "5"
        assert BADGE.search(guest_page).group(1) == "7"
        assert "Welcome, <bdi>Alice</bdi>" in alice_page and "Bob" not in alice_page
        assert "Welcome, <bdi>Bob</bdi>" in bob_page and "Alice" not in bob_page
        assert "Welcome" not in guest_page and "Alice" not in guest_page and "Bob" not in guest_page
        # each one's CSRF token works with their own cookie only
        tokens = {name: set(TOKEN.findall(page)) for name, (_c, page) in pages.items()}
        assert not (tokens["alice"] & tokens["bob"]) and not (tokens["alice"] & tokens["guest"])
        for name, (client, page) in pages.items():
            token = TOKEN.search(page).group(1)
            other = pages["bob" if name == "alice" else "alice"][0]
            ok = client.post("/newsletter", {"email": f"{name}@example.com", "csrfmiddlewaretoken": token})
            assert ok.status_code != 403
            stolen = other.post("/newsletter", {"email": f"x{name}@example.com", "csrfmiddlewaretoken": token})
            # a masked token of another cookie's secret does not match this visitor's cookie
            assert stolen.status_code == 403

    def test_the_review_form_is_the_visitors_own(self, tea, alice, bob):
        make_delivered_order(user=alice, product=tea)
        _store("/product/kenya-gold")
        buyer, other = Client(), Client()
        buyer.force_login(alice)
        other.force_login(bob)
        assert '"reason": ""' in buyer.get("/product/kenya-gold").content.decode()
        assert '"reason": "not-buyer"' in other.get("/product/kenya-gold").content.decode()
        assert '"reason": "login"' in Client().get("/product/kenya-gold").content.decode()

    def test_staff_get_a_rendered_page(self, tea, owner):
        _store("/shop")
        store_settings_update(maintenance_mode=True)
        staff = Client()
        staff.force_login(owner)
        assert "data-maintenance-banner" in staff.get("/shop").content.decode()


@pytest.mark.django_db
def test_the_delivery_estimate_is_the_shoppers_own(tea):
    _store("/product/kenya-gold")
    shopper = Client()
    _add(shopper, tea, 1)
    shopper.post("/api/cart/summary", {"governorate": "Aswan"}, content_type="application/json")
    with CaptureQueriesContext(connection) as queries:
        page = shopper.get("/product/kenya-gold").content.decode()
    assert _product_queries(queries) == []  # stitched, not rendered
    assert "Delivery to Aswan" in page and "Delivery to Cairo" not in page
    assert "Delivery to Cairo" in Client().get("/product/kenya-gold").content.decode()


@pytest.mark.django_db
def test_the_delivery_estimate_is_rendered_once_per_governorate_and_follows_settings_and_days(tea, monkeypatch):
    import datetime  # noqa: PLC0415

    from catalog import views  # noqa: PLC0415

    rendered = []
    real = views.delivery_estimate_part
    monkeypatch.setattr(views, "delivery_estimate_part", lambda *a: rendered.append(1) or real(*a))
    _store("/product/kenya-gold")
    shoppers = [Client() for _ in range(3)]
    for shopper, governorate in zip(shoppers, ("Aswan", "Aswan", "Giza"), strict=True):
        _add(shopper, tea, 1)
        shopper.post("/api/cart/summary", {"governorate": governorate}, content_type="application/json")
    pages = [shopper.get("/product/kenya-gold").content.decode() for shopper in shoppers]
    # two shoppers of Aswan share one rendering; Giza gets its own
    assert len(rendered) == 2
    assert "Delivery to Aswan" in pages[0] and "Delivery to Aswan" in pages[1] and "Delivery to Giza" in pages[2]
    # a new rate shows at once
    store_settings_update(shipping_zones=[{"governorate": "Aswan", "rate": "99.00", "minDays": 2, "maxDays": 4}])
    _store("/product/kenya-gold")
    assert "E£99.00" in shoppers[0].get("/product/kenya-gold").content.decode() and len(rendered) == 3
    # and a new day its own dates
    before = len(rendered)
    monkeypatch.setattr(views, "store_today", lambda store: datetime.date(2030, 1, 1))
    shoppers[0].get("/product/kenya-gold")
    assert len(rendered) == before + 1


@pytest.mark.django_db
class TestNoStoredCopy:
    """A page whose stored copy aged out is stored again by the first visitor with a session who asks."""

    @pytest.mark.parametrize("url", ["/shop", "/ar/product/kenya-gold"])
    def test_a_customer_stores_the_page_for_everyone_and_gets_their_own(self, tea, alice, url):
        customer = Client()
        customer.force_login(alice)
        _add(customer, tea, 2)
        cache.clear()
        body = customer.get(url).content.decode()
        assert "Alice" in body and BADGE.search(body).groups() == ("2", "2")
        # stored: the next request of anyone, with or without a session, does not render it
        with CaptureQueriesContext(connection) as queries:
            again = customer.get(url).content.decode()
            fresh = Client().get(url)
        assert _product_queries(queries) == []
        assert without_random_parts(again) == without_random_parts(body)
        # and what was stored holds nothing of hers: no name, no cart, no session
        page = without_random_parts(fresh.content.decode())
        assert "Alice" not in page and "alice@" not in page and BADGE.search(page).groups() == ("0", "0")
        assert "sessionid" not in fresh.cookies

    def test_a_customer_who_chose_english_on_an_arabic_browser_stores_the_english_page(self, tea, alice):
        customer = Client(HTTP_ACCEPT_LANGUAGE="ar-EG,ar;q=0.9")
        customer.force_login(alice)
        customer.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
        cache.clear()
        assert "Welcome, <bdi>Alice</bdi>" in customer.get("/shop").content.decode()
        with CaptureQueriesContext(connection) as queries:
            fresh = Client().get("/shop")
        assert _product_queries(queries) == [] and 'lang="en"' in fresh.content.decode()

    def test_a_page_that_is_not_stored_is_rendered_once_a_request(self, tea, alice, monkeypatch):
        customer = Client()
        customer.force_login(alice)
        cache.clear()
        monkeypatch.setattr("shop.page_cache.is_storable", lambda response: False)
        renders = []
        real = catalog_views.render
        monkeypatch.setattr(catalog_views, "render", lambda *args, **kwargs: renders.append(1) or real(*args, **kwargs))
        for _ in range(2):
            assert customer.get("/shop").status_code == 200
        # the first request tried once for visitors without a session, then rendered hers; the second rendered hers
        assert len(renders) == 3
