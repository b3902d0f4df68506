"""A code refused at checkout after another was applied: the server keeps the coupon applied before (its
summary and the order placed take it), so the page says that one is still applied rather than showing its
discount beside the refusal with nothing to say whose it is."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from orders.models import Coupon, Order
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.settle import place_order
from tests.browser.test_checkout import _add_to_cart, _fill_checkout, _shot

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"applied": "Coupon applied", "invalid": "Invalid coupon code", "expired": "This coupon has expired",
           "still": "Coupon SAVE50 is still applied"},
    "ar": {"applied": "تم تطبيق القسيمة", "invalid": "رمز القسيمة غير صالح", "expired": "انتهت صلاحية هذه القسيمة",
           "still": "لا تزال القسيمة \u2068SAVE50\u2069 مطبّقة"},
}


@pytest.mark.parametrize("viewport, size", [(PHONE, "phone"), (DESKTOP, "desktop")], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_a_refused_code_says_the_coupon_applied_before_is_still_applied_and_the_order_takes_it(
        new_page, screenshot, settings, teas, viewport, size, locale, prefix, lang):
    settings.PAYMENT_PROVIDER, settings.PAYMENT_SANDBOX = "sandbox", False  # cash on delivery only: placed at once
    Coupon.objects.create(code="SAVE50", type="fixed", value=Decimal("50.00"))
    Coupon.objects.create(code="OLD10", type="fixed", value=Decimal("10.00"), expiry_date="2020-01-01T00:00:00Z")
    words = WORDS[lang]
    page = new_page(viewport=viewport, locale=locale)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0])  # E£300
    page.goto(f"{prefix}/checkout")
    page.locator('[data-island="checkout"][data-mounted="true"]').wait_for(state="attached")
    _fill_checkout(page, arabic=lang == "ar")
    # given a coupon applied
    page.fill("#co-couponCode", "save50")
    page.locator(".coupon__row button").click()
    status = page.locator(".coupon [role=status]")
    expect(status).to_have_text(words["applied"])
    discount = page.locator(".checkout-summary .summary__row--discount")
    shown = page.get_by_test_id("summary-total").inner_text()
    for code, refusal in (("nosuch", "invalid"), ("old10", "expired")):
        # when another code is applied and refused (unknown, expired)
        page.fill("#co-couponCode", code)
        page.locator(".coupon__row button").click()
        # then the refusal shows at the field, and the page says whose discount the summary still shows
        expect(page.locator("#co-couponCode-error")).to_have_text(words[refusal])
        expect(status).to_have_text(words["still"])
        assert "SAVE50" in discount.inner_text()
        assert page.get_by_test_id("summary-total").inner_text() == shown
    _shot(screenshot, page, f"checkout-coupon-refused-{lang}-{size}")
    # and the order placed is what the page shows: with the coupon still applied, at the total shown
    place_order(page)
    page.wait_for_url("**/thankyou")
    order = Order.objects.get()
    assert (order.coupon_code, order.discount_amount) == ("SAVE50", Decimal("50.00"))
    assert f"{order.total_amount:,}" in shown
