"""Product page on a phone (issue 12: price and Add to cart sat below the fold): a sticky bar with
the title, the price and Add to cart shows while the main button is out of view and hides when
it is in view again. Desktop has no bar."""

from decimal import Decimal

import pytest

from catalog.models import Category, Product
from tests.browser.conftest import ARTIFACTS, DESKTOP, PHONE, islands_ready

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def tea(db):
    category = Category.objects.create(slug="black-tea", name="Black Tea", name_ar="شاي أسود")
    return Product.objects.create(
        slug="kenya-black-250", title="Kenya Black Tea 250 g", title_ar="شاي كيني أسود 250 جم",
        price_amount=Decimal("300.00"), category=category, stock=9,
        description="A brisk, bright cup.\n\n" * 40, description_ar="كوب منعش.\n\n" * 40,
    )


@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_the_sticky_bar_follows_the_main_button_on_a_phone(new_page, screenshot, tea, locale, prefix, lang):
    # given the product page on a phone
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/product/{tea.slug}")
    islands_ready(page, "add-to-cart")
    bar = page.get_by_test_id("sticky-atc")
    main = page.locator(".add-to-cart__button")
    # when the main button is in view, the bar is away
    main.scroll_into_view_if_needed()
    bar.wait_for(state="hidden")
    # when the shopper scrolls on past it
    page.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
    # then the bar shows the title, the price and Add to cart, at the bottom of the screen
    bar.wait_for(state="visible")
    assert ("شاي كيني أسود 250\u00a0جم" if lang == "ar" else "Kenya Black Tea 250\u00a0g") in bar.inner_text()
    assert ("300.00" in bar.inner_text())
    # once it has slid in, it sits on the bottom edge, the full width of the screen
    page.wait_for_function("() => Math.abs(document.querySelector('.sticky-atc').getBoundingClientRect().bottom"
                           " - window.innerHeight) <= 1")
    box = bar.bounding_box()
    assert abs(box["y"] + box["height"] - PHONE["height"]) <= 1 and box["width"] == PHONE["width"]
    page.screenshot(path=str(ARTIFACTS / f"product-sticky-bar-{lang}-phone.png"))
    # when the bar's Add to cart is pressed, the mini-cart opens with the tea
    bar.get_by_role("button").click()
    sheet = page.locator(".mini-cart[open]")
    sheet.wait_for()
    assert "×\u00a01" in sheet.inner_text()  # the quantity never wraps away from its sign
    page.keyboard.press("Escape")
    sheet.wait_for(state="detached")
    # and focus is back on the button that opened it
    page.wait_for_function("() => document.activeElement.classList.contains('sticky-atc__button')", timeout=5000)
    # when the main button comes back into view, the bar goes
    main.scroll_into_view_if_needed()
    bar.wait_for(state="hidden")
    # and with 3 chosen above, the bar's button says what a tap adds: 3 at their total
    page.locator(".stepper button").last.click()
    page.locator(".stepper button").last.click()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
    bar.wait_for(state="visible")
    assert "900.00" in bar.get_by_role("button").inner_text()


@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_desktop_has_no_sticky_bar(new_page, screenshot, tea, locale, prefix, lang):
    page = new_page(viewport=DESKTOP, locale=locale)
    page.goto(f"{prefix}/product/{tea.slug}")
    islands_ready(page, "add-to-cart")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(300)
    assert not page.get_by_test_id("sticky-atc").is_visible()
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, f"product-{lang}-desktop")
