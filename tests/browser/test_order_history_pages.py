"""The account's order history a page at a time, on a phone and a desktop, in English and Arabic."""

import pytest

from tests.browser.conftest import ARTIFACTS, DESKTOP, PHONE
from tests.browser.storefront_pages import sign_in
from tests.factories import make_order_history

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(("prefix", "viewport", "name"), [
    ("", PHONE, "en-phone"), ("", DESKTOP, "en-desktop"), ("/ar", PHONE, "ar-phone"), ("/ar", DESKTOP, "ar-desktop"),
])
def test_the_pager_reads_the_way_the_page_does_and_stays_on_the_orders(new_page, live_server, alice, prefix,
                                                                         viewport, name):
    # given a customer with three pages of orders, on the second
    orders = make_order_history(user=alice, count=25)
    page = new_page(viewport=viewport)
    sign_in(page, live_server, alice)
    page.goto(f"{prefix}/account?page=2")
    pager = page.locator("[data-orders-pager]")
    pager.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"accounts-orders-pager-{name}.png"))

    # then Previous is at the start of the line (left in English, right in Arabic) and Next at its end,
    # and nothing spills past the screen's edge
    previous, status, following = (pager.locator(sel).bounding_box()
                                   for sel in (".orders-pager__prev", ".orders-pager__status", ".orders-pager__next"))
    boxes = [previous, status, following] if prefix == "" else [following, status, previous]
    assert boxes[0]["x"] + boxes[0]["width"] <= boxes[1]["x"]
    assert boxes[1]["x"] + boxes[1]["width"] <= boxes[2]["x"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]

    # when they go on to the oldest orders
    pager.locator(".orders-pager__next").click()

    # then the page opens at the order history, its heading in sight below the sticky header, with the last five orders
    page.wait_for_url(f"**{prefix}/account?page=3#orders-heading")
    assert page.locator("[data-order]").evaluate_all("cards => cards.map(c => c.dataset.order)") == [
        order.number for order in orders[20:]]
    heading = page.evaluate("() => document.getElementById('orders-heading').getBoundingClientRect().top")
    header = page.evaluate("() => document.querySelector('.site-header').getBoundingClientRect().bottom")
    assert header <= heading < header + 100
    page.screenshot(path=str(ARTIFACTS / f"accounts-orders-page3-{name}.png"))
