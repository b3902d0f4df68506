"""After Add to cart, a mini-cart sheet opens (issue 12: a toast was the only feedback): the
cart's lines, subtotal, the free-shipping nudge, Checkout and View cart; focus moves into it and
back to the button when it closes."""

import pytest

from catalog.models import Category, Product
from tests.browser.conftest import DESKTOP, PHONE, islands_ready

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def tea(db):
    category = Category.objects.create(slug="black-tea", name="Black Tea", name_ar="شاي أسود")
    return Product.objects.create(slug="kenya-black-250", title="Kenya Black Tea 250 g",
                                  title_ar="شاي كيني أسود 250 جم",
                                  price_amount="300.00", category=category, stock=9)


@pytest.mark.parametrize("viewport, size", [(PHONE, "phone"), (DESKTOP, "desktop")], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_add_to_cart_opens_the_mini_cart_and_gives_focus_back(new_page, screenshot, tea, viewport, size, locale,
                                                              prefix, lang):
    # given
    page = new_page(viewport=viewport, locale=locale)
    page.goto(f"{prefix}/product/{tea.slug}")
    islands_ready(page, "add-to-cart")
    page.get_by_role("button", name="زيادة الكمية" if lang == "ar" else "Increase quantity").click()
    # when
    page.locator(".add-to-cart__button").click()
    # then the sheet shows the line, the subtotal and how far free shipping is, with focus inside
    sheet = page.locator(".mini-cart[open]")
    sheet.wait_for()
    text = sheet.inner_text()
    assert ("شاي كيني أسود" if lang == "ar" else "Kenya Black Tea") in text and "×\u00a02" in text  # kept together
    assert "600.00" in text and "400.00" in text  # subtotal, and E£400 more for free shipping (threshold 1,000)
    assert page.evaluate("document.querySelector('.mini-cart').contains(document.activeElement)")
    box = sheet.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 1
    page.screenshot(path=f"test-artifacts/mini-cart-{lang}-{size}.png")
    checkout = sheet.get_by_role("link", name="إتمام الطلب" if lang == "ar" else "Checkout")
    assert checkout.get_attribute("href") == f"{prefix}/checkout"
    view_cart = sheet.get_by_role("link", name="عرض السلة" if lang == "ar" else "View cart")
    assert view_cart.get_attribute("href") == f"{prefix}/cart"
    # when it is closed with Escape
    page.keyboard.press("Escape")
    # then focus is back on Add to cart
    page.locator(".mini-cart").wait_for(state="detached")
    assert page.evaluate("document.activeElement.classList.contains('add-to-cart__button')")
