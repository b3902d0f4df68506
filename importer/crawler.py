"""Discover and read the producer's catalogue, one polite request at a time.

Order of visits (a priority queue; every URL once; at most `max_pages`):
1. a platform feed (WooCommerce Store API, Shopify products.json) if exposed;
   a feed that answers makes the HTML crawl unnecessary; the Store API's
   further pages (`X-WP-TotalPages`) are read in order, each a page of the run;
2. root, shop, teas listing, category listing;
3. category pages found on those pages;
4. product pages of cards that carry no price (the price lives only there);
5. further pages of a listing (pagination up to page 5, path or query form);
6. guessed category slugs (spec 7);
7. product pages of cards that had a price (better descriptions and images).
"""

import heapq
import json
import logging
import time
from dataclasses import dataclass, field
from urllib.parse import urljoin

from importer import crawl_errors
from importer.fetch import FetchError, PoliteSession, RobotsDisallowed
from importer.normalize import deduplicate, normalise
from importer.parsers import (
    canonical_url,
    clean_text,
    is_action_link,
    parse_load_more,
    parse_page,
    parse_shopify_feed,
    parse_woocommerce_feed,
)
from shop.validation import id_parse

log = logging.getLogger(__name__)

MIN_PAGES, MAX_PAGES, DEFAULT_PAGES = 1, 100, 20
SEED_PATHS = ["/", "/shop/", "/teas/", "/product-category/"]
GUESSED_SLUGS = [
    "black-tea", "green-tea", "herbal-tea", "tea-bags", "loose-leaf", "gift-sets", "cold-brew",
    "attitude-teas", "health-wellness", "luxury-pyramid", "speciality-teas", "string-tag-pyramid",
    "conservation-teas", "pick-n-mix", "accessories-gifts", "entire-range",
]
STORE_API_PER_PAGE = 100  # the Store API's own maximum
# a page that is not there (a guessed category, a removed product) is no error; any other answer without a
# page (403, 401, 408, an empty 200) is a page not read
PAGE_NOT_THERE = (404, 410)
# a product found with no usable price is remembered by its URL as the shop stores it (Product.source_url),
# at most this many per run
UNPRICED_URL, UNPRICED_KEPT = 500, 5000


def store_api_path(number):
    """Page `number` of the WooCommerce Store API's product list."""
    return f"/wp-json/wc/store/v1/products?per_page={STORE_API_PER_PAGE}&page={number}"


FEEDS = [(store_api_path(1), parse_woocommerce_feed),
         ("/products.json?limit=250", parse_shopify_feed)]
P_FEED, P_SEED, P_CATEGORY, P_NEEDED, P_PAGINATION, P_GUESS, P_EXTRA = range(7)


@dataclass
class Progress:
    pages_planned: int = 0
    pages_fetched: int = 0
    products_found: int = 0
    errors: list = field(default_factory=list)


def _normalised(raw):
    """normalise(raw), or None for a record it cannot make sense of (one odd product never fails a crawl)."""
    try:
        return normalise(raw)
    except Exception as exc:
        log.warning("importer: product skipped, %s: %s", exc.__class__.__name__, str(raw)[:200])
        return None


@dataclass
class CrawlResult:
    products: list
    errors: list
    pages_fetched: int
    cancelled: bool = False
    requests_made: int = 0
    seconds: float = 0.0
    complete: bool = False  # every page found was read (none left at max_pages), none failed
    cut_short: bool = False  # pages found were left unread at max_pages: its count says nothing of the site
    pages_answered: int = 0  # pages the site answered with one (2xx and a body): none, and the site is down
    unpriced: list = field(default_factory=list)  # source URLs of named products with no usable price


class Crawl:
    def __init__(self, *, base_url, max_pages=DEFAULT_PAGES, session=None,
                 on_progress=None, should_cancel=None, try_feeds=True):
        self.base_url = base_url.rstrip("/") + "/"
        self.max_pages = max(MIN_PAGES, min(MAX_PAGES, int(max_pages)))
        self._own_session = session is None
        self.session = session or PoliteSession(base_url=self.base_url)
        self.on_progress = on_progress or (lambda progress: None)
        self.should_cancel = should_cancel or (lambda: False)
        self.try_feeds = try_feeds
        self.progress = Progress()
        self._queue, self._queued, self._counter = [], set(), 0
        self._found = {}  # source URL -> merged raw record
        self._feeds = {}  # feed URL -> its parser
        self._feed_pages = {}  # a further Store API page's URL -> its number
        self._feed_total = None  # the Store API's X-WP-TotalPages, once page 1 said it
        self._answered = 0  # pages answered 2xx with a body

    def _push(self, url, priority):
        url = canonical_url(url)
        if is_action_link(url):
            return
        if url in self._queued:
            self._promote(url, priority)
            return
        self._queued.add(url)
        self._counter += 1
        heapq.heappush(self._queue, (priority, self._counter, url))

    def _promote(self, url, priority):
        """Move a queued URL up (a priced-card product page turned out to be needed)."""
        url = canonical_url(url)
        for index, (p, n, u) in enumerate(self._queue):
            if u == url and p > priority:
                self._queue[index] = (priority, n, u)
                heapq.heapify(self._queue)
                return

    def _plan(self):
        self.progress.pages_planned = min(self.max_pages, self.progress.pages_fetched + len(self._queue))

    def _record(self, products):
        for product in products:
            found = self._found.get(product.source_url)
            self._found[product.source_url] = found.merge(product) if found else product
        self.progress.products_found = sum(1 for p in self._found.values() if p.price)

    def _error(self, message):
        log.warning("importer: %s", message)
        self.progress.errors.append(message[:300])

    def run(self):
        started = time.monotonic()
        cancelled = False
        if self.try_feeds:
            for path, _parser in FEEDS:
                self._push(urljoin(self.base_url, path), P_FEED)
        for path in SEED_PATHS:
            self._push(urljoin(self.base_url, path.lstrip("/")), P_SEED)
        guesses = [urljoin(self.base_url, f"product-category/{slug}/") for slug in GUESSED_SLUGS]
        for url in guesses:
            self._push(url, P_GUESS)
        self._feeds = {canonical_url(urljoin(self.base_url, path)): parser for path, parser in FEEDS}
        self._plan()
        self.on_progress(self.progress)

        while self._queue and self.progress.pages_fetched < self.max_pages:
            if self.should_cancel():
                cancelled = True
                break
            priority, _n, url = heapq.heappop(self._queue)
            try:
                page = self.session.get(url)
            except RobotsDisallowed as exc:
                if url in self._feed_pages:  # the products on it are missed: the crawl is not complete
                    self._error(crawl_errors.FEED_NOT_READ % {"number": self._feed_pages[url], "url": url[:200]})
                else:
                    log.info("importer: %s", exc)  # not an error: the site asked us not to
                self._plan()
                continue
            except FetchError as exc:
                self.progress.pages_fetched += 1
                self._error(str(exc))
            else:
                self.progress.pages_fetched += 1
                self._answered += page.ok
                try:
                    if url in self._feeds:
                        self._read_feed(page, url)
                    elif page.ok:
                        self._read_page(page)
                    elif page.status not in PAGE_NOT_THERE:
                        # a refusal (a firewall's challenge, a sign-in wall, a server's 408) or an empty body in
                        # place of the page: its products were not read, so the crawl is not complete
                        self._error((crawl_errors.HTTP_STATUS if page.body else crawl_errors.HTTP_EMPTY)
                                    % {"status": page.status, "url": url[:200]})
                except Exception as exc:  # a page no parser expected (odd JSON-LD, deep nesting): skipped
                    log.warning("importer: page skipped, %s: %s", exc.__class__.__name__, url)
                    self._error(crawl_errors.PAGE_SKIPPED % {"error": exc.__class__.__name__, "url": url[:200]})
            self._plan()
            self.on_progress(self.progress)

        if self._own_session:
            self.session.close()
        normalised = [(raw, _normalised(raw)) for raw in self._found.values()]
        products = deduplicate([p for _raw, p in normalised if p])
        # on the site under a name, with no price the shop can take: not gone, and not offered
        unpriced = sorted({raw.source_url[:UNPRICED_URL] for raw, p in normalised
                           if p is None and raw.source_url and clean_text(raw.name)})[:UNPRICED_KEPT]
        self.progress.products_found = len(products)
        self.progress.pages_planned = self.progress.pages_fetched if not cancelled else self.progress.pages_planned
        self.on_progress(self.progress)
        return CrawlResult(products=products, errors=list(self.progress.errors),
                           pages_fetched=self.progress.pages_fetched, cancelled=cancelled,
                           complete=not (cancelled or self._queue or self.progress.errors),
                           cut_short=bool(self._queue) and not cancelled, pages_answered=self._answered,
                           unpriced=unpriced,
                           requests_made=self.session.requests_made,
                           seconds=time.monotonic() - started)

    def _read_feed(self, page, url):
        parser = self._feeds[url]
        products = []
        if page.ok:
            try:
                products = parser(json.loads(page.text), self.base_url)
            except ValueError:
                pass
        number = self._feed_pages.get(url)
        if not products:
            # page 1 that is not a feed is no error (most sites expose none); an announced further page is
            if number is not None and self._feed_total is not None:
                self._error(crawl_errors.FEED_UNREADABLE % {"number": number, "total": self._feed_total,
                                                     "status": page.status, "url": url[:200]})
            return
        self._record(products)
        # a structured feed has the whole catalogue: stop guessing
        self._queue = [q for q in self._queue if q[0] <= P_FEED]
        heapq.heapify(self._queue)
        if parser is parse_woocommerce_feed:
            self._store_api_follow(page, number or 1, len(products))

    def _store_api_follow(self, page, number, count):
        """Queue the Store API's further pages, in order, as page 1's X-WP-TotalPages announces them.

        Without the header (a proxy may drop it) a full page may have a next one. The pages are queued
        only up to one past the run's limit: one left unread keeps the crawl from being called complete.
        """
        if number == 1:
            total = page.header("X-WP-TotalPages").strip()
            self._feed_total = id_parse(total)  # ASCII digits: str.isdigit() took "²", which int() refused
        if self._feed_total is not None:
            numbers = range(number + 1, min(self._feed_total, self.max_pages + 1) + 1)
        else:
            numbers = range(number + 1, number + 2) if count >= STORE_API_PER_PAGE else range(0)
        for n in numbers:
            url = canonical_url(urljoin(self.base_url, store_api_path(n)))
            if url not in self._queued:
                self._feeds[url] = parse_woocommerce_feed
                self._feed_pages[url] = n
                self._push(url, P_FEED)

    def _read_page(self, page):
        text = page.text
        if "json" in page.content_type.lower() or text.lstrip().startswith("{"):
            try:
                parsed = parse_load_more(json.loads(text), page.url)  # a "load more" batch
            except ValueError:
                parsed = parse_page(text, page.url)
        else:
            parsed = parse_page(text, page.url)
        self._record(parsed.products)
        for url in parsed.categories:
            self._push(url, P_CATEGORY)
        for url in parsed.pagination:
            self._push(url, P_PAGINATION)
        for product in parsed.products:
            link = product.source_url
            if "#" in link or canonical_url(link) == canonical_url(page.url):
                continue
            merged = self._found.get(link)
            priority = P_NEEDED if not (merged and merged.price) else P_EXTRA
            self._push(link, priority)
        for url in parsed.product_links:
            self._push(url, P_EXTRA)


def crawl(**kwargs):
    return Crawl(**kwargs).run()
