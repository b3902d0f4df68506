"""Where a cart write's cost lies: the 32 guests' PATCH served five ways, beside the floor, in one run.

    .venv/bin/python bench/write_variants.py [--workers 3] [--rounds 2]
    .venv/bin/python bench/write_variants.py --workers 2 \
        --database-url postgres://postgres@127.0.0.1:5432/wt_bench --redis-url redis://127.0.0.1:6379/12

From the least work to the most (each a gunicorn of its own, as run.py starts them):
- minimal: a bare WSGI callable that reads the session and runs one UPDATE of the line, answering a
  fixed `{"ok": true}`: the least that any cart write, in any framework, could do on this stack;
- bound without its Redis writes: run.py's bound with no rate-limit count and no deletion of the cart's
  token (both unsafe, measured only);
- bound: run.py's bound, the write's own work (session, rate limit, the write, the cart's answer) as
  bare WSGI;
- the shop's view behind the least middleware: `orders.api.CartItemApi` (DRF) under Django with only the
  request scope, sessions, CSRF and authentication middleware and a one-route URL conf;
- the shop: the shop as the Procfile serves it.

Issue 14 asks cart writes for 25 % of the floor; the rows say how much of the gap the write itself, the
framework (Django and DRF) and the shop's own middleware take.
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run  # noqa: E402  (bench/run.py: the scratch shop, the floor, gunicorn and wrk)

MINIMAL_APP = """
import os, sys
sys.path.insert(0, os.environ["SHOP_ROOT"])
import django
django.setup()
from http.cookies import SimpleCookie
from importlib import import_module
from django.conf import settings
from django.db import connection
Session = import_module(settings.SESSION_ENGINE).SessionStore
def application(environ, start_response):
    if "HTTP_COOKIE" not in environ:  # run.py's check that the server is up
        start_response("404 Not Found", [("Content-Length", "0")])
        return [b""]
    key = SimpleCookie(environ["HTTP_COOKIE"])["sessionid"].value
    Session(key).load()
    environ["wsgi.input"].read(int(environ["CONTENT_LENGTH"]))
    with connection.cursor() as cursor:
        cursor.execute("UPDATE orders_cartline SET quantity = 2 WHERE product_id = %s AND cart_id = "
                       "(SELECT id FROM orders_cart WHERE user_id IS NULL AND session_key = %s)",
                       [environ["PATH_INFO"].rsplit("/", 1)[1], key])
        assert cursor.rowcount == 1
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", "12")])
    return [b'{"ok": true}']
"""


def _edited(app, edits):
    """`app` with each (old, new) text replaced; an `old` it no longer holds is an error, not a silent no-op
    (the variant would measure the bound itself)."""
    for old, new in edits:
        if old not in app:
            raise SystemExit(f"run.BOUND_APP no longer holds {old!r}: update write_variants.py")
        app = app.replace(old, new)
    return app


BOUND_WITHOUT_REDIS_WRITES_APP = _edited(run.BOUND_APP, [
    ("from orders.cart import CartOwner, cart_line_update",
     "import orders.cart\norders.cart.cart_changed = lambda cart: None\n"
     "from orders.cart import CartOwner, cart_line_update"),
    ("    count_hits([", "    0 and count_hits(["),
])

LEAST_MIDDLEWARE_SETTINGS = """
from shop.settings import *
MIDDLEWARE = ["shop.request_scope.RequestScopeMiddleware", "django.contrib.sessions.middleware.SessionMiddleware",
              "django.middleware.csrf.CsrfViewMiddleware", "shop.middleware.UserAuthenticationMiddleware"]
ROOT_URLCONF = "least_middleware_urls"
"""
LEAST_MIDDLEWARE_URLS = """
import shop.converters
from django.urls import path
from orders.api import CartItemApi
urlpatterns = [path("api/cart/items/<id:product_id>", CartItemApi.as_view())]
"""
LEAST_MIDDLEWARE_APP = """
import os, sys
sys.path.insert(0, os.environ["SHOP_ROOT"])
os.environ["DJANGO_SETTINGS_MODULE"] = "least_middleware_settings"
from django.core.wsgi import get_wsgi_application
application = get_wsgi_application()
"""

# label: the WSGI module in the temporary folder (None: the shop itself)
VARIANTS = {
    "minimal: session read and one UPDATE, bare WSGI": ("minimal", MINIMAL_APP),
    "bound without its Redis writes (unsafe)": ("bound_without_redis_writes", BOUND_WITHOUT_REDIS_WRITES_APP),
    "bound: the write's own work, bare WSGI": ("bound", run.BOUND_APP),
    "the shop's DRF view behind the least middleware": ("least_middleware", LEAST_MIDDLEWARE_APP),
    "the shop": (None, None),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--database-url", default="", help="PostgreSQL (that database is DROPPED and created)")
    parser.add_argument("--redis-url", default="", help="Redis instead of the file cache (that db is emptied)")
    args = parser.parse_args()
    args.connections, args.threads = 32, 1
    data = Path(tempfile.mkdtemp(prefix="bench-variants-"))
    env = {**os.environ, "DATA_DIR": str(data), "DEBUG": "0", "LOG_LEVEL": "WARNING",
           "RATE_LIMIT_CART": "100000000/minute"}  # one address sends every request, as in run.py
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    stack = run.scratch_stack(env, database_url=args.database_url, redis_url=args.redis_url)
    _sessions, product_id, guests = run._seed(env, 500)
    shop, shop_base = run._gunicorn("shop.wsgi", run.ROOT, env, args)
    try:
        page = urllib.request.urlopen(shop_base + "/shop", timeout=10).read()
    finally:
        run._stop(shop)
    folder = run._floor_project(page)
    for module, app in VARIANTS.values():
        if module:
            (folder / f"{module}.py").write_text(app)
    (folder / "least_middleware_settings.py").write_text(LEAST_MIDDLEWARE_SETTINGS)
    (folder / "least_middleware_urls.py").write_text(LEAST_MIDDLEWARE_URLS)
    variant_env = {**env, "SHOP_ROOT": str(run.ROOT), "DJANGO_SETTINGS_MODULE": "shop.settings",
                   "PYTHONPATH": str(folder)}
    floor_env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    floor, floor_base = run._gunicorn("floor", folder, floor_env, args)
    write = ([f"X-CSRFToken: {run.CSRF_SECRET}"], json.dumps({"quantity": 2}),
             tuple(f"sessionid={key}; csrftoken={run.CSRF_SECRET}" for key in guests))
    print(f"{stack}, gunicorn {args.workers} workers, {args.seconds}s per row; "
          f"load average at start {os.getloadavg()[0]:.1f}")
    print("| round | row | req/s | CPU ms/req | errors | req/s ÷ floor |\n|---|---|---|---|---|---|")
    try:
        for round_ in range(1, args.rounds + 1):
            floor_row = run._measure(floor_base, "/", args, server=floor)
            print(f"| {round_} | bare Django floor | {floor_row['rps']:.0f} | {floor_row['cpu']:.2f} "
                  f"| {floor_row['errors']} | |")
            for label, (module, _app) in VARIANTS.items():
                server, base = (run._gunicorn(module, folder, variant_env, args) if module
                                else run._gunicorn("shop.wsgi", run.ROOT, env, args))
                try:
                    row = run._measure(base, f"/api/cart/items/{product_id}", args, write[0], server, "PATCH",
                                       write[1], write[2])
                finally:
                    run._stop(server)
                print(f"| {round_} | {label} | {row['rps']:.0f} | {row['cpu']:.2f} | {row['errors']} "
                      f"| {row['rps'] / floor_row['rps']:.0%} |")
    finally:
        run._stop(floor)
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
