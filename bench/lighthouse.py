"""Lighthouse (mobile preset) over the storefront, served the way production serves it.

    .venv/bin/python bench/lighthouse.py [--runs 5] [--only shop] [--categories performance,accessibility]

Seeds the demo catalogue into a scratch SQLite shop (DEBUG off, collected static files through
whitenoise), starts the Procfile's gunicorn on a free port, runs Lighthouse N times per page
(home, shop, filtered shop, product, cart, checkout; English and Arabic) and prints one row per
page with the minimum score over the runs and the largest CLS. Cart and checkout are audited with
the session cookie of a visitor with a tea in the cart. Needs `npm ci` (Lighthouse is a
devDependency) and Chromium (CHROME_PATH, default /usr/bin/chromium).

tests/browser/test_lighthouse.py uses `seeded_shop` and `audit` to check the categories that do
not depend on timing in CI.
"""

import argparse
import contextlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
AUDIT_SCRIPT = ROOT / "bench" / "lighthouse-audit.mjs"
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = "--headless=new --no-sandbox --disable-background-networking --disable-gpu"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
PRODUCT_SLUG = "kericho-gold-pure-kenya-tea-100-bags"

PAGES = (
    ("home", "/"),
    ("shop", "/shop"),
    ("filtered shop", "/shop?category=black-tea"),
    ("product", f"/product/{PRODUCT_SLUG}"),
    ("cart", "/cart"),
    ("checkout", "/checkout"),
)
NEEDS_CART = {"cart", "checkout"}

SEED = f"""
from django.core.management import call_command
from django.test import Client
from catalog.models import Product
call_command("seed_demo", verbosity=0)
tea = Product.objects.get(slug="{PRODUCT_SLUG}")
guest = Client(HTTP_HOST="127.0.0.1")
guest.post("/api/cart/items", {{"productId": tea.pk, "quantity": 1}}, content_type="application/json")
print("SESSION", guest.cookies["sessionid"].value)
"""


def pages(languages=("EN", "AR")):
    """(label, path, needs a cart) for every audited page, English first."""
    for language in languages:
        prefix = "/ar" if language == "AR" else ""
        for name, path in PAGES:
            yield f"{name} {language}", (prefix + path if path != "/" else f"{prefix}/"), name in NEEDS_CART


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _python():
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


@contextlib.contextmanager
def seeded_shop(workers=2):
    """Yield (base URL, session id with a cart) of a freshly seeded shop under gunicorn, DEBUG off."""
    data = Path(tempfile.mkdtemp(prefix="lighthouse-"))
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DJANGO_", "PYTEST_")) and key not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DATA_DIR=str(data), DEBUG="0", LOG_LEVEL="WARNING", DJANGO_SETTINGS_MODULE="shop.settings")
    server = None
    try:
        python = _python()
        subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        subprocess.run([python, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        out = subprocess.run([python, "manage.py", "shell", "-c", SEED], cwd=ROOT, env=env, check=True,
                             stdout=subprocess.PIPE, text=True).stdout
        session = out.strip().splitlines()[-1].split()[-1]
        port = _free_port()
        server = subprocess.Popen(
            [str(Path(python).parent / "gunicorn"), "shop.wsgi", "--bind", f"127.0.0.1:{port}",
             "--workers", str(workers), "--timeout", "60", "--log-level", "warning"],
            cwd=ROOT, env=env,
        )
        base = f"http://127.0.0.1:{port}"
        _wait_until_up(base)
        yield base, session
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(data, ignore_errors=True)


def _wait_until_up(base):
    for _ in range(150):
        try:
            urllib.request.urlopen(base + "/", timeout=2)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the shop did not start at {base}")


def audit(urls, *, categories=CATEGORIES, cookie=None, fast=False, cpu_slowdown=None):
    """Lighthouse (mobile preset) over `urls` in one Chromium, in order: one result per URL,
    {"url", "scores": {category: 0-100}, "cls", "metrics": {"audit-id": ms}, "failed": ["audit-id: title"], "error"}.
    `urls` holds URLs or (URL, needs the cart) pairs; those that need it are sent `cookie` ("sessionid=…").
    `cpu_slowdown` replaces the preset's CPU multiplier (4)."""
    audits = []
    for item in urls:
        url, needs_cart = item if isinstance(item, tuple) else (item, False)
        audits.append({"url": url, "cookie": cookie if needs_cart else None})
    results = _run_audits(audits, categories, fast, cpu_slowdown)
    for _retry in range(RETRIES):
        again = [i for i, result in enumerate(results) if _trace_lost(result)]
        if not again:
            break
        for i, result in zip(again, _run_audits([audits[i] for i in again], categories, fast, cpu_slowdown),
                             strict=True):
            results[i] = {**result, "retries": results[i].get("retries", 0) + 1}
    return results


# Lighthouse 12 with Debian's Chromium loses the trace of about one page load in twenty (NO_NAVSTART, on an
# idle machine too) and says to run it again: such a run measured nothing, so it is run again, up to twice
RETRIES = 2


def _trace_lost(result):
    return bool(result["error"]) and "NO_NAVSTART" in result["error"]


def _run_audits(audits, categories, fast, cpu_slowdown):
    job = {"chromeFlags": CHROME_FLAGS.split(), "categories": list(categories), "fast": fast,
           "cpuSlowdown": cpu_slowdown, "audits": audits}
    out = subprocess.run(["node", str(AUDIT_SCRIPT)], input=json.dumps(job), env={**os.environ, "CHROME_PATH": CHROME},
                         cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True, timeout=60 + 120 * len(audits)).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5, help="runs per page (the minimum score is shown)")
    parser.add_argument("--only", default="", help="audit only the pages whose label contains this text")
    parser.add_argument("--categories", default=",".join(CATEGORIES))
    parser.add_argument("--verbose", action="store_true", help="list the audits that cost points")
    parser.add_argument("--base", default="", help="audit a shop already running here (seeded) instead of starting one")
    parser.add_argument("--session", default="", help="with --base: the session id of a visitor with a cart")
    parser.add_argument("--cpu-slowdown", type=float, default=None,
                        help="the simulated CPU slowdown instead of the mobile preset's 4 (a slower phone, or a fast "
                             "machine standing in for a slow one)")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit("Lighthouse is not installed: npm ci (it is a devDependency)")
    categories = tuple(args.categories.split(","))
    with (contextlib.nullcontext((args.base, args.session)) if args.base else seeded_shop()) as (base, session):
        slowdown = f", CPU slowdown {args.cpu_slowdown:g}" if args.cpu_slowdown else ""
        print(f"Lighthouse {_version()}, mobile preset{slowdown}, {args.runs} runs per page, "
              f"load average at start {os.getloadavg()[0]:.1f}", flush=True)
        chosen = [(label, path, needs_cart) for label, path, needs_cart in pages() if args.only in label]
        results = {label: [] for label, _path, _cart in chosen}
        for _run in range(args.runs):  # each round visits every page once, so drift spreads over all pages
            round_ = audit([(base + path, needs_cart) for _label, path, needs_cart in chosen],
                           categories=categories, cookie=f"sessionid={session}", cpu_slowdown=args.cpu_slowdown)
            for (label, _path, _cart), result in zip(chosen, round_, strict=True):
                results[label].append(result)
                if args.verbose or result["error"]:
                    print(label, result, flush=True)
        rows = [(label, path, results[label]) for label, path, _cart in chosen]
    print(table(rows, categories))


def table(rows, categories):
    """Markdown: per page the minimum score over the runs that completed, the largest CLS, every run's
    performance ("err" for a run Lighthouse could not finish, a "*" for each time it was run again after losing
    its trace) and the median of the timing metrics behind it."""
    lines = [f"| page | URL | {' | '.join(categories)} | CLS (max) | performance per run | median FCP / LCP / TBT ms |",
             "|---|---|" + "---|" * len(categories) + "---|---|---|"]
    for label, path, runs in rows:
        done = [r for r in runs if not r["error"]] or [{"scores": dict.fromkeys(categories, 0), "cls": None}]
        scores = " | ".join(str(min(r["scores"][name] for r in done)) for name in categories)
        cls = f"{max((r['cls'] or 0) for r in done):.3f}" if "performance" in categories else ""
        per_run = ", ".join(("err" if r["error"] else str(r["scores"]["performance"])) + "*" * r.get("retries", 0)
                            for r in runs) if "performance" in categories else ""
        lines.append(f"| {label} | `{path}` | {scores} | {cls} | {per_run} | {_median_metrics(done)} |")
    return "\n".join(lines)


def _median_metrics(runs):
    medians = []
    for name in ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time"):
        values = [r["metrics"][name] for r in runs if r.get("metrics", {}).get(name) is not None]
        medians.append(str(statistics.median(values)) if values else "–")
    return " / ".join(medians)


def _version():
    return subprocess.run([str(LIGHTHOUSE), "--version"], capture_output=True, text=True).stdout.strip()


if __name__ == "__main__":
    main()
