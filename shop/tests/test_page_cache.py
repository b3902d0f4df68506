import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from catalog.models import Category
from catalog.services import product_upsert
from orders.stock import stock_reserve
from shop.models import ExchangeRate
from shop.page_cache import PageInputs, page_inputs
from shop.store_settings import store_settings_update

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def tea(db):
    category = Category.objects.create(slug="black-tea", name="Black Tea")
    return product_upsert(slug="kenya-gold", title="Kenya Gold", price_amount="120.00", category=category, stock=20)


@pytest.mark.django_db
class TestPageCacheForVisitors:
    def test_a_visitor_without_a_session_gets_the_cached_page(self, client, tea):
        # given a stored exchange rate (as after the first refresh) and the page rendered once
        ExchangeRate.objects.create(from_currency="KES", to_currency="EGP", rate="0.39", source="test")
        client.get("/product/kenya-gold")
        # when another fresh visitor asks for it
        with CaptureQueriesContext(connection) as queries:
            response = Client().get("/product/kenya-gold")
        # then it comes from the cache, whole: no query but the request's own savepoint
        assert [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]] == []
        assert response.status_code == 200
        assert "Kenya Gold" in response.content.decode()

    def test_each_visitor_gets_a_csrf_token_of_their_own_that_works(self, tea):
        first = Client(enforce_csrf_checks=True)
        second = Client(enforce_csrf_checks=True)
        page_one = first.get("/contact").content.decode()
        page_two = second.get("/contact").content.decode()
        token_one, token_two = TOKEN.search(page_one).group(1), TOKEN.search(page_two).group(1)
        assert token_one != token_two and "__CSRF_TOKEN__" not in page_two
        # the second visitor's token is valid with the second visitor's cookie
        response = second.post("/newsletter", {"email": "reader@example.com", "csrfmiddlewaretoken": token_two})
        assert response.status_code != 403

    def test_a_signed_in_customer_never_gets_a_cached_page(self, client, tea, alice):
        Client().get("/")  # cached for visitors
        client.force_login(alice)
        assert "Welcome, <bdi>Alice</bdi>" in client.get("/").content.decode()
        assert "Welcome, <bdi>Alice</bdi>" not in Client().get("/").content.decode()

    def test_a_visitor_with_a_cart_sees_their_own_count(self, client, tea):
        Client().get("/product/kenya-gold")
        client.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, content_type="application/json")
        body = client.get("/product/kenya-gold").content.decode()
        assert '"itemCount": 2' in body
        assert '<span class="visually-hidden">2 items in cart</span>' in body

    def test_a_stock_change_shows_at_once(self, tea):
        assert "In Stock" in Client().get("/product/kenya-gold").content.decode()
        stock_reserve(lines=[(tea.pk, 15)])
        assert "Only 5 left" in Client().get("/product/kenya-gold").content.decode()

    def test_a_settings_change_shows_at_once(self, tea):
        Client().get("/about")
        store_settings_update(store_name="Chai Corner")
        assert "Chai Corner" in Client().get("/about").content.decode()

    def test_languages_are_cached_apart(self, tea):
        Client().get("/about")
        assert 'lang="ar"' in Client().get("/ar/about").content.decode()

    def test_a_missing_product_is_still_a_404(self, tea):
        assert Client().get("/product/nope").status_code == 404
        assert Client().get("/product/nope").status_code == 404


NONCE = re.compile(r'nonce="([^"]+)"')


@pytest.mark.django_db
class TestCachedPagesStaySecure:
    def test_a_cached_page_gets_a_fresh_nonce_that_matches_its_header(self, tea):
        # given a stored exchange rate and the page rendered once for a visitor (now in the cache)
        ExchangeRate.objects.create(from_currency="KES", to_currency="EGP", rate="0.39", source="test")
        first = Client().get("/product/kenya-gold")
        # when another visitor gets it from the cache
        with CaptureQueriesContext(connection) as queries:
            second = Client().get("/product/kenya-gold")
        # then it was a cache hit, its nonce is its own and is the one its CSP allows
        assert [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]] == []
        nonce_one = set(NONCE.findall(first.content.decode()))
        nonce_two = set(NONCE.findall(second.content.decode()))
        assert len(nonce_two) == 1 and nonce_two != nonce_one and "__CSP_NONCE__" not in second.content.decode()
        assert f"'nonce-{nonce_two.pop()}'" in second["Content-Security-Policy"]

    def test_a_cached_page_carries_every_security_header(self, tea):
        Client().get("/about", secure=True)
        response = Client().get("/about", secure=True)
        for header in ("Content-Security-Policy", "Permissions-Policy", "Referrer-Policy",
                       "Cross-Origin-Opener-Policy", "X-Content-Type-Options", "X-Frame-Options",
                       "Strict-Transport-Security"):
            assert response.has_header(header), header

    def test_a_forged_host_or_scheme_never_reaches_other_visitors_links(self, tea, settings):
        # given the shop answers to two names (as behind a proxy) and an attacker asks first
        settings.ALLOWED_HOSTS = ["shop.example", "localhost"]
        Client().get("/shop", HTTP_HOST="localhost", headers={"X-Forwarded-Proto": "https"})
        # when an ordinary visitor asks for the same page
        body = Client().get("/shop", HTTP_HOST="shop.example").content.decode()
        # then the canonical, og:url and hreflang links are their own
        assert '<link rel="canonical" href="http://shop.example/shop">' in body
        assert '<meta property="og:url" content="http://shop.example/shop">' in body
        assert 'hreflang="ar" href="http://shop.example/ar/shop"' in body
        head = body.split("</head>")[0]
        assert "localhost" not in head and "https://shop.example" not in head

    def test_a_forged_scheme_never_reaches_the_product_data_of_signed_in_customers(self, tea, client, alice,
                                                                                   settings):
        # given a stored exchange rate and an attacker's request that claims https
        settings.ALLOWED_HOSTS = ["shop.example"]
        ExchangeRate.objects.create(from_currency="KES", to_currency="EGP", rate="0.39", source="test")
        Client().get("/product/kenya-gold", HTTP_HOST="shop.example", headers={"X-Forwarded-Proto": "https"})
        # when a signed-in customer (no whole-page cache, shared fragments) opens the page
        client.force_login(alice)
        body = client.get("/product/kenya-gold", HTTP_HOST="shop.example").content.decode()
        # then the product's structured data points at the address they used
        assert '"url": "http://shop.example/product/kenya-gold"' in body
        assert "https://shop.example" not in body


def test_the_page_and_its_fragments_are_keyed_by_the_same_inputs(rf):
    # given one request
    request = rf.get("/ar/shop?sort=newest", HTTP_HOST="localhost", HTTP_X_FRAGMENT="results")
    # when its inputs are read
    inputs = page_inputs(request)
    # then they are what the page shows: scheme, host, language (from the path), path with query, fragment
    assert inputs == PageInputs("http", "localhost", "ar", "/ar/shop?sort=newest", "results")
    # and every other host, language, query or catalogue version is another entry
    others = [
        page_inputs(rf.get("/ar/shop?sort=newest", HTTP_HOST="127.0.0.1", HTTP_X_FRAGMENT="results")),
        page_inputs(rf.get("/ar/shop?sort=newest", HTTP_HOST="localhost")),
        page_inputs(rf.get("/ar/shop?sort=price-asc", HTTP_HOST="localhost", HTTP_X_FRAGMENT="results")),
        page_inputs(request, "en"),
    ]
    keys = {inputs.key("shop-body", 1), inputs.key("shop-body", 2), inputs.key("page"),
            *(other.key("shop-body", 1) for other in others)}
    assert len(keys) == 3 + len(others)
