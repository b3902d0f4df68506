"""The WooCommerce Store API's pagination: every page read in turn, a missed one makes the crawl incomplete."""

import json
import time

import pytest
from rest_framework.test import APIClient

from importer import services
from importer.crawler import Crawl, store_api_path
from importer.fetch import PoliteSession
from importer.models import ExternalProduct
from importer.tests.fake_site import Answer, FakeServer

DELAY = 0.02
# three pages of the producer's feed: 3 + 3 + 1 teas
PAGES = [["Hangover Tea", "Love Tea", "Lazy Afternoon"],
         ["Detox Tea", "Slim Tea", "Purple Tea"],
         ["Royal Earl Grey"]]
ALL_TEAS = {name for names in PAGES for name in names}


def _item(base, name, number):
    slug = name.lower().replace(" ", "-")
    return {"id": number, "name": name, "slug": slug, "permalink": f"{base}/product/{slug}/",
            "short_description": f"<p>{name}, packed in Mombasa.</p>", "is_in_stock": True,
            "prices": {"price": str(30000 + number * 1000), "regular_price": str(30000 + number * 1000),
                       "currency_code": "KES", "currency_minor_unit": 2},
            "images": [], "categories": [{"slug": "attitude-teas"}]}


def _feed_page(base, number):
    start = sum(len(names) for names in PAGES[:number - 1])
    items = [_item(base, name, start + i) for i, name in enumerate(PAGES[number - 1])]
    return Answer(200, json.dumps(items), content_type="application/json",
                  headers={"X-WP-Total": str(len(ALL_TEAS)), "X-WP-TotalPages": str(len(PAGES))})


def serve_feed(site, *, robots="User-agent: *\nAllow: /\n"):
    """Serve the three pages of the Store API (and a shop page the crawl must not need)."""
    site.routes["/robots.txt"] = Answer(200, robots, content_type="text/plain")
    site.routes["/shop/"] = Answer(200, "<html><body><h1>Shop</h1></body></html>")
    for number in range(1, len(PAGES) + 1):
        site.routes[store_api_path(number)] = _feed_page(site.url, number)


@pytest.fixture
def feed_site():
    with FakeServer() as site:
        serve_feed(site)
        yield site


def _crawl(site, *, max_pages=100):
    sleeps = []
    session = PoliteSession(base_url=site.url + "/", delay=DELAY,
                            sleep=lambda s: (sleeps.append(s), time.sleep(min(s, DELAY))))
    result = Crawl(base_url=site.url, max_pages=max_pages, session=session).run()
    return result, sleeps


def _feed_requests(site):
    return [path for _t, path, _ua in site.requests if path.startswith("/wp-json/wc/store/")]


def test_it_reads_every_page_of_the_store_api_in_order_and_calls_the_crawl_complete(feed_site):
    # given a Store API feed of three pages (X-WP-TotalPages: 3)
    # when
    result, _sleeps = _crawl(feed_site)
    # then the teas of all three pages, each page asked once and in order, and nothing else guessed
    assert {p.name for p in result.products} == ALL_TEAS
    assert _feed_requests(feed_site) == [store_api_path(n) for n in (1, 2, 3)]
    assert feed_site.hits("/product-category/black-tea/") == 0
    assert result.errors == [] and result.complete is True
    # and each page waited its turn behind the politeness delay
    arrivals = [t for t, _path, _ua in feed_site.requests]
    assert min(b - a for a, b in zip(arrivals, arrivals[1:])) >= DELAY * 0.98


def test_a_failing_middle_page_keeps_the_others_and_leaves_the_crawl_incomplete(feed_site):
    # given page 2 of the feed answers 500 however often it is asked
    feed_site.routes[store_api_path(2)] = Answer(500, "<html>database error</html>")
    # when
    result, sleeps = _crawl(feed_site)
    # then pages 1 and 3 are kept, page 2 was retried as the spec says, and the crawl is not complete
    assert {p.name for p in result.products} == set(PAGES[0] + PAGES[2])
    assert feed_site.hits(store_api_path(2)) == 5 and feed_site.hits(store_api_path(3)) == 1
    assert any("HTTP 500" in error and "page=2" in error for error in result.errors)
    assert result.complete is False


def test_an_announced_page_that_answers_no_products_leaves_the_crawl_incomplete(feed_site):
    # given page 2 is announced by X-WP-TotalPages but is gone when asked
    feed_site.routes[store_api_path(2)] = Answer(404, "[]", content_type="application/json")
    # when
    result, _sleeps = _crawl(feed_site)
    # then
    assert any(error.startswith("feed page 2 of 3 unreadable (HTTP 404)") for error in result.errors)
    assert result.complete is False


def test_the_run_page_limit_stops_the_feed_and_the_crawl_is_not_complete(feed_site):
    # given a run allowed two pages (the Store API's page 1 and Shopify's feed, asked once each)
    # when
    result, _sleeps = _crawl(feed_site, max_pages=2)
    # then page 3 is never asked and what was found is kept, but nothing may be called gone
    assert result.pages_fetched == 2 and feed_site.hits(store_api_path(3)) == 0
    assert set(PAGES[0]) <= {p.name for p in result.products}
    assert result.complete is False


def test_a_feed_page_robots_txt_forbids_is_not_asked_and_the_crawl_is_not_complete():
    # given robots.txt forbids the feed's third page
    with FakeServer() as site:
        serve_feed(site, robots=f"User-agent: *\nDisallow: {store_api_path(3)}\n")
        # when
        result, _sleeps = _crawl(site)
    # then
    assert site.hits(store_api_path(3)) == 0
    assert {p.name for p in result.products} == set(PAGES[0] + PAGES[1])
    assert any("feed page 3 not read, disallowed by robots.txt" in error for error in result.errors)
    assert result.complete is False


def test_without_the_total_pages_header_a_full_page_is_followed_until_a_short_one(feed_site):
    # given a proxy that drops X-WP-TotalPages: two full pages of 100 teas, then a page of 5
    sizes = {1: 100, 2: 100, 3: 5}
    for number, size in sizes.items():
        items = [_item(feed_site.url, f"Blend {number}-{i}", number * 1000 + i) for i in range(size)]
        feed_site.routes[store_api_path(number)] = Answer(200, json.dumps(items), content_type="application/json")
    # when
    result, _sleeps = _crawl(feed_site)
    # then pages 1, 2 (full) and 3 (short, so the last) are read, and no page 4 is asked
    assert len(result.products) == 205
    assert _feed_requests(feed_site) == [store_api_path(n) for n in (1, 2, 3)]
    assert result.complete is True


@pytest.mark.django_db
def test_a_run_whose_middle_feed_page_failed_calls_none_of_its_teas_gone(shop_setup, crawl, owner):
    # given the producer's Store API with three pages, all imported once
    serve_feed(shop_setup, robots=shop_setup.routes["/robots.txt"].body)
    run = crawl(user=owner, max_pages=100)
    assert run.complete is True and set(ExternalProduct.objects.values_list("name", flat=True)) == ALL_TEAS
    services.external_products_import(user=owner)
    # when the next crawl finds page 2 gone for a while
    shop_setup.routes[store_api_path(2)] = Answer(404, "[]", content_type="application/json")
    run = crawl(user=owner, max_pages=100)
    # then the run is done but not complete, and no tea of page 2 is offered for deactivation
    assert run.status == "done" and run.complete is False
    staff = APIClient()
    staff.force_login(owner)
    body = staff.get("/api/admin/scrape/preview").json()
    assert body["goneChecked"] is False and body["gone"] == []


@pytest.mark.parametrize("total", ["²", "9" * 5000])
def test_a_total_pages_header_that_is_not_a_number_is_read_as_none_sent(feed_site, total):
    # given: "²" (Latin-1, as a header can carry it) passes str.isdigit(), which int() then refused,
    # as it refuses a number past 4300 digits
    answer = _feed_page(feed_site.url, 1)
    feed_site.routes[store_api_path(1)] = Answer(200, answer.body, content_type="application/json",
                                                 headers={**answer.headers, "X-WP-TotalPages": total})
    # when
    result, _sleeps = _crawl(feed_site)
    # then: page 1 is read as if the header were missing (a short page has no next one)
    assert {p.name for p in result.products} == set(PAGES[0]) and result.errors == []
    assert _feed_requests(feed_site) == [store_api_path(1)]
