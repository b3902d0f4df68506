"""Place cash-on-delivery orders for a minute against the Procfile's gunicorn: zero errors is the target.

    .venv/bin/python bench/checkout_minute.py [--clients 8] [--seconds 60]
    # PostgreSQL + Redis (that database is dropped and created, that Redis db emptied):
    .venv/bin/python bench/checkout_minute.py --database-url postgres://postgres@127.0.0.1:5432/wt_bench2 \
        --redis-url redis://127.0.0.1:6379/12

A scratch shop (seed_demo plus `--products` teas with plenty of stock) is served by
gunicorn as bench/run.py serves it, with the per-address rate limits raised (every
request comes from one address) and the session cookie allowed over plain http.
`--clients` threads, each a shopper with its own requests.Session, loop for
`--seconds`: add one to three of a random tea to the cart (POST /api/cart/items),
then place the order as the checkout island does (POST /api/payment/create-intention,
paymentMethod "cod"), both with the CSRF cookie and X-CSRFToken header.

Prints orders/s, p50/p99 of the checkout and of the cart add, and every error (any
answer but 200/201, or no answer within 30 s). Afterwards it checks the database:
one order per successful checkout, and every tea's stock down by exactly the
quantities ordered (no lost or double orders).
"""

import argparse
import collections
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests
from run import _gunicorn, scratch_stack

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
CSRF_SECRET = "benchBENCHbench0123456789benchAB"
STOCK = 1_000_000
CHECKOUT = {
    "paymentMethod": "cod",
    "customer": {"firstName": "Mona", "lastName": "Ali", "email": "mona@example.com", "phone": "01012345678"},
    "billingAddress": {"street": "12 Nile St", "city": "Nasr City", "state": "Cairo", "country": "EGY"},
}


def _shell(env, script):
    out = subprocess.run([PYTHON, "manage.py", "shell", "-c", script], cwd=ROOT, env=env, check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def _seed(env, count):
    """seed_demo, then `count` teas with plenty of stock; answers {product id: stock}."""
    return _shell(env, f"""
import json
from decimal import Decimal
from django.core.management import call_command
from catalog.models import Category
from catalog.services import product_upsert
from shop.store_settings import store_settings_update
call_command("seed_demo", verbosity=0)
category = Category.objects.filter(is_assignable=True).first()
ids = [product_upsert(slug=f"bench-tea-{{n}}", title_en=f"Bench Tea {{n}}", title_ar=f"شاي تجريبي {{n}}",
                      price_amount=Decimal(100 + 10 * n), category=category, stock={STOCK},
                      images=["/media/demo/kericho-gold-pure-kenya-tea-100-bags.svg"]).pk for n in range({count})]
# no shopper here is limited by the per-order caps or a COD ceiling
store_settings_update(cod_enabled=True, cod_max_total=None)
from catalog.models import Product
print(json.dumps({{p.pk: p.stock for p in Product.objects.filter(pk__in=ids)}}))
""")


def _after(env, ids):
    return _shell(env, f"""
import json
from django.db.models import Sum
from catalog.models import Product
from orders.models import Order, OrderItem
ids = {ids!r}
print(json.dumps({{
    "stock": {{p.pk: p.stock for p in Product.objects.filter(pk__in=ids)}},
    "ordered": dict(OrderItem.objects.filter(product_id__in=ids).values_list("product_id")
                    .annotate(n=Sum("quantity")).order_by()),
    "orders": Order.objects.filter(items__product_id__in=ids).distinct().count(),
    "cod_orders": Order.objects.filter(payment_method="cod", payment_status="cod").count(),
}}))
""")


class Shopper(threading.Thread):
    def __init__(self, base, ids, until, seed):
        super().__init__(daemon=True)
        self.base, self.ids, self.until = base, ids, until
        self.rng = random.Random(seed)
        self.adds, self.checkouts, self.errors = [], [], []
        self.ordered = collections.Counter()
        self.placed = 0

    def _post(self, session, path, body, timings):
        start = time.perf_counter()
        try:
            response = session.post(self.base + path, json=body, timeout=30,
                                    headers={"X-CSRFToken": CSRF_SECRET, "Referer": self.base + "/checkout"})
        except requests.RequestException as exc:
            self.errors.append(f"{path}: {type(exc).__name__}: {exc}"[:300])
            return None
        timings.append((time.perf_counter() - start) * 1000)
        if response.status_code not in (200, 201):
            self.errors.append(f"{path}: {response.status_code} {response.text[:200]}")
            return None
        return response

    def run(self):
        session = requests.Session()
        session.cookies.set("csrftoken", CSRF_SECRET, domain="127.0.0.1", path="/")
        while time.monotonic() < self.until:
            product, quantity = self.rng.choice(self.ids), self.rng.randint(1, 3)
            if not self._post(session, "/api/cart/items", {"productId": product, "quantity": quantity}, self.adds):
                continue
            if self._post(session, "/api/payment/create-intention", CHECKOUT, self.checkouts):
                self.placed += 1
                self.ordered[product] += quantity


def _pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(len(values) * p) - 1))] if values else float("nan")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--products", type=int, default=20)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--database-url", default="", help="a PostgreSQL URL instead of SQLite: its database is "
                        "DROPPED and created again (e.g. postgres://postgres@127.0.0.1:5432/wt_bench2)")
    parser.add_argument("--redis-url", default="", help="Redis instead of the file cache: that Redis database is "
                        "emptied (e.g. redis://127.0.0.1:6379/12)")
    args = parser.parse_args()

    data = Path(tempfile.mkdtemp(prefix="bench-checkout-"))
    env = {**os.environ, "DATA_DIR": str(data), "DEBUG": "0", "LOG_LEVEL": "WARNING",
           # one address sends every request: the per-address limits of real shoppers do not apply
           "RATE_LIMIT_CART": "100000000/minute", "RATE_LIMIT_CHECKOUT": "100000000/minute",
           # the shoppers talk plain http to 127.0.0.1: their session cookie must come back
           "SESSION_COOKIE_SECURE": "0"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    stack = scratch_stack(env, database_url=args.database_url, redis_url=args.redis_url)
    stock_before = {int(pk): stock for pk, stock in _seed(env, args.products).items()}
    ids = sorted(stock_before)

    server, base = _gunicorn("shop.wsgi", ROOT, env, args)
    try:
        load = os.getloadavg()[0]
        print(f"{args.clients} shoppers for {args.seconds} s, gunicorn {args.workers} workers x {args.threads} "
              f"threads, {stack}; load average at start {load:.1f}", flush=True)
        started = time.monotonic()
        shoppers = [Shopper(base, ids, started + args.seconds, seed) for seed in range(args.clients)]
        for shopper in shoppers:
            shopper.start()
        for shopper in shoppers:
            shopper.join()
        elapsed = time.monotonic() - started
        print(f"load average at the end {os.getloadavg()[0]:.1f}")
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()

    placed = sum(s.placed for s in shoppers)
    ordered = sum((s.ordered for s in shoppers), collections.Counter())
    checkouts = [t for s in shoppers for t in s.checkouts]
    adds = [t for s in shoppers for t in s.adds]
    errors = [e for s in shoppers for e in s.errors]
    after = _after(env, ids)
    shutil.rmtree(data, ignore_errors=True)

    stock_after = {int(pk): stock for pk, stock in after["stock"].items()}
    in_database = {int(pk): n for pk, n in after["ordered"].items()}
    drift = {pk: (stock_before[pk] - stock_after[pk], ordered[pk], in_database.get(pk, 0)) for pk in ids
             if not stock_before[pk] - stock_after[pk] == ordered[pk] == in_database.get(pk, 0)}
    print("| stack | shoppers | orders | orders/s | checkout p50 ms | checkout p99 ms | cart add p50 ms "
          "| cart add p99 ms | errors | stock = quantities ordered |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {stack}, {args.workers} workers | {args.clients} | {placed} | {placed / elapsed:.1f} "
          f"| {statistics.median(checkouts) if checkouts else float('nan'):.0f} | {_pct(checkouts, 0.99):.0f} "
          f"| {statistics.median(adds) if adds else float('nan'):.0f} | {_pct(adds, 0.99):.0f} | {len(errors)} "
          f"| {'yes' if not drift and after['orders'] == placed else 'NO'} |")
    print(f"orders in the database: {after['orders']} (answered 201: {placed}); "
          f"units: {sum(ordered.values())} ordered, {sum(in_database.values())} in order items, "
          f"{sum(stock_before[pk] - stock_after[pk] for pk in ids)} taken from stock")
    if drift:
        print("stock drift (taken, ordered, in order items):", drift)
    for error, count in collections.Counter(errors).most_common(10):
        print(f"  {count} × {error}")
    sys.exit(1 if errors or drift or after["orders"] != placed else 0)


if __name__ == "__main__":
    main()
