"""What a phone on a slow line waits for before the first paint (issue 14): the page comes gzipped, and
its stylesheets come inside it (no render-blocking request), nonced like every other inline element."""

import gzip
import re

import pytest
from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.test import Client, RequestFactory

from catalog.models import Category, Product
from shop.middleware import TextGZipMiddleware

pytestmark = pytest.mark.django_db
STYLE = re.compile(r'<style nonce="([^"]+)">(.*?)</style>', re.S)


@pytest.fixture
def tea():
    category = Category.objects.create(slug="black-tea", name="Black Tea", name_ar="شاي أسود")
    return Product.objects.create(slug="kenya-gold", title="Kenya Gold", title_ar="كينيا جولد", price_amount="120.00",
                                  category=category, stock=5)


def _built(name):
    with open(finders.find(f"dist/{name}"), encoding="utf-8") as built:
        return built.read()


@pytest.mark.parametrize("path", ["/shop", "/ar/shop"])
def test_a_page_goes_out_gzipped_to_a_browser_that_asks_rendered_or_stored(tea, path):
    plain = Client().get(path).content
    for _visit in range(2):  # the second visitor gets the stored page
        response = Client().get(path, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        assert response["Content-Encoding"] == "gzip"
        page = gzip.decompress(response.content)
        assert len(response.content) < len(page) / 3
        # the same page but for its nonce and CSRF token, which are this visitor's own
        assert page.count(b"<main") == plain.count(b"<main") == 1
        assert len(page) == pytest.approx(len(plain), abs=200)
    assert "Content-Encoding" not in Client().get(path)  # nor to one that does not


def test_api_answers_are_gzipped_and_pictures_are_not():
    def answer(content_type):
        return HttpResponse(b"x" * 4000, content_type=content_type)

    request = RequestFactory().get("/", HTTP_ACCEPT_ENCODING="gzip")
    for content_type, compressed in (("application/json", True), ("text/html; charset=utf-8", True),
                                     ("image/svg+xml", True), ("image/png", False), ("image/webp", False),
                                     ("font/woff2", False), ("application/pdf", False)):
        response = TextGZipMiddleware(lambda _request, kind=content_type: answer(kind))(request)
        assert (response.get("Content-Encoding") == "gzip") is compressed, content_type


@pytest.mark.parametrize(("path", "sheets"), [
    ("/", ["main.css", "search.css", "storefront.css"]),
    ("/ar/shop", ["main.css", "search.css", "storefront.css"]),
    ("/product/kenya-gold", ["main.css", "search.css", "storefront.css", "product.css"]),
    ("/cart", ["main.css", "search.css", "checkout.css"]),
    ("/login", ["main.css", "search.css", "accounts.css"]),
])
def test_a_storefront_page_carries_its_stylesheets_and_links_none(tea, path, sheets):
    response = Client().get(path)
    body = response.content.decode()
    assert 'rel="stylesheet"' not in body
    styles = STYLE.findall(body)
    nonce = styles[0][0]
    assert f"'nonce-{nonce}'" in response["Content-Security-Policy"]
    inline = "".join(text for each_nonce, text in styles if each_nonce == nonce)
    for sheet in sheets:  # the built file whole, its fonts' addresses made absolute (tests: unhashed)
        assert _built(sheet).replace('url("./', 'url("/static/dist/') in inline, sheet


def test_the_inlined_fonts_point_at_the_static_files_a_link_would_load(tea):
    body = Client().get("/ar/").content.decode()
    fonts = re.findall(r'url\("([^"]+)"\)', "".join(text for _nonce, text in STYLE.findall(body)))
    assert len(fonts) == 3 and all(url.startswith("/static/dist/fonts/") for url in fonts)
    for url in fonts:  # the files exist, and the page preloads the same addresses
        assert finders.find(url.removeprefix("/static/"))
    assert all(f'href="{url}"' in body for url in fonts if "kufi" in url or "700" in url)
