"""Standing check: Redis or PostgreSQL going away while shoppers buy.

The shared servers are never stopped: the shop is pointed at a TCP proxy the
test starts on 127.0.0.1 (shop/tests/tcp_proxy.py), and the proxy is cut.
The Redis part runs when REDIS_URL is set, the PostgreSQL part when the
database is PostgreSQL; on an SQLite-only run both are skipped. Each part is
a fixed, small number of shoppers, so the check is bounded in time.

Invariants afterwards: every order a shopper was told about exists once,
with its lines, its payment and its confirmation e-mail; stock went down by
exactly what the orders hold; storefront pages answered 200 throughout the
Redis outage.
"""

import os
import time
from collections import Counter
from decimal import Decimal
from unittest import mock

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection, connections
from django.db.models import Sum
from rest_framework.test import APIClient

from catalog.models import Category, Product
from orders.models import Order, OrderItem, Payment
from shop.tests.tcp_proxy import TcpProxy

CHECKOUT = {
    "customer": {"firstName": "Mona", "lastName": "Ali", "email": "mona@example.com", "phone": "01012345678"},
    "billingAddress": {"street": "12 Nile St", "city": "Cairo", "state": "Cairo", "country": "EGY"},
    "paymentMethod": "cod",
}
STOCK = 100
TIME_BUDGET_SECONDS = 120  # about 20 s on an idle machine


@pytest.fixture
def teas(transactional_db):
    category = Category.objects.create(slug="black-tea", name="Black Tea")
    return [
        Product.objects.create(slug=f"tea-{n}", title=f"Tea {n}", price_amount=Decimal("120.00"),
                               category=category, stock=STOCK)
        for n in range(2)
    ]


class Shopper:
    """One visitor with their own address and session, browsing then paying cash on delivery."""

    def __init__(self, number):
        self.api = APIClient(raise_request_exception=False, REMOTE_ADDR=f"10.20.{number // 200}.{number % 200 + 1}")
        self.number = number

    def browse(self, product):
        return [self.api.get(path).status_code for path in ("/", "/shop", f"/product/{product.slug}")]

    def buy(self, product):
        added = self.api.post("/api/cart/items", {"productId": product.pk, "quantity": 1}, format="json")
        if added.status_code != 200:
            return added, None
        body = {**CHECKOUT, "customer": {**CHECKOUT["customer"], "email": f"shopper{self.number}@example.com"}}
        placed = self.api.post("/api/payment/create-intention", body, format="json")
        return placed, placed.json().get("orderId") if placed.status_code == 201 else None


def _assert_nothing_lost_or_doubled(teas, confirmed):
    """Orders the shoppers were told about exist exactly once, complete; stock matches them."""
    numbers = list(Order.objects.values_list("number", flat=True))
    assert len(numbers) == len(set(numbers))
    assert set(confirmed) <= set(numbers), "an order a shopper was told about is missing"
    for order in Order.objects.all():
        assert OrderItem.objects.filter(order=order).count() >= 1, f"{order.number} has no lines"
        assert Payment.objects.filter(order=order).count() == 1, f"{order.number} has no single payment"
    for tea in teas:
        tea.refresh_from_db()
        held = OrderItem.objects.filter(product=tea).aggregate(n=Sum("quantity"))["n"] or 0
        assert tea.stock == STOCK - held, f"{tea.slug}: stock {tea.stock}, orders hold {held}"
    mailed = Counter(number for message in mail.outbox for number in numbers if number in message.subject)
    assert all(mailed[number] == 1 for number in numbers), f"confirmation e-mails lost or doubled: {mailed}"


def _redis_location():
    location = settings.CACHES["default"]["LOCATION"]
    address, _slash, database = location.split("//", 1)[1].partition("/")
    host, _colon, port = address.rpartition(":")
    return host, int(port), database or "0"


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="no Redis configured (REDIS_URL)")
def test_the_shop_keeps_selling_while_redis_is_cut(teas, settings):
    started = time.monotonic()
    host, port, database = _redis_location()
    with TcpProxy(host, port) as proxy:
        config = dict(settings.CACHES["default"])
        config["LOCATION"] = f"redis://127.0.0.1:{proxy.port}/{database}"
        config["OPTIONS"] = {**config.get("OPTIONS", {}), "RETRY_SECONDS": 0.2}
        settings.CACHES = {"default": config}
        confirmed, page_statuses, refused = [], [], []
        # given six shoppers with Redis up, then twelve with it cut, then six after it is back
        for number in range(24):
            if number == 6:
                proxy.cut()
            if number == 18:
                proxy.restore()
                time.sleep(0.3)  # past RETRY_SECONDS: the cache is asked again
            shopper = Shopper(number)
            tea = teas[number % 2]
            statuses = shopper.browse(tea)
            page_statuses.append(statuses)
            placed, order_number = shopper.buy(tea)
            if order_number:
                confirmed.append(order_number)
            else:
                refused.append((number, placed.status_code, placed.content[:200]))
        from django.core.cache import cache

        cache.close()
    # then every page answered, every shopper's order went through once
    assert all(statuses == [200, 200, 200] for statuses in page_statuses), page_statuses
    assert refused == []
    assert len(confirmed) == 24
    _assert_nothing_lost_or_doubled(teas, confirmed)
    assert time.monotonic() - started < TIME_BUDGET_SECONDS


@pytest.fixture
def database_through_proxy(teas):
    """Point the default connection at a proxy in front of PostgreSQL; put it back afterwards."""
    connection_ = connections["default"]
    saved = (connection_.settings_dict["HOST"], connection_.settings_dict["PORT"])
    proxy = TcpProxy(saved[0] or "127.0.0.1", int(saved[1] or 5432))
    connection_.close()
    connection_.settings_dict.update(HOST="127.0.0.1", PORT=str(proxy.port))
    try:
        yield proxy
    finally:
        proxy.stop()
        connection_.close()
        connection_.settings_dict.update(HOST=saved[0], PORT=saved[1])
        connection_.close()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the database is not PostgreSQL")
def test_a_database_outage_fails_cleanly_and_writes_nothing_half(teas, database_through_proxy, settings):
    proxy = database_through_proxy
    started = time.monotonic()
    confirmed, failed = [], []

    def shop(numbers):
        for number in numbers:
            placed, order_number = Shopper(number).buy(teas[number % 2])
            if order_number:
                confirmed.append(order_number)
            else:
                failed.append(placed)

    # given five orders placed normally
    shop(range(5))
    # when the database vanishes in the middle of the next checkout's transaction
    from orders import checkout

    real_payment_start = checkout.payment_start

    def cut_then_start(**kwargs):
        proxy.cut()
        return real_payment_start(**kwargs)

    with mock.patch.object(checkout, "payment_start", side_effect=cut_then_start):
        shop([5])
    # and stays away for a few more shoppers
    shop(range(6, 9))
    time.sleep(1)
    proxy.restore()
    # then, once it is back, five more orders go through
    shop(range(9, 14))

    assert len(confirmed) == 10
    # the failed requests answered a clean JSON error, never a half-written order
    assert len(failed) == 4
    for response in failed:
        assert response.status_code >= 500
        assert response["Content-Type"].startswith("application/json")
        assert set(response.json()) >= {"error", "message"}
    assert Order.objects.count() == 10
    _assert_nothing_lost_or_doubled(teas, confirmed)
    assert time.monotonic() - started < TIME_BUDGET_SECONDS
