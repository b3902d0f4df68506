"""The whole purchase in Chromium: cart, guest checkout, sandbox Pay/Decline, COD, Arabic."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from catalog.models import Product
from orders.models import Order, PaymentStatus
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.settle import place_order, settle

pytestmark = pytest.mark.django_db(transaction=True)


def _add_to_cart(page, product, quantity=1):
    # exactly what the product page's Add to cart sends (CSRF header from the cookie)
    page.evaluate(
        """([id, q]) => fetch('/api/cart/items', {method: 'POST', headers: {'Content-Type': 'application/json',
             'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || ''},
             body: JSON.stringify({productId: id, quantity: q})}).then(r => r.json())""",
        [product.pk, quantity],
    )


def _shot(screenshot, page, name):
    page.evaluate("window.scrollTo(0, 0)")  # the sticky header stays on top in a full-page shot
    screenshot(page, name)


def _fill_checkout(page, *, arabic=False):
    page.fill("#co-email", "mona@example.com")
    page.fill("#co-phone", "٠١٠١٢٣٤٥٦٧٨" if arabic else "01012345678")
    page.fill("#co-firstName", "Mona")
    page.fill("#co-lastName", "Ali")
    page.fill("#co-street", "12 Nile Street")
    page.fill("#co-city", "Cairo")
    page.select_option("#co-state", "Giza")


def test_a_guest_buys_two_teas_with_the_test_payment(new_page, screenshot, teas):
    # given two teas in the cart
    page = new_page(viewport=DESKTOP)
    page.goto("/")
    _add_to_cart(page, teas[0])
    _add_to_cart(page, teas[1])
    page.goto("/cart")
    page.locator("[data-island=cart][data-mounted]").wait_for()
    page.get_by_role("button", name="Increase quantity").first.click()
    page.wait_for_function("() => document.querySelector('[data-testid=qty]').textContent === '2'")
    expect(page.get_by_text("Add E£200.00 more for free shipping")).to_be_visible()  # once the server answers
    # the header's count mounts at the cart's first change on this page (data-island-on-event): it follows
    expect(page.locator(".site-header .badge").first).to_have_text("3")
    _shot(screenshot, page, "checkout-cart-en-desktop")
    # when checking out as a guest with the sandbox
    page.get_by_role("link", name="Proceed to Checkout").click()
    page.locator("#co-email").wait_for()
    _fill_checkout(page)
    page.get_by_label("Test payment").check()
    _shot(screenshot, page, "checkout-form-en-desktop")
    place_order(page)
    page.get_by_role("button", name="Pay").wait_for()
    assert page.get_by_text("Test payment").first.is_visible()
    assert page.get_by_test_id("sandbox-amount").text_content() == "E£850.00"
    _shot(screenshot, page, "checkout-sandbox-en-desktop")
    page.get_by_role("button", name="Pay").click()
    # then the return page confirms with the server and shows the order
    page.locator("[data-state=success]").wait_for()
    order = Order.objects.get()
    assert order.payment_status == PaymentStatus.PAID
    assert page.get_by_test_id("order-number").text_content() == order.number
    assert page.get_by_test_id("order-total").text_content() == "E£850.00"
    assert page.get_by_test_id("order-email").text_content() == "mona@example.com"
    _shot(screenshot, page, "checkout-success-en-desktop")
    # and its invoice, as the cash-on-delivery thank-you page offers
    with page.expect_download() as download:
        page.get_by_test_id("invoice-link").click()
    assert download.value.suggested_filename.endswith(".pdf")
    assert open(download.value.path(), "rb").read(5) == b"%PDF-"
    # and a guest has a way back to the order other than the e-mail
    page.get_by_test_id("track-link").click()
    page.wait_for_url("**/track/**")
    assert order.number in page.content()
    # and every page's footer leads to tracking too
    assert page.locator(".site-footer").get_by_role("link", name="Track your order").get_attribute("href") == "/track"
    page.goto("/thankyou")
    assert page.get_by_test_id("order-number").text_content() == order.number
    assert page.get_by_test_id("order-delivery").text_content().startswith("Arrives ")  # issue 16: the promised window
    page.goto("/cart")
    assert page.get_by_text("Your cart is empty").is_visible()


def test_a_declined_test_payment_shows_failed_and_puts_stock_back(new_page, screenshot, teas):
    # given
    page = new_page(viewport=PHONE)
    page.goto("/")
    _add_to_cart(page, teas[0], 2)
    page.goto("/checkout")
    page.locator("#co-email").wait_for()
    _fill_checkout(page)
    page.get_by_label("Test payment").check()
    place_order(page)
    # when
    page.get_by_role("button", name="Decline").click()
    # then
    page.locator("[data-state=failed]").wait_for()
    assert page.get_by_role("link", name="Return to Cart").is_visible()
    assert page.get_by_role("link", name="Contact Support").is_visible()
    _shot(screenshot, page, "checkout-failed-en-phone")
    teas[0].refresh_from_db()
    assert teas[0].stock == 10
    assert Order.objects.get().payment_status == PaymentStatus.FAILED


@pytest.mark.parametrize("prefix", ["", "/ar"], ids=["en", "ar"])
def test_a_payment_arriving_after_its_order_expired_is_not_called_a_confirmed_order(new_page, screenshot, teas,
                                                                                    prefix):
    from orders.actions import order_expire_unpaid

    # given a shopper on the test payment page whose order expires before they pay
    page = new_page(viewport=PHONE, locale="ar-EG" if prefix else "en-US")
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0])
    page.goto(f"{prefix}/checkout")
    page.locator("#co-email").wait_for()
    _fill_checkout(page, arabic=bool(prefix))
    page.locator("input[value=sandbox]").check()
    place_order(page)
    pay = page.locator("form button[name=action][value=pay]")
    pay.wait_for()
    order_expire_unpaid(order=Order.objects.get(), note="Unpaid for 30 minutes")
    # when they pay
    pay.click()
    # then the page says the money arrived on a cancelled order, as the e-mail does, never that it ships
    card = page.locator("[data-state=review]")
    card.wait_for()
    text = card.inner_text()
    assert ("تم استلام الدفعة" if prefix else "Payment received") in text
    assert ("أُلغي" if prefix else "already been cancelled") in text
    assert Order.objects.get().number in text
    assert page.locator("[data-state=success]").count() == 0
    _shot(screenshot, page, f"payment-received-on-cancelled-{prefix.strip('/') or 'en'}-phone")


def test_cash_on_delivery_goes_straight_to_thank_you(new_page, screenshot, teas):
    # given
    page = new_page(viewport=PHONE)
    page.goto("/")
    _add_to_cart(page, teas[1], 5)
    page.goto("/checkout")
    page.locator("#co-email").wait_for()
    # when the form is sent empty first, then filled
    page.get_by_label("Cash on Delivery").check()
    place_order(page)
    assert page.locator("#co-alert").text_content() == "Please fill in all required fields"
    _fill_checkout(page)
    _shot(screenshot, page, "checkout-form-en-phone")
    place_order(page)
    # then
    page.wait_for_url("**/thankyou")
    order = Order.objects.get()
    assert order.payment_status == PaymentStatus.COD
    assert page.get_by_test_id("order-total").text_content() == "E£1,000.00"
    _shot(screenshot, page, "checkout-thankyou-en-phone")


@pytest.mark.parametrize("change", ["another tab adds a tea", "the sale ends"])
def test_place_order_buys_only_the_cart_and_total_on_the_screen(new_page, teas, change):
    # given a shopper at checkout with one Green Leaf (on sale) in the cart, the form filled
    page = new_page(viewport=PHONE, locale="ar-EG")
    page.goto("/ar/")
    _add_to_cart(page, teas[1])
    page.goto("/ar/checkout")
    page.locator("#co-email").wait_for()
    _fill_checkout(page, arabic=True)
    page.locator("input[value=cod]").check()
    settle(page)  # the summary for the chosen governorate and method is on the screen
    # when the cart or a price changes behind the page, and Place order is pressed
    if change == "another tab adds a tea":
        _add_to_cart(page, teas[0])
    else:
        Product.objects.filter(pk=teas[1].pk).update(sale_price_amount=None)
    place_order(page)
    # then nothing is placed, the shopper is told in Arabic and sees the cart as it is now
    expect(page.get_by_role("alert")).to_have_text("تغيّرت سلة التسوق. يرجى مراجعتها والمحاولة مرة أخرى.")
    assert Order.objects.count() == 0
    if change == "another tab adds a tea":
        expect(page.locator(".checkout-summary .mini-lines > li")).to_have_count(2)
    # and a second press places what is shown now
    place_order(page)
    page.wait_for_url("**/thankyou")
    assert Order.objects.get().items.count() == (2 if change == "another tab adds a tea" else 1)


def test_the_purchase_works_in_arabic(new_page, screenshot, teas):
    # given
    page = new_page(viewport=PHONE, locale="ar-EG")
    page.goto("/ar/")
    _add_to_cart(page, teas[0])
    _add_to_cart(page, teas[1])
    page.goto("/ar/cart")
    page.locator("[data-island=cart][data-mounted]").wait_for()
    assert page.locator("html").get_attribute("dir") == "rtl"
    assert page.get_by_text("المتابعة إلى الدفع").is_visible()
    _shot(screenshot, page, "checkout-cart-ar-phone")
    # when
    page.goto("/ar/checkout")
    page.locator("#co-email").wait_for()
    _fill_checkout(page, arabic=True)
    page.get_by_label("دفع تجريبي").check()
    _shot(screenshot, page, "checkout-form-ar-phone")
    place_order(page)
    page.get_by_role("button", name="Pay").or_(page.get_by_role("button", name="ادفع")).first.wait_for()
    _shot(screenshot, page, "checkout-sandbox-ar-phone")
    page.locator("button[value=pay]").click()
    # then
    page.locator("[data-state=success]").wait_for()
    assert "/ar/payment/success" in page.url
    assert page.get_by_text("تم الدفع بنجاح").is_visible()
    _shot(screenshot, page, "checkout-success-ar-phone")
    order = Order.objects.get()
    assert order.language == "ar" and order.phone == "01012345678" and order.state == "Giza"


def test_the_checkout_in_arabic_on_desktop(new_page, screenshot, teas):
    page = new_page(viewport=DESKTOP, locale="ar-EG")
    page.goto("/ar/")
    _add_to_cart(page, teas[0], 4)
    page.goto("/ar/checkout")
    page.locator("#co-email").wait_for()
    assert page.locator("#co-state option", has_text="الجيزة").count() == 1
    _shot(screenshot, page, "checkout-form-ar-desktop")
    page.goto("/ar/cart")
    page.locator("[data-island=cart][data-mounted]").wait_for()
    _shot(screenshot, page, "checkout-cart-ar-desktop")


def test_a_signed_in_customer_checks_out_with_a_coupon_and_cash_on_delivery(new_page, screenshot, teas, alice,
                                                                            live_server):
    # given alice signed in (her name and e-mail come from the account) and a coupon
    from django.conf import settings
    from django.test import Client

    from orders.models import Coupon

    Coupon.objects.create(code="WELCOME50", type="fixed", value=Decimal("50.00"))
    client = Client()
    client.force_login(alice)
    page = new_page(viewport=DESKTOP)
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                               "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                               "url": live_server.url}])
    page.goto("/cart")  # sets the CSRF cookie
    _add_to_cart(page, teas[0], 2)
    page.goto("/checkout")
    page.locator("#co-email").wait_for()
    # then the account's fields are prefilled and locked
    assert page.locator("#co-email").input_value() == "alice@example.com"
    assert page.locator("#co-firstName").get_attribute("readonly") is not None
    assert page.get_by_label("Create an account for faster checkout next time").count() == 0
    # when
    page.fill("#co-street", "3 Tahrir Square")
    page.fill("#co-city", "Cairo")
    page.select_option("#co-state", "Cairo")
    page.fill("#co-couponCode", "welcome50")
    page.get_by_role("button", name="Apply").click()
    page.get_by_text("Discount (WELCOME50)").wait_for()
    assert page.get_by_test_id("summary-total").text_content() == "E£600.00"  # 600 − 50 + 50 shipping
    page.get_by_label("Cash on Delivery").check()
    _shot(screenshot, page, "checkout-signed-in-coupon-en-desktop")
    place_order(page)
    # then
    page.wait_for_url("**/thankyou")
    order = Order.objects.get()
    assert order.user == alice and order.coupon_code == "WELCOME50"
    assert order.total_amount == Decimal("600.00") and order.payment_status == PaymentStatus.COD
    assert page.get_by_test_id("order-total").text_content() == "E£600.00"


@pytest.mark.parametrize("button, state, paid", [("Pay", "success", True), ("Decline", "failed", False)])
def test_a_guest_pays_by_card_on_the_fake_paymob_page(new_page, screenshot, teas, fake_paymob, button, state, paid):
    # given
    page = new_page(viewport=DESKTOP)
    page.goto("/cart")
    _add_to_cart(page, teas[0], 4)
    page.goto("/checkout")
    page.locator("#co-email").wait_for()
    _fill_checkout(page)
    page.locator("input[value=card]").check()
    # when
    place_order(page)
    page.get_by_role("heading", name="Fake Paymob").wait_for()
    assert page.locator("#amount").text_content() == "120000"  # piasters, free shipping from E£1,000
    page.get_by_role("button", name=button).click()
    # then
    page.locator(f"[data-state={state}]").wait_for()
    order = Order.objects.get()
    assert fake_paymob.callbacks == [200]
    assert order.payment_status == (PaymentStatus.PAID if paid else PaymentStatus.FAILED)
    teas[0].refresh_from_db()
    assert teas[0].stock == (6 if paid else 10)
    if paid:
        assert page.get_by_test_id("order-number").text_content() == order.number
        assert page.get_by_test_id("order-total").text_content() == "E£1,200.00"
