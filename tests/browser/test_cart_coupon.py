"""The coupon applied at checkout is on the cart page too (its code, discount and the total after it, from
the server), and the cart can take it off: going back to the cart no longer looks as if it were lost."""

from decimal import Decimal

import pytest

from orders.models import Coupon
from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)


def _add(page, product, quantity):
    page.evaluate("""([id, quantity]) => fetch('/api/cart/items', {method: 'POST', credentials: 'same-origin',
        headers: {'Content-Type': 'application/json',
          'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || ''},
        body: JSON.stringify({productId: id, quantity})})""", [product.pk, quantity])


def _coupon_applied_at_checkout(page, prefix, tea):
    """A cart of one E£300 tea, and SAVE50 (E£50 off) applied on the checkout page."""
    Coupon.objects.create(code="SAVE50", type="fixed", value=Decimal("50.00"))
    page.goto(f"{prefix}/")
    _add(page, tea, 1)
    page.goto(f"{prefix}/checkout")
    page.locator('[data-island="checkout"][data-mounted="true"]').wait_for(state="attached")
    page.fill("#co-couponCode", "save50")
    page.locator(".coupon__row button").click()
    page.locator(".summary__row--discount").wait_for()


@pytest.mark.parametrize("viewport, size", [(PHONE, "phone"), (DESKTOP, "desktop")], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_the_coupon_applied_at_checkout_shows_on_the_cart_and_comes_off_there(new_page, screenshot, teas, viewport,
                                                                               size, locale, prefix, lang):
    page = new_page(viewport=viewport, locale=locale)
    # given the coupon applied at checkout
    _coupon_applied_at_checkout(page, prefix, teas[0])
    # when the shopper goes back to the cart
    page.goto(f"{prefix}/cart")
    page.locator('[data-island="cart"][data-mounted="true"]').wait_for(state="attached")
    # then its code, its discount and the total after it show
    discount = page.locator(".cart-summary .summary__row--discount")
    assert "SAVE50" in discount.inner_text()
    assert ("50.00" in discount.inner_text()) and ("-" in discount.inner_text())
    total = page.get_by_test_id("summary-total").inner_text()
    assert total == ("300.00\u00a0ج.م" if lang == "ar" else "E£300.00")  # 300 - 50 + 50 shipping
    screenshot(page, f"cart-coupon-{lang}-{size}")
    # and "Remove coupon" takes it off, here and for the checkout
    remove = page.get_by_test_id("remove-coupon")
    assert remove.inner_text() == ("إزالة القسيمة" if lang == "ar" else "Remove coupon")
    remove.click()
    discount.wait_for(state="detached")
    assert page.get_by_test_id("summary-total").inner_text() == ("350.00\u00a0ج.م" if lang == "ar" else "E£350.00")
    assert page.evaluate("() => document.activeElement.tagName") == "H2"
    screenshot(page, f"cart-coupon-removed-{lang}-{size}")
    page.goto(f"{prefix}/checkout")
    page.locator('[data-island="checkout"][data-mounted="true"]').wait_for(state="attached")
    assert page.input_value("#co-couponCode") == "" and page.locator(".summary__row--discount").count() == 0


@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_the_coupon_of_a_declined_card_payment_shows_on_the_cart_again(new_page, screenshot, teas, locale, prefix,
                                                                       lang):
    from orders.models import Order, PaymentStatus
    from tests.browser.test_payment_retry import decline_a_card_payment

    page = new_page(viewport=PHONE, locale=locale)
    # given a card payment declined for an order placed with the coupon applied at checkout
    _coupon_applied_at_checkout(page, prefix, teas[0])
    decline_a_card_payment(page, prefix)
    assert Order.objects.get().coupon_code == "SAVE50"
    assert Order.objects.get().payment_status == PaymentStatus.FAILED
    # when the shopper goes to the cart instead of trying again
    page.goto(f"{prefix}/cart")
    page.locator('[data-island="cart"][data-mounted="true"]').wait_for(state="attached")
    # then the coupon, its discount and the total after it show, as the checkout will take them
    assert "SAVE50" in page.locator(".cart-summary .summary__row--discount").inner_text()
    assert page.get_by_test_id("summary-total").inner_text() == ("300.00\u00a0ج.م" if lang == "ar" else "E£300.00")
    screenshot(page, f"cart-coupon-after-declined-card-{lang}-phone")
