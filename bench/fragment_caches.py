"""Do the catalogue fragment caches still pay, with whole pages cached and visitor parts stitched?

    .venv/bin/python bench/fragment_caches.py [--requests 200]

Builds a scratch shop (SQLite and a file cache in a temporary data folder,
`DEBUG=0`, the demo catalogue) and times, in one process with Django's test
client, the three ways a visitor with a session gets /shop, a filtered /shop
and a product page:
- stitched: the page is stored (a visitor without a session asked for it
  within the last minute), this visitor's parts are rendered into it;
- rendered, fragment hit: nothing stored, the view runs and finds its
  fragments in the shared cache;
- rendered, no fragment cache: the view runs with the fragment cache replaced
  by Django's DummyCache (what dropping the fragment caches would give).
Prints the mean and median milliseconds per request that bench/RESULTS.md records.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["DATA_DIR"] = tempfile.mkdtemp(prefix="bench-fragments-")
os.environ["DEBUG"] = "0"
os.environ["LOG_LEVEL"] = "WARNING"
os.environ.pop("DATABASE_URL", None)
os.environ.pop("REDIS_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.cache.backends.dummy import DummyCache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from catalog import views as catalog_views  # noqa: E402

URLS = ["/shop", "/shop?category=black-tea&sort=price-asc", "/product/kericho-gold-pure-kenya-tea-100-bags"]
HOST = "127.0.0.1"


def _timed(client, url, count):
    times = []
    for _ in range(count):
        started = time.perf_counter()
        response = client.get(url, HTTP_HOST=HOST)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return statistics.mean(times), statistics.median(times)


def _session_client():
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = "bench-session-without-a-row"
    return client


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    call_command("seed_demo", verbosity=0)
    rows = []
    for url in URLS:
        cache.clear()
        Client().get(url, HTTP_HOST=HOST)  # a visitor without a session stores the page (and the fragments)
        stitched = _timed(_session_client(), url, args.requests)
        cache.clear()
        _session_client().get(url, HTTP_HOST=HOST)  # fills the fragments only: a session's page is not stored
        fragment_hit = _timed(_session_client(), url, args.requests)
        real_cache = catalog_views.cache
        catalog_views.cache = DummyCache("dummy", {})
        try:
            no_fragments = _timed(_session_client(), url, args.requests)
        finally:
            catalog_views.cache = real_cache
        rows.append((url, stitched, fragment_hit, no_fragments))
    print(f"{args.requests} requests per cell, ms per request (mean / median)")
    print("| URL | stitched (page stored) | rendered, fragment hit | rendered, no fragment cache |")
    print("|---|---|---|---|")
    for url, *cells in rows:
        print(f"| `{url}` | " + " | ".join(f"{mean:.1f} / {median:.1f}" for mean, median in cells) + " |")


if __name__ == "__main__":
    main()
