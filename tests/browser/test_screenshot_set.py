"""The storefront's screenshot set (issue 12), written to test-artifacts/screenshots/ by
`make screenshots` and in every full run: English and Arabic at 360 px and 1280 px of home, shop
with the filters open, product, mini-cart open, cart, checkout with errors, a failed card payment
and the thank-you page (`<page>-<lang>-<phone|desktop>.png`).

One walk a language and width, on the demo catalogue; each step also checks that the page shows
what its picture is meant to show, so a broken step fails instead of taking a blank picture.
"""

import pytest
from django.core.management import call_command

from catalog.models import Product
from tests.browser.conftest import ARTIFACTS, DESKTOP, PHONE, islands_ready
from tests.browser.settle import place_order

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = ARTIFACTS / "screenshots"
PAGES = ("home", "shop-filters", "product", "mini-cart", "cart", "checkout-errors", "payment-failed", "thankyou")


@pytest.fixture
def catalogue(db):
    call_command("seed_demo", verbosity=0)
    return Product.objects.filter(is_active=True, stock__gt=1).order_by("-is_featured", "pk").first()


def _shot(page, name, lang, size, *, whole=True):
    SHOTS.mkdir(parents=True, exist_ok=True)
    if whole:
        page.evaluate("window.scrollTo(0, 0)")  # the sticky header on top of a full-page picture
    page.wait_for_timeout(250)  # transitions (sheets, sticky bar) come to rest
    path = SHOTS / f"{name}-{lang}-{size}.png"
    page.screenshot(path=str(path), full_page=whole)
    return path


@pytest.mark.parametrize("viewport, size", [(PHONE, "phone"), (DESKTOP, "desktop")], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_the_screenshot_set(new_page, catalogue, locale, prefix, lang, viewport, size):
    page = new_page(viewport=viewport, locale=locale)
    taken = []

    # home
    page.goto(f"{prefix}/")
    taken.append(_shot(page, "home", lang, size))
    # shop with the filters open: the sheet on a phone, the sidebar on a desktop
    page.goto(f"{prefix}/shop")
    islands_ready(page, "shop-filters")
    if size == "phone":
        page.locator(".shop-filters__toggle").click()
        page.get_by_role("dialog").wait_for()
        taken.append(_shot(page, "shop-filters", lang, size, whole=False))
    else:
        assert page.locator("input[name=category]").first.is_visible()
        taken.append(_shot(page, "shop-filters", lang, size))
    # product, then Add to cart opens the mini-cart
    page.goto(f"{prefix}/product/{catalogue.slug}")
    islands_ready(page, "add-to-cart")
    # a phone's first screen: the sticky Add to cart bar while the main button is below the fold
    taken.append(_shot(page, "product", lang, size, whole=size == "desktop"))
    page.locator(".add-to-cart__button").click()
    page.locator(".mini-cart[open]").wait_for()
    taken.append(_shot(page, "mini-cart", lang, size, whole=False))
    page.keyboard.press("Escape")
    # cart
    page.goto(f"{prefix}/cart")
    page.locator("[data-island=cart][data-mounted]").wait_for()
    taken.append(_shot(page, "cart", lang, size))
    # checkout sent empty: every field's error at once
    page.goto(f"{prefix}/checkout")
    page.locator("#co-email").wait_for()
    place_order(page)
    page.locator(".field--error").first.wait_for()
    assert page.locator(".field--error").count() >= 6
    taken.append(_shot(page, "checkout-errors", lang, size))
    # a declined test card payment: the failed page with Try again and Pay on delivery instead
    page.fill("#co-email", "mona@example.com")
    page.fill("#co-phone", "01012345678")
    page.fill("#co-firstName", "Mona")
    page.fill("#co-lastName", "Ali")
    page.fill("#co-street", "12 Nile Street")
    page.fill("#co-city", "Cairo")
    page.select_option("#co-state", "Giza")
    page.locator("input[name=paymentMethod][value=sandbox]").check()
    place_order(page)  # once the summary has followed the governorate and the method
    page.locator("button[value=decline]").click()
    failed = page.locator("[data-state=failed]")
    failed.wait_for()
    assert failed.locator("a.button").count() >= 3  # Try again, Pay on delivery instead, Return to cart
    taken.append(_shot(page, "payment-failed", lang, size))
    # Pay on delivery instead: back to the filled form, cash on delivery chosen, then thank you
    failed.locator(f'a[href="{prefix}/checkout?pay=cod"]').click()
    page.locator("#co-email").wait_for()
    assert page.locator("input[name=paymentMethod][value=cod]").is_checked()
    place_order(page)
    page.wait_for_url(f"**{prefix}/thankyou")
    page.get_by_test_id("thankyou").wait_for()
    taken.append(_shot(page, "thankyou", lang, size))

    assert [path.name for path in taken] == [f"{name}-{lang}-{size}.png" for name in PAGES]
    assert all(path.stat().st_size > 5_000 for path in taken)
