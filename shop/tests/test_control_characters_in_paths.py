"""A URL path holding NUL or another control character is a 404, never a 500 (shop.middleware).

PostgreSQL text cannot hold NUL: a path part given to a view (`<str:…>`, `<path:…>`) and looked up
answered 500 there. Run on PostgreSQL too: `DATABASE_URL=postgres://… pytest shop/tests/test_control_…`.
"""

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import PathConverter, StringConverter
from django.urls.resolvers import LocalePrefixPattern

pytestmark = pytest.mark.django_db

NOT_FOUND_AR = "غير موجود."


def _routes_taking_text(patterns=None, prefix="/"):
    """Every route of the shop with a part that takes any text, that part filled in by a `{}`."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        pattern = entry.pattern
        part = pattern.language_prefix if isinstance(pattern, LocalePrefixPattern) else str(pattern)
        if isinstance(entry, URLResolver):
            yield from _routes_taking_text(entry.url_patterns, prefix + part)
        elif isinstance(entry, URLPattern) and any(
                isinstance(converter, StringConverter | PathConverter)
                for converter in getattr(pattern, "converters", {}).values()):
            yield re.sub(r"<[^>]+>", "{}", prefix + part)


ROUTES = sorted(set(_routes_taking_text()))


@pytest.fixture
def product(db):
    from tests import factories

    return factories.make_product(slug="tea")


def test_the_sweep_found_the_routes_a_nul_broke():
    assert {"/api/payment/verify/{}", "/orders/{}/invoice.pdf", "/product/{}", "/api/products/{}"} <= set(ROUTES)


@pytest.mark.parametrize("route", ROUTES)
def test_a_nul_in_any_route_taking_text_is_a_404(client, owner, route, settings):
    # given every route whose path part a view reads as text, that part holding a NUL
    settings.PAYMENT_SANDBOX = True
    url = route.replace("{}", "x%00")
    staff = Client()
    staff.force_login(owner)
    # when a visitor and a signed-in Owner ask for it, and post to it
    answers = [client.get(url), staff.get(url), client.post(url), staff.post(url)]
    # then each is told there is no such page
    assert [answer.status_code for answer in answers] == [404] * 4, url


@pytest.mark.parametrize("url", [
    "/api/payment/verify/pay_x%00", "/api/products/tea%00", "/api/orders/track/tok%0A", "/api/nothing%7F"])
def test_under_the_api_it_is_the_json_404_translated(url):
    # when an API client asks in Arabic for a path holding a control character
    response = Client(HTTP_ACCEPT_LANGUAGE="ar").get(url)
    # then it gets the API's 404 in its one error shape, in Arabic
    assert response.status_code == 404
    assert response.json() == {"error": NOT_FOUND_AR, "message": NOT_FOUND_AR}


@pytest.mark.parametrize("url", ["/product/tea%00", "/ar/product/tea%00", "/orders/NHT%00/invoice.pdf",
                                 "/track/abc%1F", "/product/%0D%0Atea"])
def test_a_page_is_the_shops_404_page(client, product, url):
    # when a browser asks for a page whose path holds a control character
    response = client.get(url, follow=True)
    # then it is the shop's own 404 page, in the page's language
    assert response.status_code == 404
    assert "404.html" in [template.name for template in response.templates]
    assert response.context["LANGUAGE_CODE"] == ("ar" if url.startswith("/ar/") else "en")


def test_the_same_paths_without_the_character_still_answer(client, product):
    # the product the NUL was appended to exists: the 404 comes from the character alone
    assert client.get("/product/tea").status_code == 200
    assert client.get("/api/products/tea").status_code == 200


def test_a_nul_in_the_query_string_is_still_only_dropped(client, product):
    assert client.get("/product/tea?ref=a%00b").status_code == 200
