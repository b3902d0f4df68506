"""An order's number ("NHT-261130-6C34B0") is one word on every storefront page that shows it: on a 320 px
phone, in Arabic as in English, it never breaks at its hyphens, and reads left to right inside an Arabic
sentence (shop_tags.order_number, main.css .nowrap; the staff dashboard's is OrderNumber.jsx)."""

import pytest

from orders.models import Order
from tests.browser.settle import place_order, settle
from tests.browser.storefront_pages import sign_in
from tests.browser.test_kiosk_checkout import order_awaiting_kiosk_cash
from tests.browser.test_payment_retry import TYPED, add_to_cart, tea  # noqa: F401 (the fixture)
from tests.factories import make_order_history

pytestmark = pytest.mark.django_db(transaction=True)

NARROW = {"width": 320, "height": 640}

# each element showing `number`: its text, its direction, whether it may wrap, and its lines (one box per line)
WHOLE_JS = """(number) => [...document.querySelectorAll('bdi')]
  .filter((el) => el.textContent.trim() === number)
  .map((el) => ({dir: getComputedStyle(el).direction, wrap: getComputedStyle(el).whiteSpace,
                 lines: el.getClientRects().length}))"""


def assert_whole(page, number, where):
    shown = page.evaluate(WHOLE_JS, number)
    assert shown, f"{where}: {number} not shown on its own"
    assert all(s == {"dir": "ltr", "wrap": "nowrap", "lines": 1} for s in shown), (where, shown)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= NARROW["width"], where


@pytest.mark.parametrize("locale, prefix", [("ar-EG", "/ar"), ("en-US", "")], ids=["ar", "en"])
def test_the_order_number_is_one_left_to_right_word_on_a_narrow_phone(new_page, live_server, tea,  # noqa: F811
                                                                       alice, locale, prefix):
    page = new_page(viewport=NARROW, locale=locale)
    page.goto(f"{prefix}/")
    add_to_cart(page, tea, 2)
    # the card order awaiting kiosk cash: its test payment page, then the checkout's notice
    held = order_awaiting_kiosk_cash(page, prefix)
    assert_whole(page, held.number, "test payment page")
    page.goto(f"{prefix}/checkout?pay=cod")
    settle(page)
    page.get_by_test_id("checkout-kiosk").wait_for()
    assert_whole(page, held.number, "checkout kiosk notice")
    # a card order paid on the test page: the payment return page, the thank-you page, the tracking page
    page.get_by_test_id("kiosk-cancel").click()
    page.wait_for_url(f"**{prefix}/checkout?pay=cod")
    page.goto(f"{prefix}/checkout")
    page.locator("#co-email").wait_for()
    for selector, value in TYPED.items():
        page.fill(selector, value)
    page.select_option("#co-state", "Giza")
    page.locator("input[name=paymentMethod][value=sandbox]").check()
    place_order(page)
    page.locator("button[value=pay]").click()
    page.locator("[data-state=success] [data-testid=order-number]").wait_for()
    paid = Order.objects.exclude(pk=held.pk).get()
    assert_whole(page, paid.number, "payment return page")
    page.goto(f"{prefix}/thankyou?order={paid.number}")
    page.get_by_test_id("order-number").wait_for()
    assert_whole(page, paid.number, "thank-you page")
    page.get_by_test_id("track-link").click()
    page.get_by_test_id("track-number").wait_for()
    assert_whole(page, paid.number, "tracking page")
    # a customer's orders on their account page
    orders = make_order_history(user=alice, count=2)
    sign_in(page, live_server, alice)
    page.goto(f"{prefix}/account")
    for order in orders:
        assert_whole(page, order.number, "account's order list")
