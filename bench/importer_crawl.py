"""Time a crawl of 100 local pages and the per-page overhead beyond the politeness delay.

    .venv/bin/python bench/importer_crawl.py [--delay 0.3] [--pages 100]

Serves a producer-like site on 127.0.0.1 (12 product cards per listing page),
crawls it with the real client (robots.txt, delay, parsing, de-duplication)
and prints the numbers bench/RESULTS.md records.
"""

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings_test")

import django  # noqa: E402

django.setup()

from importer.crawler import Crawl  # noqa: E402
from importer.fetch import PoliteSession  # noqa: E402
from importer.tests.fake_site import many_pages_site  # noqa: E402


def run(delay, pages):
    with many_pages_site(pages) as site:
        session = PoliteSession(base_url=site.url + "/", delay=delay, allow_private=True)
        started = time.perf_counter()
        result = Crawl(base_url=site.url, max_pages=pages, session=session, try_feeds=False).run()
        seconds = time.perf_counter() - started
    # the delay separates requests: n requests wait n - 1 times
    waited = delay * (session.requests_made - 1)
    overhead_ms = (seconds - waited) * 1000 / result.pages_fetched
    return result, seconds, overhead_ms, session.requests_made


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--delay", type=float, default=0.3)
    parser.add_argument("--pages", type=int, default=100)
    args = parser.parse_args()
    for delay in (args.delay, 0.0):
        result, seconds, overhead_ms, requests = run(delay, args.pages)
        print(f"delay {delay:.2f} s: {result.pages_fetched} pages ({requests} requests incl. robots.txt), "
              f"{len(result.products)} products, {seconds:.2f} s total, "
              f"overhead {overhead_ms:.1f} ms/page beyond the delay")


if __name__ == "__main__":
    main()
