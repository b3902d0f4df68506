"""A card order awaiting cash at an Aman or Masary outlet is never cancelled by "Pay on delivery instead": the
checkout names it with its reference, and the shopper cancels it themselves to pay on delivery."""

import pytest

from orders.models import Order, PaymentEvent
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.settle import place_order, settle, track_writes
from tests.browser.test_payment_retry import TYPED, add_to_cart, tea  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db(transaction=True)

TEXT = {"en": {"cancel": "Cancel this order", "cancelled": "is cancelled"},
        "ar": {"cancel": "ألغِ هذا الطلب", "cancelled": "أُلغي الطلب"}}


def order_awaiting_kiosk_cash(page, prefix):
    """Place a card (test-page) order of the cart and record its payment as Paymob reports a kiosk one."""
    track_writes(page)
    page.goto(f"{prefix}/checkout")
    page.locator("#co-email").wait_for()
    for selector, value in TYPED.items():
        page.fill(selector, value)
    page.select_option("#co-state", "Giza")
    page.locator("input[name=paymentMethod][value=sandbox]").check()
    place_order(page)
    page.locator("button[value=decline]").wait_for()
    order = Order.objects.get()
    PaymentEvent.objects.create(payment=order.payments.get(), kind="callback-pending", transaction_id="880001",
                                payload={"pending": True, "data": {"bill_reference": 61203455}})
    return order


@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
@pytest.mark.parametrize("viewport, size", [(PHONE, "phone"), (DESKTOP, "desktop")], ids=["phone", "desktop"])
def test_the_shopper_cancels_the_order_awaiting_cash_to_pay_on_delivery(
        new_page, screenshot, tea, locale, prefix, lang, viewport, size):  # noqa: F811
    # given a card order awaiting the shopper's cash at a kiosk
    page = new_page(viewport=viewport, locale=locale)
    page.goto(f"{prefix}/")
    add_to_cart(page, tea, 2)
    order = order_awaiting_kiosk_cash(page, prefix)
    # when they open "Pay on delivery instead"
    page.goto(f"{prefix}/checkout?pay=cod")
    settle(page)
    # then the page names the order and its reference above the form
    notice = page.get_by_test_id("checkout-kiosk")
    assert notice.is_visible() and order.number in notice.inner_text() and "61203455" in notice.inner_text()
    screenshot(page, f"checkout-kiosk-held-{lang}-{size}")
    # when they cancel it
    notice.get_by_role("button", name=TEXT[lang]["cancel"]).click()
    page.wait_for_url(f"**{prefix}/checkout?pay=cod")
    settle(page)
    # then it is cancelled, they are told so, and cash on delivery is chosen for the same cart
    assert TEXT[lang]["cancelled"] in page.get_by_role("status").first.inner_text()
    assert page.get_by_test_id("checkout-kiosk").count() == 0
    assert page.locator("input[name=paymentMethod][value=cod]").is_checked()
    order.refresh_from_db()
    assert order.status == "cancelled"
    screenshot(page, f"checkout-kiosk-cancelled-{lang}-{size}")


OTHER_ITEMS = {"en": "It is for other items than your cart now holds.", "ar": "هذا الطلب لمنتجات غير التي في سلتك الآن"}


@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_an_order_awaiting_cash_for_other_items_is_named_on_a_phone_without_spilling_sideways(
        new_page, screenshot, tea, locale, prefix, lang):  # noqa: F811
    # given a card order awaiting the shopper's cash at a kiosk, then one more tea in their cart
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/")
    add_to_cart(page, tea, 2)
    order = order_awaiting_kiosk_cash(page, prefix)
    page.goto(f"{prefix}/")
    add_to_cart(page, tea, 1)
    # when they open the checkout for the cart, now other than the order's
    page.goto(f"{prefix}/checkout")
    settle(page)
    # then the order is named, said to be for other items, and nothing runs off the screen
    notice = page.get_by_test_id("checkout-kiosk")
    assert order.number in notice.inner_text() and OTHER_ITEMS[lang] in notice.inner_text()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, f"checkout-kiosk-other-items-{lang}-phone")
