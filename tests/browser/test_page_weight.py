"""The budget: a storefront page's own JS + CSS, React included, is at most 100 KB gzipped."""

import gzip
from pathlib import Path

import pytest

from catalog.models import Category, Product
from orders.models import Cart

pytestmark = pytest.mark.django_db(transaction=True)

STATIC = Path(__file__).resolve().parents[2] / "static"
BUDGET = 100 * 1024  # 100 KB (KiB), gzip level 9, as whitenoise would send it without brotli


def _gzipped_size(url_path):
    relative = url_path.split("/static/", 1)[1].split("?")[0]
    return len(gzip.compress((STATIC / relative).read_bytes(), compresslevel=9))


def _weight(page, path):
    assets = set()
    page.on("response", lambda r: assets.add(r.url) if "/static/dist/" in r.url else None)
    page.goto(path)
    page.wait_for_load_state("networkidle")
    return sum(_gzipped_size(url) for url in assets), sorted(assets)


def test_every_storefront_page_stays_within_the_budget(new_page):
    category = Category.objects.create(slug="black-tea", name="Black Tea")
    Product.objects.create(slug="kenya-gold", title="Kenya Gold", price_amount="120.00", category=category, stock=5)
    page = new_page()
    # a cart with a line, so the cart and checkout pages show their islands
    page.goto("/")
    page.evaluate("""() => fetch('/api/cart/items', {method: 'POST', credentials: 'same-origin',
        headers: {'Content-Type': 'application/json', 'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || ''},
        body: JSON.stringify({productId: %d, quantity: 1})})""" % Product.objects.get().pk)
    assert Cart.objects.exists()
    report = {}
    for path in ("/", "/shop", "/product/kenya-gold", "/cart", "/checkout", "/contact", "/login", "/register"):
        weight, assets = _weight(page, path)
        report[path] = weight
        assert weight <= BUDGET, f"{path} loads {weight} bytes gzipped: {assets}"
    print("page weights (gzip bytes):", report)
