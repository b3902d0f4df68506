"""A request that fails without the server's words (the network cut, a proxy's error page) is told in the
page's language. The islands showed the client's own error text: "network" under the coupon field, "Unable to
load products: HTTP 502" above the shop's list, in English on the Arabic pages (tests/test_island_failure_text.py
keeps the code from reading it again)."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.arabic_text import latin_words
from tests.browser.conftest import DESKTOP, PHONE, islands_ready
from tests.browser.test_checkout import _add_to_cart, _fill_checkout

pytestmark = pytest.mark.django_db(transaction=True)

NETWORK = {"en": "Network error. Please check your connection and try again.",
           "ar": "خطأ في الشبكة. يُرجى التحقق من اتصالك والمحاولة مرة أخرى."}
PRODUCTS = {"en": "Unable to load products. Please try again.", "ar": "تعذّر تحميل المنتجات. يُرجى المحاولة مرة أخرى."}


@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_a_coupon_checked_while_the_network_is_down_says_so_in_the_pages_language(
        new_page, screenshot, teas, locale, prefix, lang):
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0])
    page.goto(f"{prefix}/checkout")
    page.locator('[data-island="checkout"][data-mounted="true"]').wait_for(state="attached")
    _fill_checkout(page, arabic=lang == "ar")
    # given: the summary cannot be reached
    page.route("**/api/cart/summary", lambda route: route.abort())
    # when: a code is applied
    page.fill("#co-couponCode", "SAVE50")
    page.locator(".coupon__row button").click()
    # then: the field says why, in the page's words
    expect(page.locator("#co-couponCode-error")).to_have_text(NETWORK[lang])
    screenshot(page, f"checkout-coupon-network-{lang}-phone")
    page.set_viewport_size(DESKTOP)
    screenshot(page, f"checkout-coupon-network-{lang}-desktop")


@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_the_shops_list_that_fails_to_load_says_so_in_the_pages_language(new_page, screenshot, locale, prefix, lang):
    call_command("seed_demo", verbosity=0)
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/shop")
    islands_ready(page, "shop-filters")
    # given: a proxy answering the list's fragment with its own error page
    page.route(re.compile(r".*/shop\?.*"), lambda route: route.fulfill(status=502, body="Bad Gateway"))
    # when: a filter is chosen
    page.locator(".shop-filters__toggle").click()
    page.locator('input[name="category"][value="green-tea"]').check()
    # then: the list says it could not load, with no English from the client or the proxy on an Arabic page
    alert = page.locator("#shop-results [role=alert] p")
    expect(alert).to_have_text(PRODUCTS[lang])
    if lang == "ar":
        assert latin_words(alert.inner_text()) == []
    page.keyboard.press("Escape")  # the filters' sheet closes over the list
    screenshot(page, f"shop-list-failed-{lang}-phone")
    page.set_viewport_size(DESKTOP)
    screenshot(page, f"shop-list-failed-{lang}-desktop")
