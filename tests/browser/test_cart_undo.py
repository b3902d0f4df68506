"""Removing from the cart can be undone (issue 12: "Clear cart" and "−" at quantity 1 deleted at
once): the line goes, a "Removed … Undo" line appears, and Undo restores it through the cart API."""

import time

import pytest
from playwright.sync_api import expect

from catalog.models import Category, Product
from orders.models import Cart
from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def teas(db):
    category = Category.objects.create(slug="black-tea", name="Black Tea", name_ar="شاي أسود")
    return [Product.objects.create(slug=f"tea-{n}", title=f"Kenya Tea {n}, 20 bags", title_ar=f"شاي كيني {n}، 20 كيس",
                                   price_amount="100.00", category=category, stock=9) for n in (1, 2)]


def _add(page, product, quantity):
    page.evaluate("""([id, quantity]) => fetch('/api/cart/items', {method: 'POST', credentials: 'same-origin',
        headers: {'Content-Type': 'application/json',
          'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || ''},
        body: JSON.stringify({productId: id, quantity})})""", [product.pk, quantity])


# taps a few milliseconds apart, each its own task as a finger's are
TAPS = """async (button, count) => {
  for (let tap = 0; tap < count; tap++) { button.click(); await new Promise((done) => setTimeout(done, 20)); }
}"""


def _quantities():
    return {line.product.slug: line.quantity for line in Cart.objects.get().lines.select_related("product")}


def _settles_at(page, quantities, seconds=5):
    """The server's cart reaches `quantities` (the changes after the first go one at a time)."""
    deadline = time.monotonic() + seconds
    while _quantities() != quantities and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # not time.sleep: the page's requests go on meanwhile
    assert _quantities() == quantities


@pytest.mark.parametrize("viewport, size", [(PHONE, "phone"), (DESKTOP, "desktop")], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_minus_at_one_and_clear_cart_can_be_undone(new_page, screenshot, teas, viewport, size, locale, prefix, lang):
    # given a cart with one of the first tea and three of the second
    page = new_page(viewport=viewport, locale=locale)
    page.goto(f"{prefix}/")
    _add(page, teas[0], 1)
    _add(page, teas[1], 3)
    page.goto(f"{prefix}/cart")
    page.locator('[data-island="cart"][data-mounted="true"]').wait_for(state="attached")
    lines = page.locator('[data-testid="cart-line"]')
    assert lines.count() == 2
    # when "−" is pressed on the line at quantity 1
    undo_name = "تراجع" if lang == "ar" else "Undo"
    page.locator('[data-testid="cart-line"]',
                 has=page.locator('a[href$="/product/tea-1"]')).locator(".qty__btn").first.click()
    # then the line goes, with an undo offer naming it
    undo = page.locator(".cart-undo")
    undo.wait_for()
    assert lines.count() == 1 and _quantities() == {"tea-2": 3}
    assert ("شاي كيني 1" if lang == "ar" else "Kenya Tea 1") in undo.inner_text()
    screenshot(page, f"cart-undo-removed-{lang}-{size}")
    # and Undo restores it through the cart API
    undo.get_by_role("button", name=undo_name).click()
    page.locator('[data-testid="cart-line"] >> nth=1').wait_for()
    assert _quantities() == {"tea-1": 1, "tea-2": 3}
    assert page.locator(".cart-undo").count() == 0
    # when the whole cart is cleared
    page.locator(".cart-lines__actions .link-button").click()
    page.locator(".empty-state .cart-undo").wait_for()
    assert not Cart.objects.get().lines.exists()
    screenshot(page, f"cart-undo-cleared-{lang}-{size}")
    # then Undo brings every line back with its quantity
    page.get_by_role("button", name=undo_name).click()
    page.locator('[data-testid="cart-line"] >> nth=1').wait_for()
    assert _quantities() == {"tea-1": 1, "tea-2": 3}
    expect(page.locator('[data-island="cart-badge"] .badge')).to_have_text("4")


@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_the_cart_keeps_keyboard_focus_and_names_each_lines_controls(new_page, teas, locale, prefix, lang):
    # given two teas in the cart, the first at 8 of the 9 in stock
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/")
    _add(page, teas[0], 8)
    _add(page, teas[1], 1)
    page.goto(f"{prefix}/cart")
    page.locator("[data-island=cart][data-mounted]").wait_for()
    first = page.get_by_test_id("cart-line").first
    plus = first.locator(".qty__btn").last
    # then each control is described by its line's title
    described = page.evaluate("(id) => document.getElementById(id).textContent", plus.get_attribute("aria-describedby"))
    assert described.replace("\xa0", " ") == (teas[0].title_ar if lang == "ar" else teas[0].title)
    # when the keyboard raises the first line to the last one in stock
    plus.focus()
    page.keyboard.press("Enter")
    expect(first.get_by_test_id("qty")).to_have_text("9")
    # then focus stayed on +, which now says no more, and the line says how many are left
    assert page.evaluate("() => document.activeElement.classList.contains('qty__btn')")
    assert plus.get_attribute("aria-disabled") == "true"
    expect(first.get_by_test_id("stock-limit")).to_have_text("Only 9 left" if lang == "en" else "تبقّت 9 قطع فقط")
    page.keyboard.press("Enter")
    _settles_at(page, {"tea-1": 9, "tea-2": 1})  # the line shows 9 at once; the server has it a moment later
    # (and the island has its answer: while a change is on its way another is refused, aria-busy says so)
    expect(page.locator(".cart-layout")).to_have_attribute("aria-busy", "false")
    # when the keyboard removes the second line, focus goes to Undo; Undo brings focus back to the line
    second = page.get_by_test_id("cart-line").nth(1)
    second.locator(".cart-line__remove").focus()
    page.keyboard.press("Enter")
    undo = page.locator(".cart-undo button")
    expect(undo).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(f"#cart-line-{teas[1].pk}")).to_be_focused()
    assert _quantities() == {"tea-1": 9, "tea-2": 1}


@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")], ids=["en", "ar"])
def test_quick_taps_on_plus_and_minus_each_count(new_page, teas, locale, prefix):
    # given one of the first tea in the cart
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/")
    _add(page, teas[0], 1)
    page.goto(f"{prefix}/cart")
    page.locator("[data-island=cart][data-mounted]").wait_for()
    line = page.get_by_test_id("cart-line").first
    minus, plus = line.locator(".qty__btn").first, line.locator(".qty__btn").last
    # when + is tapped three times in a row, the later taps while the first change is on its way (the server
    # answers a change after a moment, as on a phone's connection)
    page.route("**/api/cart/items/*", lambda route: (time.sleep(0.3), route.continue_()))
    plus.evaluate(TAPS, 3)
    # then the line shows 4 at once and the server's cart ends at 4
    expect(line.get_by_test_id("qty")).to_have_text("4")
    _settles_at(page, {"tea-1": 4})
    expect(line.get_by_test_id("qty")).to_have_text("4")
    # and two quick taps on − take two away
    minus.evaluate(TAPS, 2)
    expect(line.get_by_test_id("qty")).to_have_text("2")
    _settles_at(page, {"tea-1": 2})
    expect(page.locator('[data-island="cart-badge"] .badge')).to_have_text("2")


@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")], ids=["en", "ar"])
def test_undo_puts_a_removed_line_back_where_it_was(new_page, teas, locale, prefix):
    # given three teas in the cart
    third = Product.objects.create(slug="tea-3", title="Kenya Tea 3, 20 bags", title_ar="شاي كيني 3، 20 كيس",
                                   price_amount="100.00", category=teas[0].category, stock=9)
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/")
    for tea in (*teas, third):
        _add(page, tea, 1)
    page.goto(f"{prefix}/cart")
    page.locator("[data-island=cart][data-mounted]").wait_for()
    titles = page.locator(".cart-line__title")
    order = ["/product/tea-1", "/product/tea-2", "/product/tea-3"]

    def hrefs():
        return [href[href.index("/product/"):] for href in titles.evaluate_all("(links) => links.map((a) => a.href)")]

    assert hrefs() == order
    # when the middle line is removed and Undo pressed
    page.get_by_test_id("cart-line").nth(1).locator(".cart-line__remove").click()
    page.locator(".cart-undo button").click()
    expect(page.locator(".cart-undo")).to_have_count(0)
    # then it is back in the middle, on the page and after a reload
    assert hrefs() == order
    page.reload()
    page.locator("[data-island=cart][data-mounted]").wait_for()
    assert hrefs() == order
    # and the first, removed and put back, is first again
    page.get_by_test_id("cart-line").first.locator(".cart-line__remove").click()
    page.locator(".cart-undo button").click()
    expect(page.locator(".cart-undo")).to_have_count(0)
    assert hrefs() == order
    page.reload()
    page.locator("[data-island=cart][data-mounted]").wait_for()
    assert hrefs() == order


@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")], ids=["en", "ar"])
def test_a_message_about_a_line_goes_with_the_line(new_page, teas, locale, prefix):
    # given a tea at the most one line may hold (20), with more in stock
    Product.objects.filter(pk=teas[0].pk).update(stock=30)
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/")
    _add(page, teas[0], 20)
    _add(page, teas[1], 1)
    page.goto(f"{prefix}/cart")
    page.locator("[data-island=cart][data-mounted]").wait_for()
    line = page.locator('[data-testid="cart-line"]', has=page.locator('a[href$="/product/tea-1"]'))
    # when + asks for a 21st, the shop says no
    line.locator(".qty__btn").last.click()
    toast = page.locator("#toasts .toast")
    expect(toast).to_contain_text("20")
    # then removing that line takes the message with it (well before a toast's 4.5 s)
    line.locator(".cart-line__remove").click()
    expect(page.locator(".cart-undo")).to_be_visible()
    expect(toast).to_have_count(0, timeout=1_500)
