"""Time the dashboard's list APIs on a big shop: 50,000 orders, 5,000 products, a few thousand customers.

    .venv/bin/python bench/dashboard.py                      # SQLite in a scratch folder
    .venv/bin/python bench/dashboard.py --database-url postgres://postgres@127.0.0.1:5432/wt_bench
    # that PostgreSQL database is DROPPED and created again; --redis-url redis://…/N puts the shared
    # cache in that Redis database (emptied) instead of files

The data is written with bulk_create (a minute or two): orders spread over the last
13 months with a realistic mix of statuses, payment methods and governorates, about
two thirds by a few thousand customers with accounts and the rest by guests (who come
back under the same e-mail), one to three items each and one payment each, because
the lists and analytics read both. The staff APIs are called in this process with
Django's test client signed in as an Owner: one first request on an emptied cache
(timed: "first ms"), a few warm-up requests, then `--requests` timed ones per URL
(p50/p99 in ms), plus the number of queries the first request makes. Analytics is
timed three ways: with every cached month made stale before each request (everything
from the database: the baseline), warm, and with one order of an earlier month changing status
(through the ORM, as staff do) before each request, so that month is read again.
Target (issue 14): p99 < 200 ms for each row.
"""

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

from run import _recreate_postgres

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = 200
# the URLs the dashboard's sections load first (static_src/islands/admin/*.jsx)
ROWS = [
    ("orders, first page", "/api/admin/orders", None),
    ("products, first page", "/api/admin/products", None),
    ("products, Arabic missing, by price", "/api/admin/products?arabic=any&sort=-price", None),
    ("products, searched", "/api/admin/products?search=tea%2042", None),
    ("products, every id (Auto Categorize)", "/api/admin/products/ids", None),
    ("customers, first page", "/api/admin/customers", None),
    ("customers, accounts only", "/api/admin/customers?kind=registered", None),
    ("analytics, 1 year, every cached month made stale before each request (all from the database: the baseline)",
     "/api/admin/analytics?period=1y", "clear"),
    ("analytics, 1 year", "/api/admin/analytics?period=1y", None),
    ("analytics, 1 year, an earlier month's order changed before each request", "/api/admin/analytics?period=1y",
     "touch"),
]
# (status, payment method, payment status, weight): what a COD-heavy Egyptian shop sees
ORDER_MIX = [
    ("delivered", "cod", "cod", 40), ("delivered", "card", "paid", 20), ("shipped", "cod", "cod", 8),
    ("processing", "card", "paid", 6), ("processing", "cod", "cod", 6), ("pending", "card", "awaiting", 5),
    ("pending", "cod", "cod", 5), ("cancelled", "cod", "cod", 6), ("cancelled", "card", "failed", 4),
]
# most orders come from the big cities
BIG_CITIES = {"Cairo": 30, "Giza": 18, "Alexandria": 14, "Qalyubia": 5, "Sharqia": 4, "Dakahlia": 4}


def _setup(args):
    data = Path(args.data_dir) if args.data_dir else Path(tempfile.mkdtemp(prefix="bench-dashboard-"))
    data.mkdir(parents=True, exist_ok=True)
    os.environ.update({"DATA_DIR": str(data), "DEBUG": "0", "LOG_LEVEL": "WARNING",
                       "DJANGO_SETTINGS_MODULE": "shop.settings"})
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    if args.redis_url:  # the shared cache in Redis (its database is emptied), as production runs
        os.environ["REDIS_URL"] = args.redis_url
    if args.database_url:
        if not args.data_dir:
            _recreate_postgres(args.database_url)
        os.environ["DATABASE_URL"] = args.database_url
    sys.path.insert(0, str(ROOT))
    import django  # noqa: PLC0415 (the settings above must be in place first)

    django.setup()
    from django.core.management import call_command  # noqa: PLC0415

    call_command("migrate", verbosity=0)
    return data


def _generate(args):  # noqa: PLR0914 (one pass over the whole data set, kept in one place)
    from django.utils import timezone  # noqa: PLC0415

    from accounts.models import Role, User  # noqa: PLC0415
    from catalog.models import Category, Product  # noqa: PLC0415
    from orders.models import Order, OrderItem, Payment  # noqa: PLC0415
    from orders.places import GOVERNORATES  # noqa: PLC0415

    rng = random.Random(14)
    now = timezone.now()
    started = time.monotonic()
    categories = [Category.objects.create(slug=slug, name=name, name_en=name, name_ar=name, position=n)
                  for n, (slug, name) in enumerate([("black-tea", "Black tea"), ("green-tea", "Green tea"),
                                                    ("herbal", "Herbal"), ("gift-sets", "Gift sets"),
                                                    ("accessories", "Accessories")])]
    Product.objects.bulk_create([
        Product(slug=f"bench-tea-{n}", title=f"Bench Tea {n}", title_en=f"Bench Tea {n}", title_ar=f"شاي {n}",
                short_description_en="A bright Kenyan tea.", description_en="Kenyan tea. " * 20,
                price_amount=Decimal(rng.randint(60, 900)), category=rng.choice(categories),
                stock=rng.choice([0, 3, 8, 20, 50, 120]), images=["/media/demo/tea.svg"], tags=["bench"],
                search_text=f"bench tea {n}", created_at=now - timedelta(days=rng.uniform(0, 400)))
        for n in range(args.products)
    ], batch_size=500)
    products = list(Product.objects.values_list("pk", "title_en", "slug", "price_amount"))
    User.objects.create_user(username="owner", email="owner@example.com", password="bench-owner-1",
                             is_staff=True, role=Role.OWNER)
    User.objects.bulk_create([
        User(username=f"customer{n}@example.com", email=f"customer{n}@example.com", password="!",
             first_name=f"Customer{n}", last_name="Hassan", phone=f"010{n:08d}",
             date_joined=now - timedelta(days=rng.uniform(0, 400)))
        for n in range(args.customers)
    ], batch_size=500)
    customers = list(User.objects.filter(is_staff=False).values_list("pk", "email", "first_name"))
    mix = [row[:3] for row in ORDER_MIX]
    mix_weights = [row[3] for row in ORDER_MIX]
    places = [name for name, _ar in GOVERNORATES]
    place_weights = [BIG_CITIES.get(name, 1) for name in places]
    span = timedelta(days=396)  # 13 months
    for first in range(0, args.orders, args.batch):
        orders, lines = [], []
        for n in range(first, min(first + args.batch, args.orders)):
            status, method, paid = rng.choices(mix, mix_weights)[0]
            # more orders lately: the shop is growing
            created = now - span * (1 - rng.random() ** 0.7)
            if rng.random() < 0.65:
                user_id, email, name = rng.choice(customers)
            else:
                user_id, email, name = None, f"guest{rng.randrange(args.customers)}@example.com", "Guest"
            basket = [(rng.choice(products), rng.randint(1, 3)) for _ in range(rng.choice([1, 1, 2, 2, 3]))]
            subtotal = sum(price * quantity for (_pk, _t, _s, price), quantity in basket)
            shipping = Decimal("0") if subtotal >= 1000 else Decimal("60")
            fee = Decimal("15") if method == "cod" else Decimal("0")
            state = rng.choices(places, place_weights)[0]
            orders.append(Order(
                number=f"NT-B{n:07d}", user_id=user_id, status=status, payment_status=paid, payment_method=method,
                email=email, first_name=name, last_name="Hassan", phone=f"011{n:08d}", street=f"{n} Nile St",
                city=state, state=state, subtotal_amount=subtotal, shipping_amount=shipping, cod_fee_amount=fee,
                tax_amount=(subtotal * Decimal("0.14") / Decimal("1.14")).quantize(Decimal("0.01")),
                total_amount=subtotal + shipping + fee, created_at=created,
                paid_at=created if paid == "paid" else None, language=rng.choice(["en", "ar"]),
            ))
            lines.append(basket)
        Order.objects.bulk_create(orders, batch_size=500)
        # bulk_create sets the primary keys on PostgreSQL only: read them back by number
        ids = dict(Order.objects.filter(number__in=[o.number for o in orders]).values_list("number", "pk"))
        OrderItem.objects.bulk_create([
            OrderItem(order_id=ids[order.number], product_id=pk, product_title=title, product_slug=slug,
                      unit_price_amount=price, quantity=quantity, line_total_amount=price * quantity)
            for order, basket in zip(orders, lines, strict=True)
            for (pk, title, slug, price), quantity in basket
        ], batch_size=500)
        Payment.objects.bulk_create([
            Payment(order_id=ids[order.number], provider="cod" if order.payment_method == "cod" else "paymob",
                    payment_id=f"PAY-B{order.number[4:]}", amount=order.total_amount, status=order.payment_status,
                    created_at=order.created_at)
            for order in orders
        ], batch_size=500)
    print(f"generated {Order.objects.count():,} orders, {OrderItem.objects.count():,} items, "
          f"{Product.objects.count():,} products, {len(customers):,} customers "
          f"in {time.monotonic() - started:.0f} s", flush=True)


def _touch_an_earlier_month():
    """Before a request: one order placed 40 to 360 days ago changes status (shipped ↔ delivered)."""
    from django.utils import timezone  # noqa: PLC0415

    from orders.models import Order  # noqa: PLC0415

    placed_before = timezone.now() - timedelta(days=random.uniform(40, 360))
    order = Order.objects.filter(created_at__lt=placed_before, status__in=["shipped", "delivered"]).first()
    Order.objects.filter(pk=order.pk).update(status="shipped" if order.status == "delivered" else "delivered")


def _time(client, url, requests, before=None):
    from django.core.cache import cache  # noqa: PLC0415
    from django.db import connection  # noqa: PLC0415

    queries = []

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    cache.clear()
    with connection.execute_wrapper(count):
        start = time.perf_counter()
        response = client.get(url)
        first = (time.perf_counter() - start) * 1000
    assert response.status_code == 200, (url, response.status_code, response.content[:300])
    size = len(response.content)
    for _ in range(2):
        client.get(url)
    times = []
    for _ in range(requests):
        if before:
            before()
        start = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
    times.sort()
    p99 = times[min(len(times) - 1, round(len(times) * 0.99) - 1)]
    return {"first": first, "p50": statistics.median(times), "p99": p99, "queries": len(queries), "bytes": size}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--orders", type=int, default=50_000)
    parser.add_argument("--products", type=int, default=5_000)
    parser.add_argument("--customers", type=int, default=3_000)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--batch", type=int, default=5_000, help="orders written per round")
    parser.add_argument("--only", default="", help="time only the rows whose URL contains this text")
    parser.add_argument("--data-dir", default="", help="keep the shop in this folder (and the PostgreSQL "
                        "database as it is) and generate the data only once: to time a change again")
    parser.add_argument("--database-url", default="", help="PostgreSQL instead of SQLite: that database is "
                        "DROPPED and created again (e.g. postgres://postgres@127.0.0.1:5432/wt_bench)")
    parser.add_argument("--redis-url", default="", help="the shared cache in Redis instead of files: that Redis "
                        "database is EMPTIED (e.g. redis://127.0.0.1:6379/12)")
    args = parser.parse_args()
    data = _setup(args)
    from django.db import connection  # noqa: PLC0415
    from django.test import Client  # noqa: PLC0415

    from accounts.models import User  # noqa: PLC0415
    from backoffice.analytics import sales_cache_reset  # noqa: PLC0415

    try:
        if not User.objects.filter(username="owner").exists():
            _generate(args)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE")  # what autovacuum would have done by the time staff look
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(User.objects.get(username="owner"))
        stack = "PostgreSQL" if connection.vendor == "postgresql" else "SQLite"
        print(f"{stack}, {args.requests} requests per row in this process, "
              f"load average at start {os.getloadavg()[0]:.1f}", flush=True)
        before = {"touch": _touch_an_earlier_month, "clear": sales_cache_reset}
        results = [(label, url, _time(client, url, args.requests, before.get(touch)))
                   for label, url, touch in ROWS if args.only in url]
        print(f"load average at the end {os.getloadavg()[0]:.1f}")
        print("| row | URL | first ms (empty cache) | p50 ms | p99 ms | queries | response bytes | p99 < 200 ms |")
        print("|---|---|---|---|---|---|---|---|")
        for label, url, r in results:
            met = "yes" if r["p99"] < TARGET_MS else "**no**"
            print(f"| {label} | `{url}` | {r['first']:.1f} | {r['p50']:.1f} | {r['p99']:.1f} | {r['queries']} "
                  f"| {r['bytes']:,} | {met} |")
    finally:
        connection.close()
        if not args.data_dir:
            shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
