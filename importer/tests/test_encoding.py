"""Pages in windows-1252 (declared in the header, by <meta>, or not at all) read right; UTF-8 stays UTF-8."""

import pytest

from importer.crawler import Crawl
from importer.fetch import PoliteSession, decode_body
from importer.parsers import parse_page
from importer.tests.fake_site import LEGACY_EXPECTED, legacy_site

NAME = "Mama’s Crème Brûlée"


def test_a_crawl_of_a_windows_1252_site_reads_every_name_exactly():
    # given
    with legacy_site() as site:
        session = PoliteSession(base_url=site.url + "/", delay=0)
        # when
        result = Crawl(base_url=site.url, max_pages=30, session=session).run()
    # then
    assert {p.name: str(p.price) for p in result.products} == LEGACY_EXPECTED


@pytest.mark.parametrize(("body", "header_charset"), [
    (f"<p>{NAME}</p>".encode("cp1252"), "windows-1252"),
    (f"<p>{NAME}</p>".encode("cp1252"), "iso-8859-1"),  # browsers read Latin-1 as windows-1252
    (f'<meta charset="windows-1252"><p>{NAME}</p>'.encode("cp1252"), None),
    (f'<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><p>{NAME}</p>'.encode("cp1252"),
     None),
    (f"<p>{NAME}</p>".encode("cp1252"), None),  # undeclared: not UTF-8, so windows-1252
    (f'<meta charset="utf-8"><p>{NAME}</p>'.encode("cp1252"), "utf-8"),  # declared UTF-8, is not
])
def test_windows_1252_bodies_decode_by_header_then_meta_then_detection(body, header_charset):
    assert NAME in decode_body(body, header_charset)


@pytest.mark.parametrize(("body", "header_charset"), [
    (f"<p>{NAME}</p>".encode(), None),
    (f"<p>{NAME}</p>".encode(), "iso-8859-1"),  # a wrong single-byte label on valid UTF-8
    (f'<meta charset="windows-1252"><p>{NAME}</p>'.encode(), None),
    (b"\xef\xbb\xbf" + f"<p>{NAME}</p>".encode(), "windows-1252"),  # a byte-order mark decides
])
def test_valid_utf_8_is_never_turned_into_mojibake(body, header_charset):
    text = decode_body(body, header_charset)
    assert NAME in text and "Ã" not in text and "â€" not in text


def test_the_html_parser_does_not_re_decode_by_the_pages_meta_charset():
    # given text already decoded, whose page says windows-1252
    text = f'<html><head><meta charset="windows-1252"></head><body><div class="product_title">{NAME}</div>' \
           '<h1>x</h1></body></html>'
    # when
    parsed = parse_page(text, "https://producer.example/product/creme/")
    # then
    assert [p.name for p in parsed.products] == [NAME]
