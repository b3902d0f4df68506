"""Issue 13, the standing proof: every storefront page and the dashboard shell, in Arabic,
with realistic Arabic and English content, has no stray English word, no Eastern digit and
no typed text left un-isolated. The dashboard's islands are walked in a browser by
tests/browser/test_arabic_walk.py with the same checker.
"""

import pytest

from tests.arabic_seed import TYPED, seed_arabic_shop
from tests.arabic_text import arabic_page_problems, latin_words

pytestmark = pytest.mark.django_db

STOREFRONT = ["/ar/", "/ar/shop", "/ar/shop?view=list", "/ar/sale", "/ar/explore", "/ar/about", "/ar/contact",
              "/ar/terms", "/ar/privacy", "/ar/cart", "/ar/checkout", "/ar/login", "/ar/register",
              "/ar/forgot-password", "/ar/no-such-page", "/ar/product/no-such-tea"]


@pytest.fixture
def shop(alice, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return seed_arabic_shop(alice=alice, media_root=tmp_path)


def test_the_checker_finds_what_it_must():
    page = ('<html><body><p>مرحبا Hello</p><p>١٢٣</p><p>طلب NHT-261124-ABCDEF من mona@example.com</p>'
            '<p lang="en">Shown in English on purpose</p><p>Paymob</p><p>Do you sell?</p><p>قيد التجهيز → تم '
            'الشحن</p></body></html>')
    problems = arabic_page_problems(page, typed=["Do you sell?"])
    assert any("Hello" in p for p in problems)
    assert any("Eastern digits" in p for p in problems)
    assert any("not isolated" in p for p in problems)
    assert any("arrow" in p for p in problems)
    assert not any("NHT" in p or "mona" in p or "purpose" in p or "Paymob" in p for p in problems)
    assert latin_words("زر /ar/shop و https://example.com/x") == []


def _check(client, path, typed=(), status=(200, 404)):
    response = client.get(path)
    assert response.status_code in status, (path, response.status_code)
    return arabic_page_problems(response.content.decode(), typed=typed, where=path)


def test_every_storefront_page_reads_as_arabic(client, shop):
    problems = []
    for path in STOREFRONT:
        problems += _check(client, path)
    problems += _check(client, f"/ar/product/{shop['product'].slug}",
                       typed=[TYPED["review_title_en"], TYPED["review_comment_en"], TYPED["review_title_ar"]])
    assert problems == [], "\n".join(problems)


def test_every_product_page_reads_as_arabic(client, shop):
    from catalog.models import Product

    problems = []
    for slug in Product.objects.values_list("slug", flat=True)[:40]:
        problems += _check(client, f"/ar/product/{slug}")
    assert problems == [], "\n".join(problems)


def test_a_signed_in_customers_pages_read_as_arabic(client, shop, alice):
    client.force_login(alice)
    problems = _check(client, "/ar/account", typed=[TYPED["street"]])
    problems += _check(client, "/ar/checkout")
    assert problems == [], "\n".join(problems)


def test_the_dashboard_shell_reads_as_arabic(client, shop, owner):
    from backoffice.sections import SECTIONS

    problems = _check(client, "/ar/adminauth")
    client.force_login(owner)
    for section in SECTIONS:
        problems += _check(client, f"/ar/admindash/{section.slug}" if section.slug else "/ar/admindash")
    assert problems == [], "\n".join(problems)


def test_the_maintenance_page_reads_as_arabic(client, shop):
    from shop.store_settings import store_settings_update

    store_settings_update(maintenance_mode=True, maintenance_message_ar="نعود قريبًا.")
    problems = _check(client, "/ar/shop", status=(503,))
    assert problems == [], "\n".join(problems)


def test_the_error_pages_read_as_arabic(shop, settings):
    """A form posted from a page left open past its session, a mangled request, a refused page: each
    answers on the shop's own page in the reader's language (Django's own were English, or Arabic
    in a left-to-right page about CSRF cookies and DEBUG=True)."""
    from django.test import Client

    settings.DEBUG = False
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    answers = {
        "csrf": client.post("/ar/contact", {"name": "Mona"}),
        "bad request": client.post("/ar/contact", {f"f{i}": "x" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
                                                                               + 1)}),
    }
    problems = []
    for where, response in answers.items():
        page = response.content.decode()
        assert response.status_code in (400, 403), (where, response.status_code)
        assert '<html lang="ar" dir="rtl"' in page, (where, page[:300])
        assert "نايل هايلاندز تي" in page, where
        problems += arabic_page_problems(page, where=where)
    assert problems == [], "\n".join(problems)
    english = client.post("/contact", {"name": "Mona"}).content.decode()
    assert '<html lang="en" dir="ltr"' in english and "DEBUG" not in english


def test_a_refused_page_reads_as_arabic(shop, rf):
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.sessions.backends.db import SessionStore

    from shop.views import permission_denied

    request = rf.get("/ar/account")
    request.user, request.session = AnonymousUser(), SessionStore()
    response = permission_denied(request)
    assert response.status_code == 403
    page = response.content.decode()
    assert '<html lang="ar" dir="rtl"' in page and "ليست لديك صلاحية" in page
    assert arabic_page_problems(page, where="403") == []
