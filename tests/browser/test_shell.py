"""The page shell in a real browser: languages, the cart badge island, maintenance."""

import pytest
from playwright.sync_api import expect

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


def test_the_cart_badge_follows_the_cart_without_react_before_it_changes(new_page):
    page = new_page()
    scripts = []
    page.on("response", lambda response: scripts.append(response) if response.url.endswith(".js") else None)
    page.goto("/")
    page.wait_for_load_state("networkidle")
    # the home page's only eager island was the cart count: now nothing on it needs react-dom yet
    assert not any(b"hydrateRoot" in response.body() for response in scripts), [r.url for r in scripts]
    # a cart change announced on the page (as the cart's islands do) mounts it with the new count
    page.evaluate("""window.dispatchEvent(new CustomEvent("shop:cart-updated", {detail: {itemCount: 2}}))""")
    page.locator('[data-island="cart-badge"][data-mounted="true"]').wait_for(state="attached")
    expect(page.locator('[data-island="cart-badge"] .badge')).to_have_text("2")
    expect(page.locator('[data-island="cart-badge"] .visually-hidden')).to_have_text("2 items in cart")
    # and every later one renders it again
    page.evaluate("""window.dispatchEvent(new CustomEvent("shop:cart-updated", {detail: {itemCount: 5}}))""")
    expect(page.locator('[data-island="cart-badge"] .badge')).to_have_text("5")


CART_UPDATED = """(count) => window.dispatchEvent(new CustomEvent("shop:cart-updated", {detail: {itemCount: count}}))"""


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_an_empty_cart_shows_no_count_on_the_header_cart(new_page, screenshot, lang, viewport):
    empty = {"en": "0 items in cart", "ar": "السلة فارغة"}[lang]
    size = "phone" if viewport is PHONE else "desktop"
    # given a first visit: the cart is empty
    prefix = "/ar" if lang == "ar" else ""
    page = new_page(viewport=viewport, locale="ar-EG" if lang == "ar" else "en-US")
    page.goto(f"{prefix}/")
    cart = page.locator(".site-header .cart-link")
    # then the cart icon shows no number (the server's count), though its name still says it is empty
    expect(cart.locator(".badge:visible")).to_have_count(0)
    expect(cart.locator(".visually-hidden")).to_have_text(empty)
    screenshot(page, f"shell-empty-cart-{lang}-{size}")
    # when a tea goes in, the count shows
    page.evaluate(CART_UPDATED, 1)
    expect(cart.locator(".badge:visible")).to_have_text("1")
    # and when the cart is emptied again (the island's own rendering), it goes away again
    page.evaluate(CART_UPDATED, 0)
    expect(cart.locator(".badge:visible")).to_have_count(0)
    expect(cart.locator(".visually-hidden")).to_have_text(empty)


def test_the_mobile_drawer_opens_with_sign_in_and_register(new_page, screenshot):
    page = new_page(viewport=PHONE)
    page.goto("/")
    page.get_by_role("button", name="Open menu").click()
    drawer = page.locator("#drawer")
    assert drawer.get_by_role("link", name="Sign In").is_visible()
    assert drawer.get_by_role("link", name="Register").is_visible()
    screenshot(page, "shell-drawer-en-phone")


@pytest.mark.parametrize("prefix", ["", "/ar"])
def test_the_open_drawer_keeps_keyboard_focus_and_escape_returns_it_to_the_menu_button(new_page, prefix):
    page = new_page(viewport=PHONE, locale="ar-EG" if prefix else "en-US")
    page.goto(f"{prefix}/shop")
    opener = page.locator("[data-drawer-open]")
    opener.click()
    inside = "() => document.getElementById('drawer').contains(document.activeElement)"
    # Tab past the last item and Shift+Tab past the first stay inside the menu
    for _ in range(40):
        page.keyboard.press("Tab")
        assert page.evaluate(inside)
    for _ in range(3):
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(inside)
    # Escape closes it and focus is back on the menu button
    page.keyboard.press("Escape")
    expect(page.locator("#drawer")).to_be_hidden()
    expect(opener).to_be_focused()


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
