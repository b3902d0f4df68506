"""The staff dashboard's layout, measured in Chromium: nothing runs past a 360 px phone's edge, an order number is
never broken at its hyphens, and the permission matrix fits the phone instead of scrolling the page sideways."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.staff_pages import open_island, signed_in
from tests.factories import make_order, make_product

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = [("en-US", "", "en"), ("ar-EG", "/ar", "ar")]

# the page itself never scrolls sideways
PAGE_OVERFLOW_JS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"

# what in `selector` reaches past the screen's edges (a box wider than the screen runs past both)
PAST_THE_EDGES_JS = """(selector) => [...document.querySelectorAll(selector)].filter((el) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && (r.left < -0.5 || r.right > innerWidth + 0.5);
}).map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().left)}..`
  + `${Math.round(el.getBoundingClientRect().right)}`)"""

# every element matched whose text takes more than one line (a hyphen break makes two)
BROKEN_JS = """(selector) => [...document.querySelectorAll(selector)].filter((el) => {
  const text = document.createRange();
  text.selectNodeContents(el);
  const tops = [...text.getClientRects()].filter((r) => r.width > 0).map((r) => r.top);
  return tops.length && Math.max(...tops) - Math.min(...tops) > 4;
}).map((el) => el.textContent)"""

# a scroll box whose content is wider than it: [scrollWidth, clientWidth] when so
WIDER_THAN_ITS_BOX_JS = """(selector) => { const el = document.querySelector(selector);
  return el.scrollWidth > el.clientWidth + 1 ? [el.scrollWidth, el.clientWidth] : null; }"""


def _orders():
    tea = make_product(title="Kericho Gold Premium Black Tea", price="450.00", stock=20)
    cod = make_order(lines=[(tea, 2)], payment_status="cod", status="processing")
    card = make_order(lines=[(tea, 1)], payment_status="paid", status="shipped")
    return cod, card


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES)
def test_the_order_dialog_fits_a_360_px_phone(new_page, live_server, manager, screenshot, locale, prefix, lang):
    # given
    order, _ = _orders()
    page = signed_in(new_page, live_server, manager, viewport=PHONE, locale=locale, has_touch=True, is_mobile=True)
    open_island(page, f"{prefix}/admindash/orders", "admin-orders")
    # when
    page.locator(f"tr[data-row-id='{order.pk}']").get_by_role("button", name=order.number).click()
    dialog = page.get_by_role("dialog", name=order.number)
    expect(dialog.locator(".admin-b-detail")).to_be_visible()
    screenshot(page, f"staff-order-dialog-360-{lang}")
    # then the panel and all it holds stay on the screen; a table too wide scrolls in its own box
    inside = ".admin-dialog__panel, .admin-dialog__panel *:not(.admin-table__scroll *)"
    assert page.evaluate(PAST_THE_EDGES_JS, inside) == []
    assert page.evaluate(WIDER_THAN_ITS_BOX_JS, ".admin-dialog__panel") is None
    assert page.evaluate(WIDER_THAN_ITS_BOX_JS, ".admin-dialog__body") is None
    assert page.evaluate(PAGE_OVERFLOW_JS) <= 0
    # and the items table fits too: every price in sight without scrolling it
    assert page.evaluate(WIDER_THAN_ITS_BOX_JS, ".admin-dialog__body .admin-table__scroll") is None


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES)
@pytest.mark.parametrize("viewport, tag", [(DESKTOP, "1280"), (PHONE, "360")])
def test_an_order_number_is_never_broken_at_its_hyphens(new_page, live_server, manager, screenshot, locale, prefix,
                                                        lang, viewport, tag):
    # given
    order, card = _orders()
    page = signed_in(new_page, live_server, manager, viewport=viewport, locale=locale)
    # when
    open_island(page, f"{prefix}/admindash/orders", "admin-orders")
    numbers = page.locator("tr[data-row-id] .admin-order-number")
    expect(numbers).to_have_count(2)
    screenshot(page, f"staff-orders-numbers-{tag}-{lang}")
    # then in the list
    assert page.evaluate(BROKEN_JS, "tr[data-row-id] .admin-order-number") == []
    assert page.evaluate(PAST_THE_EDGES_JS, ".admin-layout *") == []
    # a whole row, its status menu too, without scrolling the table (a card each on a phone)
    assert page.evaluate(WIDER_THAN_ITS_BOX_JS, ".admin-table__scroll:has(tr[data-row-id])") is None
    # and in the titles naming one order, isolated left to right inside an Arabic one
    page.locator(f"tr[data-row-id='{order.pk}']").get_by_role("button", name=order.number).click()
    title = page.get_by_role("dialog").locator("h2 bdi.admin-order-number[dir=ltr]")
    expect(title).to_have_text(order.number)
    screenshot(page, f"staff-order-dialog-title-{tag}-{lang}")
    assert page.evaluate(BROKEN_JS, "[role=dialog] .admin-order-number") == []
    page.keyboard.press("Escape")
    page.locator(f"tr[data-row-id='{card.pk}'] select").select_option("delivered")
    expect(page.get_by_role("dialog").locator("h2 .admin-order-number")).to_have_text(card.number)
    assert page.evaluate(BROKEN_JS, "[role=dialog] .admin-order-number") == []


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES)
@pytest.mark.parametrize("width", [360, 320])
def test_the_permission_matrix_fits_a_phone_and_never_scrolls_the_page(new_page, live_server, owner, screenshot,
                                                                      locale, prefix, lang, width):
    # given
    page = signed_in(new_page, live_server, owner, viewport={"width": width, "height": 740}, locale=locale,
                     has_touch=True, is_mobile=True)
    # when
    open_island(page, f"{prefix}/admindash/roles", "admin-roles")
    matrix = page.locator(".admin-matrix")
    expect(matrix.locator("tbody tr").first).to_be_visible()
    matrix.scroll_into_view_if_needed()
    screenshot(page, f"staff-roles-matrix-{width}-{lang}")
    # then every role's column is on the screen, inside the matrix's own box
    box = ".admin-table__scroll:has(> .admin-matrix)"
    assert page.evaluate(WIDER_THAN_ITS_BOX_JS, box) is None
    assert page.evaluate(PAST_THE_EDGES_JS, ".admin-matrix, .admin-matrix th, .admin-matrix td") == []
    assert page.evaluate(PAGE_OVERFLOW_JS) <= 0
