"""Crawling the fake producer site end to end: discovery, politeness, exact products."""

import time
from decimal import Decimal

import pytest

from importer.crawler import Crawl
from importer.fetch import PoliteSession
from importer.tests.fake_site import EXPECTED, producer_site

DELAY = 0.05


@pytest.fixture(scope="module")
def crawled():
    with producer_site() as producer:
        yield _crawl(producer)


def _crawl(producer):
    sleeps, sent = [], []
    session = PoliteSession(base_url=producer.url + "/", delay=DELAY,
                            sleep=lambda s: (sleeps.append(s), time.sleep(min(s, DELAY))))
    send = session.http.get
    session.http.get = lambda *a, **kw: (sent.append(time.monotonic()), send(*a, **kw))[1]
    progress = []
    result = Crawl(base_url=producer.url, max_pages=100, session=session,
                   on_progress=lambda p: progress.append((p.pages_fetched, p.pages_planned))).run()
    return result, producer, sleeps, sent, progress


def test_it_finds_exactly_the_producers_products_with_kes_prices(crawled):
    # given / when
    result, *_ = crawled
    # then nine products: the duplicate merged, the 404 product and the robots-blocked one absent
    assert {p.name: str(p.price) for p in result.products} == {n: kes for n, (kes, _egp, _c) in EXPECTED.items()}
    assert result.errors == []


def test_it_reads_sale_range_images_and_descriptions_right(crawled):
    result, producer, *_ = crawled
    found = {p.name: p for p in result.products}
    assert found["Strawberry & Vanilla 20TB"].original_price == Decimal("450.00")
    # protocol-relative and relative images become absolute
    uploads = producer.url + "/wp-content/uploads/2026/01/"
    assert found["Strawberry & Vanilla 20TB"].image == uploads + "strawberry-300x300.png"
    assert found["Kericho Gold 100g Leaf Tea"].image == uploads + "tea1.png"
    # JSON-LD beats the card: its description and picture win
    assert found["Kericho Gold Pure Kenya Tea 100 Tea Bags"].description.startswith("Bright, brisk pure Kenya")
    assert found["Kericho Gold Pure Kenya Tea 100 Tea Bags"].image.endswith("/pure-kenya-100.png")
    # the price of a priceless card came from its product page
    assert found["Love Tea"].description == "A rosy blend of black tea and hibiscus for two."
    assert found["Hangover Tea"].category == "attitude-teas"


def test_it_retries_exactly_as_the_spec_says(crawled):
    _result, producer, sleeps, *_ = crawled
    assert producer.hits("/shop/page/2/") == 3  # 503, 503, 200
    assert producer.hits("/product-category/black-tea/?paged=2") == 2  # 429, 200
    assert producer.hits("/product/lazy-afternoon/") == 1  # 404: no retry
    assert 0.5 in sleeps and 1.0 in sleeps  # 500 ms doubling after the 503s, Retry-After: 1 after the 429


def test_it_visits_every_url_once_and_never_follows_action_or_disallowed_links(crawled):
    _result, producer, *_ = crawled
    paths = [p for _t, p, _ua in producer.requests]
    retried = {"/shop/page/2/", "/product-category/black-tea/?paged=2"}
    assert all(paths.count(p) == 1 for p in paths if p not in retried)
    assert not [p for p in paths if "add-to-cart" in p or p.startswith(("/cart", "/my-account"))]
    assert producer.hits("/product-category/secret-teas/") == 0
    assert producer.hits("/robots.txt") == 1


def test_it_waits_the_politeness_delay_between_every_request(crawled):
    _result, _producer, _sleeps, sent, _progress = crawled
    gaps = [b - a for a, b in zip(sent, sent[1:])]
    assert min(gaps) >= DELAY * 0.98


def test_it_reports_progress_up_to_all_planned_pages(crawled):
    result, _producer, _sleeps, _sent, progress = crawled
    fetched = [f for f, _planned in progress]
    assert fetched == sorted(fetched) and fetched[-1] == result.pages_fetched
    assert progress[-1] == (result.pages_fetched, result.pages_fetched)


def test_it_stops_at_max_pages_and_keeps_what_it_found(producer):
    # when
    session = PoliteSession(base_url=producer.url + "/", delay=0)
    result = Crawl(base_url=producer.url, max_pages=5, session=session).run()
    # then feeds, root and shop only: the shop's priced cards are kept
    assert result.pages_fetched == 5
    assert {p.name for p in result.products} == {
        "Kericho Gold Pure Kenya Tea 100 Tea Bags", "Strawberry & Vanilla 20TB", "Luxury Pyramid Darjeeling"}


def test_a_page_no_parser_expected_is_skipped_and_the_crawl_goes_on(producer, monkeypatch):
    # given one category page that makes the parser raise (odd JSON-LD: a list where a text was expected)
    read = Crawl._read_page

    def read_or_choke(self, page):
        if "black-tea" in page.url:
            raise AttributeError("'list' object has no attribute 'strip'")
        return read(self, page)

    monkeypatch.setattr(Crawl, "_read_page", read_or_choke)
    session = PoliteSession(base_url=producer.url + "/", delay=0)
    # when
    result = Crawl(base_url=producer.url, max_pages=100, session=session).run()
    # then the other pages' products are kept, and the skipped page is reported
    assert "Luxury Pyramid Darjeeling" in {p.name for p in result.products}
    assert any(error.startswith("page skipped (AttributeError)") for error in result.errors)


def test_it_stops_when_cancelled(producer):
    # given
    session = PoliteSession(base_url=producer.url + "/", delay=0)
    calls = []
    # when
    result = Crawl(base_url=producer.url, max_pages=100, session=session,
                   should_cancel=lambda: calls.append(1) or len(calls) > 3).run()
    # then
    assert result.cancelled and result.pages_fetched == 3


def test_it_follows_a_load_more_button_to_its_json_batches():
    # given a listing whose further products come as JSON from a "Load more" button
    from pathlib import Path

    from importer.tests.fake_site import Answer, FakeServer

    corpus = Path(__file__).parent / "corpus"
    with FakeServer() as site:
        site.routes["/robots.txt"] = Answer(200, "User-agent: *\nAllow: /\n", content_type="text/plain")
        site.routes["/shop/"] = Answer(200, (corpus / "load_more_listing.html").read_text())
        site.routes["/wp-json/limuru/v1/products?page=2"] = Answer(
            200, (corpus / "load_more_response.json").read_text(), content_type="application/json")
        # when
        result = Crawl(base_url=site.url, max_pages=40, session=PoliteSession(base_url=site.url + "/", delay=0),
                       try_feeds=False).run()
    # then
    assert {p.name: (str(p.price), p.in_stock) for p in result.products} == {
        "Limuru Breakfast": ("560.00", True), "Limuru Chai Masala": ("650.00", True),
        "Limuru Earl Grey": ("1020.00", False)}
    assert site.hits("/wp-json/limuru/v1/products?page=3") == 1
