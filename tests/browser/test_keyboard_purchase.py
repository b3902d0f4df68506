"""A purchase with the keyboard alone (issue 12): from the home page to the thank-you page with
Tab, Shift+Tab, Enter, Space, arrow keys and typing, cash on delivery, in English and Arabic.
No click and no fill: every step goes through what has focus."""

from decimal import Decimal

import pytest

from catalog.models import Category, Product
from orders.models import Order, PaymentStatus
from tests.browser.conftest import DESKTOP, PHONE, islands_ready
from tests.browser.settle import settle

pytestmark = pytest.mark.django_db(transaction=True)

MAX_TABS = 120


@pytest.fixture
def tea(db):
    category = Category.objects.create(slug="black-tea", name="Black Tea", name_ar="شاي أسود")
    return Product.objects.create(slug="kericho-gold", title="Kericho Gold 250 g", title_ar="كريتشو جولد 250 جم",
                                  price_amount=Decimal("300.00"), stock=10, category=category, is_featured=True)


def tab_to(page, selector):
    """Press Tab until the focused element matches `selector`; fail if it never does."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}; stuck on "
                         + page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)"))


def type_into(page, selector, text):
    tab_to(page, selector)
    page.keyboard.type(text)


@pytest.mark.parametrize("viewport, size", [(DESKTOP, "desktop"), (PHONE, "phone")], ids=["desktop", "phone"])
@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_a_keyboard_only_purchase_with_cash_on_delivery(new_page, tea, locale, prefix, lang, viewport, size):
    page = new_page(viewport=viewport, locale=locale)
    # home: Tab to the featured tea and open it
    page.goto(f"{prefix}/")
    tab_to(page, ".product-card__title a")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{prefix}/product/{tea.slug}")
    islands_ready(page, "add-to-cart")
    # product: one more with the stepper's +, then Add to cart with Space
    tab_to(page, ".stepper button:last-child")
    page.keyboard.press("Enter")
    assert page.locator(".stepper input").input_value() == "2"
    tab_to(page, ".add-to-cart__button")
    page.keyboard.press("Space")
    # the mini-cart takes focus; Tab to its Checkout link
    page.locator(".mini-cart[open]").wait_for()
    tab_to(page, f'.mini-cart a[href="{prefix}/checkout"]')
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{prefix}/checkout")
    page.locator("#co-email").wait_for()
    # checkout: type every required field in order
    type_into(page, "#co-email", "mona@example.com")
    type_into(page, "#co-phone", "01012345678")
    type_into(page, "#co-firstName", "Mona")
    type_into(page, "#co-lastName", "Ali")
    type_into(page, "#co-street", "12 Nile Street")
    type_into(page, "#co-city", "Cairo")
    # the governorate list: type-ahead on the focused select in English; in Arabic the arrow keys
    # (Chromium's type-ahead does not take the Arabic text Playwright types)
    if lang == "en":
        type_into(page, "#co-state", "Giza")
    else:
        tab_to(page, "#co-state")
        for _ in range(30):
            if page.locator("#co-state").input_value() == "Giza":
                break
            page.keyboard.press("ArrowDown")
    assert page.locator("#co-state").input_value() == "Giza"
    # payment: Tab reaches the chosen method; the arrow keys move to cash on delivery
    tab_to(page, "input[name=paymentMethod]:checked")
    for _ in range(5):
        if page.locator("input[name=paymentMethod][value=cod]").is_checked():
            break
        page.keyboard.press("ArrowDown")
    assert page.locator("input[name=paymentMethod][value=cod]").is_checked()
    page.wait_for_function("() => /Place Order|إتمام الطلب|تأكيد الطلب/i.test("
                           "document.querySelector('[data-testid=place-order]').textContent)")
    settle(page)  # each method or governorate change refreshes the summary
    tab_to(page, "[data-testid=place-order]")
    page.keyboard.press("Enter")
    # then the thank-you page, and the order is cash on delivery for two teas
    page.wait_for_url(f"**{prefix}/thankyou")
    order = Order.objects.get()
    assert order.payment_status == PaymentStatus.COD
    assert order.items.get().quantity == 2
    assert page.get_by_test_id("order-number").text_content() == order.number
