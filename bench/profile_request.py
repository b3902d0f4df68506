"""Profile one storefront request path inside one process (cProfile around the WSGI handler).

    .venv/bin/python bench/profile_request.py --who "signed in" --url /shop [--requests 2000]
    # a cart write, as the islands send it (session and CSRF cookies, X-CSRFToken, JSON):
    .venv/bin/python bench/profile_request.py --who cart --method POST --url /api/cart/items \
        --body '{"productId": PRODUCT, "quantity": 1}'
    .venv/bin/python bench/profile_request.py --who cart --method PATCH --url /api/cart/items/PRODUCT \
        --body '{"quantity": 2}'
    # instructions per request, counted by valgrind (repeatable to about 0.2 %, whatever the machine's
    # speed today: for telling whether a change to a path made it cheaper); --who bound: the same
    # guest's PATCH served by bench/run.py's bound for cart writes (the write's own work, no framework)
    .venv/bin/python bench/profile_request.py --instructions --requests 200 --who cart --method PATCH \
        --url /api/cart/items/PRODUCT --body '{"quantity": 2}'

Builds the same scratch shop as bench/run.py (SQLite in a temporary data folder,
DEBUG=0, 500 products, a guest with a cart and a signed-in customer with a cart),
then calls Django's WSGI handler directly, as a gunicorn worker would, and prints
the CPU time per request and the functions that take it. `--who`: "no session",
"cart", "signed in", or "bound" (the guest's PATCH only). PRODUCT in --url and --body is the id of the
product in both carts.
"""

import argparse
import cProfile
import functools
import importlib
import io
import json
import os
import pstats
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.core.cache import caches
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import run  # noqa: E402  (bench/run.py: the same scratch shop)


def _environ(url, cookie, method="GET", body=b""):
    path, _, query = url.partition("?")
    environ = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000", "HTTP_HOST": "127.0.0.1", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
        "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr,
        "wsgi.multithread": False, "wsgi.multiprocess": True, "wsgi.run_once": False,
    }
    if cookie:
        environ["HTTP_COOKIE"] = f"sessionid={cookie}"
    if method != "GET":
        # as bench/run.py's write rows: the CSRF secret as cookie and header, a JSON body
        environ["HTTP_COOKIE"] = f"{environ.get('HTTP_COOKIE', '')}; csrftoken={run.CSRF_SECRET}".lstrip("; ")
        environ.update({"HTTP_X_CSRFTOKEN": run.CSRF_SECRET, "CONTENT_TYPE": "application/json",
                        "HTTP_ACCEPT": "application/json",
                        "CONTENT_LENGTH": str(len(body))})
    return environ


def child(args):
    if args.who == "bound":
        namespace = {}
        exec(run.BOUND_APP, namespace)  # noqa: S102  (bench/run.py's own code, as its gunicorn loads it)
        application = namespace["application"]
    else:
        application = importlib.import_module("shop.wsgi").application  # as gunicorn loads it
    cookie = json.loads(os.environ["BENCH_SESSIONS"]).get("cart" if args.who == "bound" else args.who)
    statuses = []

    def start_response(status, headers, exc_info=None):
        statuses.append(status)

    product = os.environ["BENCH_PRODUCT"]
    url = args.url.replace("PRODUCT", product)
    payload = args.body.replace("PRODUCT", product).encode()

    def one(with_cookie=True):
        body = application(_environ(url, cookie if with_cookie else None, args.method, payload), start_response)
        b"".join(body)
        getattr(body, "close", lambda: None)()  # the bound answers a plain list

    if args.instructions:
        # nothing another run stored: a page it left could go stale (page_cache.SECONDS) mid-count
        caches["default"].clear()
    if args.method == "GET":
        one(with_cookie=False)  # stores the page, as a visitor without a session would
    for _ in range(50):
        one()
    if args.trace:
        return _trace(one)
    if args.instructions:
        # valgrind counts only while functools.reduce, a C function nothing else here calls, runs this loop
        functools.reduce(lambda _done, _n: one(), range(args.requests), None)
        print(f"{args.method} {url} ({args.who}): status {statuses[-1]}")
        return
    # --cpu: the profiler's clock is this process's CPU time, so time spent waiting for the
    # database, the cache or a busy machine is left out of the figures
    profile = cProfile.Profile(time.process_time) if args.cpu else cProfile.Profile()
    start = time.process_time()
    profile.enable()
    for _ in range(args.requests):
        one()
    profile.disable()
    cpu = (time.process_time() - start) * 1000 / args.requests
    print(f"{args.method} {url} ({args.who}): status {statuses[-1]}, {cpu:.2f} ms CPU per request under cProfile")
    start = time.process_time()
    for _ in range(args.requests):
        one()
    print(f"without the profiler: {(time.process_time() - start) * 1000 / args.requests:.2f} ms CPU per request")
    stats = pstats.Stats(profile)
    stats.sort_stats(args.sort).print_stats(args.lines)
    if args.callers:
        stats.print_callees(args.callers)
        stats.print_callers(args.callers)


def _trace(one):
    """Print the SQL statements and the cache calls of one request, in order."""
    calls = []

    def sql(execute, statement, params, many, context):
        calls.append(f"SQL   {statement[:160]}")
        return execute(statement, params, many, context)

    backend = caches["default"]
    names = ("get", "get_many", "set", "set_many", "add", "incr", "delete", "delete_many", "touch", "count_hits")
    for name in (name for name in names if hasattr(backend, name)):
        method = getattr(backend, name)

        def traced(*args, _method=method, _name=name, **kwargs):
            calls.append(f"cache {_name} {str(args[0])[:100]}")
            return _method(*args, **kwargs)

        setattr(backend, name, traced)
    with connection.execute_wrapper(sql):
        one()
    print("\n".join(calls))
    statements = sum(call.startswith("SQL") for call in calls)
    print(f"{statements} statements, {len(calls) - statements} cache calls")


def _count_instructions(command, env, requests):
    """Run the child under callgrind, counting only inside its measured loop, and print the count per request."""
    if not shutil.which("valgrind"):
        sys.exit("valgrind is missing: apt-get install valgrind")
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=functools_reduce",
             f"--callgrind-out-file={folder}/callgrind.out", *command],
            cwd=ROOT, env={**env, "PYTHONHASHSEED": "0"}, capture_output=True, text=True,
        )
    print(done.stdout, end="")
    counted = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode or counted is None:
        sys.exit(done.stderr[-3000:])
    print(f"{int(counted.group(1)) / requests:,.0f} instructions per request")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--who", default="signed in", choices=("no session", "cart", "signed in", "bound"))
    parser.add_argument("--url", default="/shop")
    parser.add_argument("--method", default="GET", choices=("GET", "POST", "PATCH", "DELETE"))
    parser.add_argument("--body", default="", help="the JSON body of a write (PRODUCT: the carts' product id)")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--products", type=int, default=500)
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument("--lines", type=int, default=60)
    parser.add_argument("--callers", default="", help="also print who calls the functions matching this")
    parser.add_argument("--database-url", default="", help="PostgreSQL instead of SQLite (dropped and created)")
    parser.add_argument("--redis-url", default="", help="Redis instead of the file cache (that db is emptied)")
    parser.add_argument("--cpu", action="store_true", help="profile CPU time instead of wall time")
    parser.add_argument("--trace", action="store_true", help="print one request's SQL and cache calls instead")
    parser.add_argument("--instructions", action="store_true",
                        help="count the instructions per request under valgrind instead (try --requests 200)")
    parser.add_argument("--data", help="reuse a scratch data folder (kept) instead of a new one")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    data = Path(args.data) if args.data else Path(tempfile.mkdtemp(prefix="bench-profile-"))
    env = {**os.environ, "DATA_DIR": str(data), "DEBUG": "0", "LOG_LEVEL": "WARNING",
           "DJANGO_SETTINGS_MODULE": "shop.settings", "SHOP_ROOT": str(ROOT)}  # SHOP_ROOT: for --who bound
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    sessions_file = data / "bench-sessions.json"
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    if args.redis_url:
        env["REDIS_URL"] = args.redis_url
    try:
        if not sessions_file.exists():
            if args.database_url:
                run._recreate_postgres(args.database_url)
            if args.redis_url:
                run.redis.Redis.from_url(args.redis_url).flushdb()
            subprocess.run([run.PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
            subprocess.run([run.PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env,
                           check=True)
            sessions, product_id, _guests = run._seed(env, args.products)
            sessions_file.write_text(json.dumps({"sessions": sessions, "product": product_id}))
        seeded = json.loads(sessions_file.read_text())
        env["BENCH_SESSIONS"] = json.dumps(seeded["sessions"])
        env["BENCH_PRODUCT"] = str(seeded["product"])
        # one address sends every write: the per-address limits do not apply (the counting still runs)
        env["RATE_LIMIT_CART"] = "100000000/minute"
        command = [run.PYTHON, __file__, "--child", *sys.argv[1:]]
        if args.instructions:
            _count_instructions(command, env, args.requests)
        else:
            subprocess.run(command, cwd=ROOT, env=env, check=True)
    finally:
        if not args.data:
            shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
