"""The parser against a corpus of saved producer-like pages (hand-written, no copied site content).

Each page `corpus/<name>.html` (or `.json` for a platform feed) has its expected
products beside it in `corpus/<name>.expected.json`: the page's URL, and every
product as the crawl keeps it (records of one product merged, then normalised),
plus, when given, the listing's further pages and category links.
"""

import json
from pathlib import Path

import pytest

from importer.normalize import deduplicate, normalise
from importer.parsers import ParsedPage, parse_load_more, parse_page, parse_shopify_feed, parse_woocommerce_feed

CORPUS = Path(__file__).parent / "corpus"
FEEDS = {"shopify": parse_shopify_feed, "woocommerce": parse_woocommerce_feed, "load-more": parse_load_more}


def cases():
    return sorted(p.name.removesuffix(".expected.json") for p in CORPUS.glob("*.expected.json"))


def kept(records):
    """What the crawler keeps of one page's records (crawler.Crawl._record, then run)."""
    by_url = {}
    for record in records:
        found = by_url.get(record.source_url)
        by_url[record.source_url] = found.merge(record) if found else record
    return deduplicate([p for p in (normalise(r) for r in by_url.values()) if p])


def as_expected(product):
    return {"name": product.name, "price": str(product.price),
            "originalPrice": str(product.original_price) if product.original_price else None,
            "image": product.image, "sourceUrl": product.source_url, "inStock": product.in_stock}


@pytest.mark.parametrize("name", cases())
def test_the_parser_reads_every_product_of_the_corpus_page(name):
    # given
    expected = json.loads((CORPUS / f"{name}.expected.json").read_text())
    feed = expected.get("feed")
    source = CORPUS / f"{name}.{'json' if feed else 'html'}"
    # when
    if feed:
        links = FEEDS[feed](json.loads(source.read_text(encoding="utf-8")), expected["url"])
    else:
        links = parse_page(source.read_text(encoding="utf-8"), expected["url"])
    parsed = links.products if isinstance(links, ParsedPage) else links
    # then
    assert sorted((as_expected(p) for p in kept(parsed)), key=lambda p: p["sourceUrl"]) == sorted(
        expected["products"], key=lambda p: p["sourceUrl"])
    for key in ("pagination", "categories"):
        if key in expected:
            assert sorted(set(getattr(links, key))) == sorted(expected[key])


def test_the_corpus_covers_every_page_it_holds():
    pages = {p.stem for p in CORPUS.iterdir() if p.suffix in (".html", ".json") and ".expected" not in p.name}
    assert pages == set(cases())
