"""Issue 13 in a browser: every storefront page and every dashboard section in Arabic, with
its islands rendered, read by the same checker as tests/test_arabic_pages.py (no stray English
word, no Eastern digit, typed text isolated), with screenshots at 360 and 1280 px."""

import pytest
from django.conf import settings
from django.test import Client

from backoffice.sections import SECTIONS
from tests.arabic_seed import TYPED, seed_arabic_shop
from tests.arabic_text import arabic_page_problems
from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)


def _session_page(new_page, live_server, user=None):
    page = new_page(viewport=DESKTOP, locale="ar")
    if user is not None:
        client = Client()
        client.force_login(user)
        page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                                   "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                                   "url": live_server.url}])
    return page


def _read(page, path, screenshot, name, typed=()):
    """Open `path`, let its islands render, check it, and photograph it at both widths."""
    if path is not None:
        page.goto(path)
    page.wait_for_load_state("networkidle")
    problems = arabic_page_problems(page.content(), typed=typed, where=path or name)
    screenshot(page, f"arabic-{name}-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, f"arabic-{name}-phone")
    page.set_viewport_size(DESKTOP)
    return problems


@pytest.fixture
def shop(alice, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return seed_arabic_shop(alice=alice, media_root=tmp_path)


def test_a_shopper_reads_arabic_from_home_to_checkout(new_page, live_server, shop, alice, screenshot):
    page = _session_page(new_page, live_server, alice)
    slug = shop["product"].slug
    problems = []
    for path, name in [("/ar/", "home"), ("/ar/shop", "shop"), ("/ar/explore", "explore"), ("/ar/about", "about"),
                       ("/ar/contact", "contact")]:
        problems += _read(page, path, screenshot, name)
    problems += _read(page, f"/ar/product/{slug}", screenshot, "product",
                      typed=[TYPED["review_title_en"], TYPED["review_comment_en"]])
    page.locator('[data-island="currency-converter"][data-mounted="true"]').wait_for(state="attached")
    page.locator('[data-island="add-to-cart"][data-mounted="true"]').wait_for(state="attached")
    page.locator(".converter button").first.click()
    problems += _read(page, None, screenshot, "product-converter")
    page.keyboard.press("Escape")
    # Eastern Arabic digits typed in a quantity become Western ones as they are typed
    quantity = page.locator(".stepper input")
    quantity.fill("٢")
    assert quantity.input_value() == "2"
    page.locator(".add-to-cart__button").click()
    page.wait_for_selector(".mini-cart, [role=dialog]", timeout=5_000)
    problems += _read(page, None, screenshot, "mini-cart")
    problems += _read(page, "/ar/cart", screenshot, "cart")
    problems += _read(page, "/ar/checkout", screenshot, "checkout")
    problems += _read(page, "/ar/account", screenshot, "account", typed=[TYPED["street"]])
    assert problems == [], "\n".join(problems)


def test_a_visitor_reads_arabic_on_the_account_pages(new_page, live_server, shop, screenshot):
    page = _session_page(new_page, live_server)
    problems = []
    for path, name in [("/ar/login", "login"), ("/ar/register", "register"), ("/ar/forgot-password", "forgot")]:
        problems += _read(page, path, screenshot, name)
    assert problems == [], "\n".join(problems)


def test_the_owner_reads_arabic_in_every_dashboard_section(new_page, live_server, shop, owner, screenshot):
    page = _session_page(new_page, live_server, owner)
    problems = []
    for section in SECTIONS:
        problems += _read(page, f"/ar/admindash/{section.slug}", screenshot, f"dash-{section.slug}",
                          typed=[TYPED["message_subject"]] if section.slug == "messages" else ())
    page.goto("/ar/admindash/orders")
    page.wait_for_load_state("networkidle")
    page.get_by_text("NHT-261124-ARABIC").first.click()
    problems += _read(page, None, screenshot, "dash-order-detail", typed=[TYPED["street"], TYPED["status_note"]])
    page.goto("/ar/admindash/products")
    page.wait_for_load_state("networkidle")
    page.locator("tbody tr").first.get_by_role("button", name="تعديل").click()
    page.wait_for_selector("#product-form")
    problems += _read(page, None, screenshot, "dash-product-dialog")
    # staff may type Eastern Arabic digits in prices: they become Western as they type
    price = page.locator("#product-form input[name=price]")
    price.fill("١٢٥.٥٠")
    assert price.input_value() == "125.50"
    assert problems == [], "\n".join(problems)
