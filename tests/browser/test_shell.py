"""The page shell in a real browser: languages, the cart badge island, maintenance."""

import pytest

from shop.store_settings import store_settings_update
from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_renders_home_in_english_and_arabic(new_page, screenshot):
    page = new_page(viewport=DESKTOP)
    page.goto("/")
    assert page.locator("html").get_attribute("dir") == "ltr"
    assert page.get_by_role("link", name="Shop Now").is_visible()
    screenshot(page, "shell-home-en-desktop")

    page = new_page(viewport=PHONE, locale="ar-EG")
    page.goto("/")  # the Arabic browser is sent to /ar/
    assert page.url.endswith("/ar/")
    assert page.locator("html").get_attribute("dir") == "rtl"
    assert page.locator("html").get_attribute("lang") == "ar"
    assert page.get_by_role("link", name="تسوق الآن").is_visible()
    screenshot(page, "shell-home-ar-phone")


def test_the_language_toggle_switches_and_is_remembered(new_page):
    page = new_page()
    page.goto("/")
    page.locator(".site-header__actions .lang-toggle").click()
    page.wait_for_url("**/ar/")
    assert page.locator("html").get_attribute("dir") == "rtl"
    page.goto("/")  # the cookie now sends / to /ar/
    assert page.url.endswith("/ar/")
    page.locator(".site-header__actions .lang-toggle").click()
    page.wait_for_url(lambda url: not url.rstrip("/").endswith("/ar"))
    assert page.locator("html").get_attribute("dir") == "ltr"


def test_the_cart_badge_island_mounts(new_page):
    page = new_page()
    page.goto("/")
    badge = page.locator('[data-island="cart-badge"][data-mounted="true"] .badge')
    badge.wait_for()
    assert badge.inner_text() == "0"


def test_the_mobile_drawer_opens_with_sign_in_and_register(new_page, screenshot):
    page = new_page(viewport=PHONE)
    page.goto("/")
    page.get_by_role("button", name="Open menu").click()
    drawer = page.locator("#drawer")
    assert drawer.get_by_role("link", name="Sign In").is_visible()
    assert drawer.get_by_role("link", name="Register").is_visible()
    screenshot(page, "shell-drawer-en-phone")


def test_maintenance_mode_hides_the_storefront(new_page, screenshot):
    store_settings_update(maintenance_mode=True)
    page = new_page()
    response = page.goto("/")
    assert response.status == 503
    assert page.get_by_role("heading", name="Site Under Maintenance").is_visible()
    assert page.locator(".site-header").count() == 0
    page = new_page(locale="ar")
    page.goto("/ar/")
    assert page.get_by_role("heading", name="الموقع قيد الصيانة").is_visible()
    screenshot(page, "shell-maintenance-ar")
