"""Load-test the storefront: seed 500 products into a scratch shop (SQLite, or PostgreSQL + Redis),
serve it with gunicorn and measure its pages and cart API with wrk.

    .venv/bin/python bench/run.py [--connections 32] [--seconds 10]
    # PostgreSQL + Redis, 2 web processes (that database is dropped and created, that Redis db emptied):
    .venv/bin/python bench/run.py --workers 2 --database-url postgres://postgres@127.0.0.1:5432/wt_bench \
        --redis-url redis://127.0.0.1:6379/12

Rows: the storefront pages in EN and AR for a visitor without a session, a guest
with a cart and a signed-in customer with a cart; for both carts GET /api/cart
and the islands' writes (POST /api/cart/items, PATCH /api/cart/items/<id>, with
the session cookie, a CSRF cookie and the X-CSRFToken header), and the same
PATCH from 32 guests in turn, each to a cart of their own (the other write rows
all write to one cart, whose writes take turns by design). The per-address
rate limits are raised for the run (all requests come from one address), and the
store's per-product and per-order caps, so that repeated adds stop at the stock
on hand (a 200 with a notice) instead of being refused. Last, the bound for cart
writes: the 32 guests' PATCH doing only the write's own work, served as a bare WSGI
callable by the same gunicorn (BOUND_APP): no cart write row can go faster.

Needs `wrk` (apt-get install -y wrk) and a built front end (npm run build).

Every row is also given as a ratio to the *floor*, measured in the same run by
this script: a bare Django project in a temporary folder (no middleware, no
database, one view returning a page of the shop's size from memory) served by
gunicorn with the same settings as the shop. Machines drift from run to run;
the ratios do much less. The floor is measured before and after the rows and
the mean is used.
Prints requests/s, p50 and p99 per URL; copy the table into bench/RESULTS.md.
"""

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import psycopg
import redis

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


BOUND_LABEL = "bound: the 32 guests' PATCH, the write's own work as bare WSGI (cart)"

# the guests of the row whose writes go to many carts, one cart each (the other write rows all write
# to one cart, whose writes take turns by design)
GUESTS = 32


def _seed(env, count):
    script = f"""
import random
from decimal import Decimal
from django.core.management import call_command
from catalog.models import Category, Product
from catalog.services import product_upsert
call_command("seed_demo", verbosity=0)
categories = list(Category.objects.filter(is_assignable=True))
random.seed(7)
for n in range(Product.objects.count(), {count}):
    price = Decimal(random.randint(60, 900))
    product_upsert(
        slug=f"bench-tea-{{n}}", title_en=f"Bench Tea {{n}}", title_ar=f"شاي تجريبي {{n}}",
        short_description_en="A bright Kenyan tea for the benchmark.", description_en="Kenyan tea. " * 20,
        price_amount=price, sale_price_amount=price - 20 if n % 5 == 0 else None,
        category=random.choice(categories), stock=random.randint(0, 80), tags=["bench", f"t{{n % 7}}"],
        rating=Decimal(random.randint(0, 50)) / 10, review_count=random.randint(0, 40),
        images=["/media/demo/kericho-gold-pure-kenya-tea-100-bags.svg"],
    )
print(Product.objects.count(), "products")
# two visitors with a session: a guest with a cart, a signed-in customer with a cart
from django.contrib.auth import get_user_model
from django.test import Client
from shop.store_settings import store_settings_update
# repeated adds (the POST row) then stop at the stock on hand instead of being refused at the caps
store_settings_update(max_quantity_per_line=999, max_quantity_per_order=9999)
tea = Product.objects.get(slug="kericho-gold-pure-kenya-tea-100-bags")
guest = Client(HTTP_HOST="127.0.0.1")
guest.post("/api/cart/items", {{"productId": tea.pk, "quantity": 2}}, content_type="application/json")
customer = get_user_model().objects.create_user(
    username="bench@example.com", email="bench@example.com", password="bench-password-1", first_name="Bench")
member = Client(HTTP_HOST="127.0.0.1")
# the backend a real sign-in records in the session (authenticate() names the one that said yes)
member.force_login(customer, backend="accounts.backends.EmailOrUsernameBackend")
member.post("/api/cart/items", {{"productId": tea.pk, "quantity": 1}}, content_type="application/json")
# and GUESTS guests with a cart each, for the row whose writes go to many carts
guests = []
for _ in range({GUESTS}):
    each = Client(HTTP_HOST="127.0.0.1")
    each.post("/api/cart/items", {{"productId": tea.pk, "quantity": 1}}, content_type="application/json")
    guests.append(each.cookies["sessionid"].value)
print("GUESTS", *guests)
print("SESSIONS", guest.cookies["sessionid"].value, member.cookies["sessionid"].value, tea.pk)
"""
    out = subprocess.run([PYTHON, "manage.py", "shell", "-c", script], cwd=ROOT, env=env, check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    lines = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.strip()}
    print(next(line for line in out.splitlines() if line.endswith(" products")))
    guest, member, product_id = lines["SESSIONS"]
    return {"cart": guest, "signed in": member}, int(product_id), lines["GUESTS"]


def _cpu_seconds(master_pid):
    """User+system CPU of the gunicorn workers: a figure that other load on the machine barely changes."""
    children = Path(f"/proc/{master_pid}/task/{master_pid}/children").read_text().split()
    ticks = 0
    for pid in children:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


FLOOR_APP = """
import os
from django.conf import settings
settings.configure(
    DEBUG=False, SECRET_KEY="floor", ALLOWED_HOSTS=["*"], ROOT_URLCONF=__name__, MIDDLEWARE=[],
    INSTALLED_APPS=[], DATABASES={}, USE_I18N=False,
)
from django.core.wsgi import get_wsgi_application
from django.http import HttpResponse
from django.urls import path
with open(os.path.join(os.path.dirname(__file__), "page.html"), encoding="utf-8") as f:
    PAGE = f.read()
def page(request):
    return HttpResponse(PAGE)
urlpatterns = [path("", page)]
application = get_wsgi_application()
"""


# The bound for cart writes: the guests' PATCH (each to a cart of their own) doing only the write's
# own work (the session read, the rate-limit count, the write, the answer and its JSON), as a bare WSGI
# callable in the shop's settings: no Django request handling, middleware, URL resolving or DRF. No
# cart write the shop serves can cost less, so its ratio to the floor is the most any cart write row
# could reach on this stack.
BOUND_APP = """
import json, os, sys
sys.path.insert(0, os.environ["SHOP_ROOT"])
import django
django.setup()
from http.cookies import SimpleCookie
from importlib import import_module
from django.conf import settings
from django.utils import translation
from orders.cart import CartOwner, cart_line_update
from orders.serializers import cart_output
from orders.summary import cart_summary
from shop.api.money import CamelCaseJSONRenderer
from shop.ratelimit import count_hits
from shop.request_scope import RequestScopeMiddleware
from shop.store_settings import store_settings_get
Session = import_module(settings.SESSION_ENGINE).SessionStore
renderer = CamelCaseJSONRenderer()
translation.activate("en")
def write(environ):
    key = SimpleCookie(environ["HTTP_COOKIE"])["sessionid"].value
    session = Session(key)  # named for the request's first shared read, as the shop's middleware does,
    store_settings_get()  # and that read, which finds the settings, catalogue version and session at once
    session.load()
    count_hits([f"ratelimit:cart:address:{environ['REMOTE_ADDR']}", f"ratelimit:cart:session:{key}"], 60)
    quantity = json.loads(environ["wsgi.input"].read(int(environ["CONTENT_LENGTH"])))["quantity"]
    change = cart_line_update(owner=CartOwner(None, key), product_id=environ["PATH_INFO"].rsplit("/", 1)[1],
                              quantity=quantity)
    return renderer.render(cart_output(cart_summary(None, governorate="", lines=change.lines)))
scoped = RequestScopeMiddleware(write)  # the request's one read of the shared settings, as in the shop
def application(environ, start_response):
    if "HTTP_COOKIE" not in environ:  # run.py's check that the server is up
        start_response("404 Not Found", [("Content-Length", "0")])
        return [b""]
    body = scoped(environ)
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]
"""


def _floor_project(page_bytes):
    """A minimal Django project in a temporary folder: one view, the page from memory."""
    folder = Path(tempfile.mkdtemp(prefix="bench-floor-"))
    (folder / "floor.py").write_text(FLOOR_APP)
    (folder / "page.html").write_bytes(page_bytes)
    (folder / "bound.py").write_text(BOUND_APP)
    return folder


def _gunicorn(app, cwd, env, args):
    """The Procfile's gunicorn."""
    port = _free_port()
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), app, "--bind", f"127.0.0.1:{port}",
         "--workers", str(args.workers), "--threads", str(args.threads), "--timeout", "60",
         "--log-level", "warning"],
        cwd=cwd, env=env,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(base + "/", timeout=2)
            break
        except urllib.error.HTTPError:
            break
        except OSError:
            time.sleep(0.2)
    return server, base


def _stop(*servers):
    """Stop these gunicorns (None: never started), killing one that a loaded machine keeps alive."""
    running = [proc for proc in servers if proc is not None]
    for proc in running:
        proc.terminate()
    for proc in running:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:  # a loaded machine: do not leave it behind
            proc.kill()
            proc.wait()


def _wrk(url, connections, seconds, headers=(), method="GET", body=None, cookies=()):
    """wrk's figures; `cookies`: a Cookie header for each request in turn (many visitors)."""
    extra = [arg for header in headers for arg in ("-H", header)]
    script = None
    if method != "GET" or cookies:
        # wrk sends another method, a body and a header per request only from a Lua script
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
            lua.write(f"wrk.method = {json.dumps(method)}\nwrk.body = {json.dumps(body or '')}\n"
                      'wrk.headers["Content-Type"] = "application/json"\n')
            if method != "GET":  # as the islands' api() sends its writes
                lua.write('wrk.headers["Accept"] = "application/json"\n')
            if cookies:
                lua.write(f"local cookies = {{{', '.join(json.dumps(c) for c in cookies)}}}\nlocal n = 0\n"
                          "request = function()\n  n = n + 1\n"
                          '  wrk.headers["Cookie"] = cookies[n % #cookies + 1]\n  return wrk.format()\nend\n')
        script = lua.name
        extra += ["-s", script]
    try:
        out = subprocess.run(
            ["wrk", f"-t{min(2, connections)}", f"-c{connections}", f"-d{seconds}s", "--latency", *extra, url],
            capture_output=True, text=True, check=True,
        ).stdout
    finally:
        if script:
            os.unlink(script)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))

    def pct(label):
        value, unit = re.search(rf"{label}%\s+([\d.]+)(us|ms|s)", out).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    timeouts = re.search(r"timeout (\d+)", out)
    total = int(re.search(r"(\d+) requests in", out).group(1))
    failed = (int(errors.group(1)) if errors else 0) + (int(timeouts.group(1)) if timeouts else 0)
    return rps, pct("50"), pct("99"), failed, total


def _measure(base, url, args, headers=(), server=None, method="GET", body=None, cookies=()):
    warm = [*headers, f"Cookie: {cookies[0]}"] if cookies else headers
    for _ in range(20):
        request = urllib.request.Request(base + url, headers={"Content-Type": "application/json", **dict(
            h.split(": ", 1) for h in warm)}, method=method, data=body.encode() if body else None)
        urllib.request.urlopen(request, timeout=5).read()
    before = _cpu_seconds(server.pid)
    rps, p50, p99, errors, total = _wrk(base + url, args.connections, args.seconds, headers, method, body,
                                        cookies)
    cpu_ms = (_cpu_seconds(server.pid) - before) * 1000 / max(total, 1)
    return {"rps": rps, "p50": p50, "p99": p99, "errors": errors, "cpu": cpu_ms}


# the CSRF secret both carts send, as cookie and header (Django accepts the unmasked secret)
CSRF_SECRET = "benchBENCHbench0123456789benchAB"


def _rows(args, slug, sessions, product_id, guests):
    """(label, URL, headers, method, body, cookies) for every row (cookies: one per request in turn)."""
    pages = [("home", "/"), ("shop", "/shop"), ("filtered shop", "/shop?category=black-tea&sort=price-asc"),
             ("product", f"/product/{slug}")]
    rows = []
    for language, prefix in (("EN", ""), ("AR", "/ar")):
        for name, url in pages:
            path = prefix + url if url != "/" else (prefix + "/" if prefix else "/")
            rows.append((f"{name} {language}, no session", path, [], "GET", None, ()))
    for who, key in sessions.items():
        for language, prefix in (("EN", ""), ("AR", "/ar")):
            for name, url in pages:
                path = prefix + url if url != "/" else (prefix + "/" if prefix else "/")
                rows.append((f"{name} {language}, {who}", path, [f"Cookie: sessionid={key}"], "GET", None, ()))
        rows.append((f"GET /api/cart, {who}", "/api/cart", [f"Cookie: sessionid={key}"], "GET", None, ()))
        # cart writes, as the islands send them: session cookie, CSRF cookie and header, JSON
        write = [f"Cookie: sessionid={key}; csrftoken={CSRF_SECRET}", f"X-CSRFToken: {CSRF_SECRET}"]
        rows.append((f"POST /api/cart/items, {who}", "/api/cart/items", write, "POST",
                     json.dumps({"productId": product_id, "quantity": 1}), ()))
        rows.append((f"PATCH /api/cart/items/…, {who}", f"/api/cart/items/{product_id}", write, "PATCH",
                     json.dumps({"quantity": 2}), ()))
    # the same PATCH from GUESTS guests in turn, each to their own cart: writes that need not take turns
    rows.append((f"PATCH /api/cart/items/…, {len(guests)} guests", f"/api/cart/items/{product_id}",
                 [f"X-CSRFToken: {CSRF_SECRET}"], "PATCH", json.dumps({"quantity": 2}),
                 tuple(f"sessionid={key}; csrftoken={CSRF_SECRET}" for key in guests)))
    return rows


def _recreate_postgres(url):
    """Drop and create the database `url` names (connected to the server's `postgres` database)."""
    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/")
    if not re.fullmatch(r"\w+", name) or name in ("postgres", "test", "template0", "template1"):
        sys.exit(f"refusing to recreate database {name!r}")
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')



def scratch_stack(env, *, database_url=None, redis_url=None):
    """Point `env` at a fresh scratch database (and emptied Redis db), migrate, collect static files;
    return the stack's name for the report."""
    if database_url:
        _recreate_postgres(database_url)
        env["DATABASE_URL"] = database_url
    if redis_url:
        redis.Redis.from_url(redis_url).flushdb()
        env["REDIS_URL"] = redis_url
    subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    return ("PostgreSQL" if database_url else "SQLite") + (" + Redis" if redis_url else "")

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--products", type=int, default=500)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--only", default="", help="run only the rows whose label contains this text")
    parser.add_argument("--database-url", default="", help="a PostgreSQL URL instead of SQLite: its database is "
                        "DROPPED and created again (e.g. postgres://postgres@127.0.0.1:5432/wt_bench)")
    parser.add_argument("--redis-url", default="", help="Redis instead of the file cache: that Redis database is "
                        "emptied (e.g. redis://127.0.0.1:6379/12)")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install -y wrk")

    data = Path(tempfile.mkdtemp(prefix="bench-"))
    env = {**os.environ, "DATA_DIR": str(data), "DEBUG": "0", "LOG_LEVEL": "WARNING"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    # one address sends every request here: the per-address limits of real shoppers do not apply
    # (the counting itself still runs on every write)
    env.update({"RATE_LIMIT_CART": "100000000/minute", "RATE_LIMIT_CHECKOUT": "100000000/minute"})
    stack = scratch_stack(env, database_url=args.database_url, redis_url=args.redis_url)
    sessions, product_id, guests = _seed(env, args.products)

    server, base = _gunicorn("shop.wsgi", ROOT, env, args)
    slug = "kericho-gold-pure-kenya-tea-100-bags"
    floor_dir = floor = None
    try:
        page = urllib.request.urlopen(base + "/shop", timeout=10).read()
        floor_dir = _floor_project(page)
        floor_env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
        floor, floor_base = _gunicorn("floor", floor_dir, floor_env, args)
        load = os.getloadavg()[0]
        print(f"{args.products} products, {args.connections} connections, {args.seconds}s per row, "
              f"gunicorn {args.workers} workers x {args.threads} threads, {stack}; "
              f"floor page {len(page):,} bytes; load average at start {load:.1f}")
        floors = [_measure(floor_base, "/", args, server=floor)]
        results = []
        for label, url, headers, method, body, cookies in _rows(args, slug, sessions, product_id, guests):
            if args.only and args.only not in label:
                continue
            if method == "GET":
                urllib.request.urlopen(base + url, timeout=10).read()  # stored by a visitor without a session
            results.append((label, f"{method} {url}" if method != "GET" else url,
                            _measure(base, url, args, headers, server, method, body, cookies)))
        if not args.only or args.only in BOUND_LABEL:
            bound, bound_base = _gunicorn("bound", floor_dir, {**env, "SHOP_ROOT": str(ROOT),
                                                               "DJANGO_SETTINGS_MODULE": "shop.settings"}, args)
            try:
                results.append((BOUND_LABEL, f"PATCH /api/cart/items/{product_id}", _measure(
                    bound_base, f"/api/cart/items/{product_id}", args, [], bound, "PATCH",
                    json.dumps({"quantity": 2}), tuple(f"sessionid={key}" for key in guests))))
            finally:
                _stop(bound)
        floors.append(_measure(floor_base, "/", args, server=floor))
        print(f"load average at the end {os.getloadavg()[0]:.1f}")
        ref = {key: sum(f[key] for f in floors) / len(floors) for key in ("rps", "p50", "p99", "cpu")}
        print("| row | URL | req/s | p50 ms | p99 ms | errors | CPU ms/req "
              "| req/s ÷ floor | p99 ÷ floor | floor CPU ÷ CPU |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for n, f in enumerate(floors):
            print(f"| bare Django floor ({'before' if n == 0 else 'after'}) | `/` | {f['rps']:.0f} | {f['p50']:.1f} "
                  f"| {f['p99']:.1f} | {f['errors']} | {f['cpu']:.2f} | | | |")
        for label, url, r in results:
            print(f"| {label} | `{url}` | {r['rps']:.0f} | {r['p50']:.1f} | {r['p99']:.1f} | {r['errors']} "
                  f"| {r['cpu']:.2f} | {r['rps'] / ref['rps']:.0%} | {r['p99'] / ref['p99']:.1f}× "
                  f"| {ref['cpu'] / max(r['cpu'], 1e-9):.0%} |")
    finally:
        _stop(server, floor)
        shutil.rmtree(data, ignore_errors=True)
        if floor_dir:
            shutil.rmtree(floor_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
