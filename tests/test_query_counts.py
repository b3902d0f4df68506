"""Issue 14: every storefront page and every dashboard list makes as many queries
with 1,000 products as with 10 (counted cold: no page or fragment cache)."""

import copy
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.views import ORDERS_PER_PAGE
from catalog.models import Product
from shop.store_settings import store_settings_get
from tests.factories import make_category, make_delivered_order, make_order_history, make_product

STOREFRONT = ["/", "/shop", "/shop?category=black-tea&sort=price-asc", "/shop?q=tea&sort=rating",
              "/product/tea-first", "/ar/", "/ar/shop", "/ar/product/tea-first", "/sale", "/explore",
              "/cart", "/checkout"]
DASHBOARD = ["/api/admin/products", "/api/admin/orders", "/api/admin/customers", "/api/admin/users",
             "/api/admin/inventory", "/api/reviews/admin", "/api/admin/analytics?range=365d"]


def _grow_to(count, template):
    """Copies of `template` up to `count` products, in one insert."""
    rows = []
    for n in range(Product.objects.count(), count):
        row = copy.copy(template)
        row.pk = None
        row.slug = f"bulk-tea-{n}"
        row.title = row.title_en = f"Bulk tea {n}"
        row.is_featured = n % 3 == 0
        row.sale_price_amount = template.price_amount - 10 if n % 4 == 0 else None
        rows.append(row)
    Product.objects.bulk_create(rows)


def _counts(clients):
    counts = {}
    for who, client, urls in clients:
        for url in urls:
            cache.clear()  # cold: the page and fragment caches would hide the queries
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            counts[(who, url)] = len(queries)
    return counts


@pytest.mark.django_db
def test_query_counts_do_not_grow_with_the_catalogue(alice, owner):
    store_settings_get()
    category = make_category("black-tea", "Black Tea", "شاي أسود")
    first = make_product(slug="tea-first", category=category, stock=50)
    make_product(category=category, sale_price_amount=Decimal("120.00"))  # /sale is not empty at 10 either
    for _ in range(8):
        make_product(category=category)
    make_delivered_order(user=alice, product=first)
    visitor, customer, staff = Client(), Client(), Client()
    visitor.post("/api/cart/items", {"productId": first.pk, "quantity": 1}, content_type="application/json")
    customer.force_login(alice)
    customer.post("/api/cart/items", {"productId": first.pk, "quantity": 2}, content_type="application/json")
    staff.force_login(owner)
    clients = [("guest with a cart", visitor, STOREFRONT), ("customer", customer, STOREFRONT),
               ("staff", staff, DASHBOARD)]
    small = _counts(clients)
    _grow_to(1000, first)
    for product in Product.objects.filter(slug__startswith="bulk-tea-")[:20]:  # and more orders
        make_delivered_order(user=alice, product=product)
    large = _counts(clients)
    grown = {key: (small[key], large[key]) for key in small if small[key] != large[key]}
    assert grown == {}


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/account", "/account?page=2", "/account?page=999", "/ar/account"])
def test_the_order_history_takes_as_many_queries_for_1000_orders_as_for_10(alice, url):
    # given a customer with 10 orders, then with 1,000
    store_settings_get()
    customer = Client()
    customer.force_login(alice)
    make_order_history(user=alice, count=10)
    small = _counts([("customer", customer, [url])])

    # when they have 990 more
    make_order_history(user=alice, count=990)
    large = _counts([("customer", customer, [url])])

    # then the page costs the same queries, and shows one page of them
    assert large == small
    assert customer.get(url).content.decode().count("data-order=") == ORDERS_PER_PAGE
