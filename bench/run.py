"""Load-test the storefront: seed 500 products into a scratch SQLite shop, serve it
with gunicorn and measure /shop, a filtered /shop and a product page with wrk.

    .venv/bin/python bench/run.py [--connections 32] [--seconds 10]

Needs `wrk` (apt-get install -y wrk) and a built front end (npm run build).
Prints requests/s, p50 and p99 per URL; copy the table into bench/RESULTS.md.
"""

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
"""
    subprocess.run([PYTHON, "manage.py", "shell", "-c", script], cwd=ROOT, env=env, check=True)


def _cpu_seconds(master_pid):
    """User+system CPU of the gunicorn workers: a figure that other load on the machine barely changes."""
    children = Path(f"/proc/{master_pid}/task/{master_pid}/children").read_text().split()
    ticks = 0
    for pid in children:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _wrk(url, connections, seconds, headers=()):
    extra = [arg for header in headers for arg in ("-H", header)]
    out = subprocess.run(
        ["wrk", f"-t{min(2, connections)}", f"-c{connections}", f"-d{seconds}s", "--latency", *extra, url],
        capture_output=True, text=True, check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))

    def pct(label):
        value, unit = re.search(rf"{label}%\s+([\d.]+)(us|ms|s)", out).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    timeouts = re.search(r"timeout (\d+)", out)
    total = int(re.search(r"(\d+) requests in", out).group(1))
    failed = (int(errors.group(1)) if errors else 0) + (int(timeouts.group(1)) if timeouts else 0)
    return rps, pct("50"), pct("99"), failed, total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--products", type=int, default=500)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--with-session", action="store_true",
                        help="send a session cookie, so every page is rendered (no visitor page cache)")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install -y wrk")

    data = Path(tempfile.mkdtemp(prefix="bench-"))
    env = {**os.environ, "DATA_DIR": str(data), "DEBUG": "0", "LOG_LEVEL": "WARNING"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    _seed(env, args.products)

    port = _free_port()
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "shop.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", str(args.workers), "--threads", str(args.threads), "--log-level", "warning"],
        cwd=ROOT, env=env,
    )
    base = f"http://127.0.0.1:{port}"
    slug = "kericho-gold-pure-kenya-tea-100-bags"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/shop", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        # /about is the baseline: the page shell (middleware, header, footer) and nothing else
        urls = ["/shop", "/shop?category=black-tea&sort=price-asc", f"/product/{slug}", "/about"]
        # any session cookie (even an unknown one) takes a visitor off the page cache
        headers = ["Cookie: sessionid=bench"] if args.with_session else []
        load = os.getloadavg()[0]
        print(f"{args.products} products, {args.connections} connections, {args.seconds}s, "
              f"gunicorn {args.workers} workers x {args.threads} threads, SQLite, "
              f"{'with a session cookie (rendered)' if args.with_session else 'fresh visitors (page cache)'}; "
              f"load average at start {load:.1f}")
        print("| URL | req/s | p50 ms | p99 ms | errors/timeouts | server CPU ms/request |")
        print("|---|---|---|---|---|---|")
        for url in urls:
            for warm in range(20):
                urllib.request.urlopen(base + url, timeout=5).read()
            before = _cpu_seconds(server.pid)
            rps, p50, p99, errors, total = _wrk(base + url, args.connections, args.seconds, headers)
            cpu_ms = (_cpu_seconds(server.pid) - before) * 1000 / max(total, 1)
            print(f"| `{url}` | {rps:.0f} | {p50:.1f} | {p99:.1f} | {errors} | {cpu_ms:.1f} |")
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
