"""With REDIS_URL set and Redis unreachable, the shop keeps selling.

These tests need no Redis server: the cache points at a port where nothing
listens, which is what an outage looks like to the shop.
"""

import os
import time

import pytest
from rest_framework.test import APIClient

from catalog.models import Category, Product
from orders.models import Order
from shop.models import ExchangeRate
from shop.store_settings import store_settings_get, store_settings_update
from shop.tests.conftest import redis_cache_at, settings_with_redis

CHECKOUT = {
    "customer": {"firstName": "Mona", "lastName": "Ali", "email": "mona@example.com", "phone": "01012345678"},
    "billingAddress": {"street": "12 Nile St", "city": "Cairo", "state": "Cairo", "country": "EGY"},
    "paymentMethod": "cod",
}


@pytest.fixture
def tea(db):
    category = Category.objects.create(slug="black-tea", name="Black Tea")
    return Product.objects.create(slug="kenya-gold", title="Kenya Gold", price_amount="120.00",
                                  category=category, stock=20)


def test_with_redis_the_cache_fails_open_and_sessions_and_lockouts_stay_in_the_database():
    configured = settings_with_redis()
    assert configured["CACHES"]["default"]["BACKEND"] == "shop.cache.FailOpenRedisCache"
    options = configured["CACHES"]["default"]["OPTIONS"]
    assert options["socket_connect_timeout"] <= 1 and options["socket_timeout"] <= 2
    assert configured["SESSION_ENGINE"] == "shop.sessions"  # every session in the database, a copy in Redis
    assert configured["AXES_HANDLER"] == "axes.handlers.database.AxesDatabaseHandler"


@pytest.mark.django_db
class TestRedisDown:
    def test_storefront_pages_answer(self, redis_down, tea):
        # given Redis unreachable
        # when fresh visitors open the storefront
        started = time.monotonic()
        statuses = [APIClient().get(path).status_code for path in ("/", "/shop", "/product/kenya-gold", "/ar/shop")]
        # then every page answers, without waiting out a timeout per cache call
        assert statuses == [200, 200, 200, 200]
        assert time.monotonic() - started < 30

    def test_a_guest_fills_a_cart_and_pays_cash_on_delivery(self, redis_down, tea):
        api = APIClient()
        # when
        added = api.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, format="json")
        cart = api.get("/api/cart")
        placed = api.post("/api/payment/create-intention", CHECKOUT, format="json")
        # then the session kept the cart and the order is placed once
        assert added.status_code == 200 and cart.status_code == 200
        assert placed.status_code == 201, placed.content
        assert Order.objects.count() == 1
        tea.refresh_from_db()
        assert tea.stock == 18

    def test_a_customer_signs_in_with_a_token_and_the_owner_uses_the_dashboard(
            self, redis_down, alice, owner, password):
        # when a customer signs in through the API and uses the bearer token
        login = APIClient().post("/api/auth/login", {"email": alice.email, "password": password}, format="json")
        assert login.status_code == 200, login.content
        token = login.json()["token"]
        me = APIClient(HTTP_AUTHORIZATION=f"Bearer {token}").get("/api/auth/me")
        # and the Owner opens the dashboard
        staff = APIClient()
        staff.force_login(owner)
        # then
        assert me.status_code == 200
        assert staff.get("/admindash").status_code == 200
        assert staff.get("/api/admin/dashboard/overview").status_code in (200, 404)

    def test_store_settings_and_rates_come_from_the_database(self, redis_down, db):
        # given settings and a rate stored while Redis is down
        store_settings_update(store_name="Tea House")
        ExchangeRate.objects.create(from_currency="KES", to_currency="EGP", rate="0.41", source="test")
        # then reads see them
        from shop.rates import rate_get

        assert store_settings_get().store_name == "Tea House"
        assert str(rate_get().rate) == "0.41000000"


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs a Redis server")
def test_a_value_written_during_the_outage_is_not_served_stale_afterwards():
    from django.conf import settings

    from shop.tests.tcp_proxy import TcpProxy

    host_port = settings.CACHES["default"]["LOCATION"].split("//", 1)[1].split("/", 1)
    host, port = host_port[0].rsplit(":", 1)
    db_number = host_port[1] if len(host_port) > 1 else "0"
    with TcpProxy(host, int(port)) as proxy:
        from shop.cache import FailOpenRedisCache

        config = redis_cache_at(f"redis://127.0.0.1:{proxy.port}/{db_number}")["default"]
        options = {**config["OPTIONS"], "RETRY_SECONDS": 0.1}
        proxied = FailOpenRedisCache(config["LOCATION"], {**config, "OPTIONS": options})
        # given a value cached before the outage
        proxied.set("settings", "old")
        # when a newer value cannot be written during the outage
        proxy.cut()
        proxied.set("settings", "new")
        assert proxied.get("settings") is None  # a miss, not an error
        # then once Redis answers again the old value is gone, not served
        proxy.restore()
        time.sleep(0.2)
        assert proxied.get("settings") is None
        proxied.close()


REFUSING_WRITES = {
    # out of memory under `noeviction`: every write is refused with OOM, reads answer
    "out of memory": ["--maxmemory", "1", "--maxmemory-policy", "noeviction"],
    # a replica after a failover (its master gone): every write is refused with READONLY, reads answer
    "read-only replica": ["--replicaof", "127.0.0.1", "1"],
}


@pytest.fixture(params=list(REFUSING_WRITES))
def redis_refusing_writes(request, settings, tmp_path):
    """A real Redis of this test's own on 127.0.0.1 that answers reads and refuses every write (the same
    happens with MISCONF, when its disk is full and it cannot save)."""
    import shutil
    import socket
    import subprocess

    from django.core.cache import cache

    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                                "no", "--dir", str(tmp_path), *REFUSING_WRITES[request.param]],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        settings.CACHES = redis_cache_at(f"redis://127.0.0.1:{port}/0")
        yield
        cache.close()
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.django_db
def test_a_redis_that_refuses_writes_costs_the_shop_nothing(redis_refusing_writes, tea, owner):
    # given Redis answering but refusing every write (the page cache, settings, rate-limit counters)
    api = APIClient()
    # when a shopper browses, fills a cart and pays on delivery, and the Owner opens the dashboard
    pages = [api.get(path).status_code for path in ("/", "/shop", "/product/kenya-gold", "/ar/shop")]
    added = api.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, format="json")
    placed = api.post("/api/payment/create-intention", CHECKOUT, format="json")
    staff = APIClient()
    staff.force_login(owner)
    store_settings_update(store_name="Tea House")
    # then everything answers as with Redis down, and the order is placed once
    assert pages == [200, 200, 200, 200]
    assert added.status_code == 200 and placed.status_code == 201, placed.content
    assert staff.get("/admindash").status_code == 200
    assert store_settings_get().store_name == "Tea House"
    assert Order.objects.count() == 1
