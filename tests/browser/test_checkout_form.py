"""The checkout form on a phone and a desktop, in English and Arabic (issue 12): only payment
methods that work are offered, and every field's problem shows at once."""

import pytest
from playwright.sync_api import expect

from catalog.models import Product
from orders.models import Order, PaymentStatus
from tests.browser.conftest import ARTIFACTS, DESKTOP, PHONE
from tests.browser.settle import place_order
from tests.browser.test_checkout import _add_to_cart, _fill_checkout, _shot

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = [(PHONE, "phone"), (DESKTOP, "desktop")]
LANGUAGES = [("en-US", "", "en"), ("ar-EG", "/ar", "ar")]


@pytest.mark.parametrize("viewport, size", SIZES, ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_a_default_install_offers_and_preselects_only_cash_on_delivery(new_page, screenshot, settings, teas, viewport,
                                                                       size, locale, prefix, lang):
    # given a default install: no Paymob keys, no test payment page
    settings.PAYMENT_PROVIDER, settings.PAYMENT_SANDBOX = "sandbox", False
    page = new_page(viewport=viewport, locale=locale)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0])
    # when
    page.goto(f"{prefix}/checkout")
    page.locator("#co-email").wait_for()
    # then only cash on delivery is offered, and it is chosen
    methods = page.locator('input[name="paymentMethod"]')
    assert [methods.nth(i).get_attribute("value") for i in range(methods.count())] == ["cod"]
    assert methods.first.is_checked()
    # and the order goes through on the first try
    _fill_checkout(page, arabic=lang == "ar")
    _shot(screenshot, page, f"checkout-methods-default-{lang}-{size}")
    place_order(page)
    page.wait_for_url("**/thankyou")
    assert Order.objects.get().payment_status == PaymentStatus.COD


@pytest.mark.parametrize("viewport, size", SIZES, ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_every_field_error_shows_at_once_and_the_banner_goes_when_they_are_fixed(new_page, screenshot, teas, viewport,
                                                                                 size, locale, prefix, lang):
    page = new_page(viewport=viewport, locale=locale)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0])
    page.goto(f"{prefix}/checkout")
    page.locator("#co-email").wait_for()
    # required fields are marked, optional ones say so
    assert page.locator("#co-email").get_attribute("aria-required") == "true"
    assert page.locator('label[for="co-building"] .field__optional').count() == 1
    # when the empty form is sent
    place_order(page)
    # then every missing field is marked at once, and focus is on the first
    marked = {page.locator(".field--error").nth(i).locator("input, select").get_attribute("id")
              for i in range(page.locator(".field--error").count())}
    assert marked == {"co-email", "co-phone", "co-firstName", "co-lastName", "co-street", "co-city", "co-state"}
    assert page.evaluate("document.activeElement.id") == "co-email"
    banner = page.locator(".checkout-main .alert--error")
    assert banner.is_visible()
    _shot(screenshot, page, f"checkout-errors-{lang}-{size}")
    # when the shopper fills them in, but with a phone number too short and no governorate
    _fill_checkout(page, arabic=lang == "ar")
    assert banner.count() == 0
    page.fill("#co-phone", "12345")
    page.select_option("#co-state", "")
    place_order(page)
    # then both show at once, before anything is sent, the phone's saying what is wrong with it and what is wanted
    expect(page.locator("#co-phone-error")).to_have_text(
        "Please enter a valid phone number, for example 01012345678" if lang == "en"
        else "يرجى إدخال رقم هاتف صالح، مثل 01012345678")
    assert page.locator("#co-state-error").is_visible()
    page.wait_for_function("document.activeElement.id === 'co-phone'")
    page.screenshot(path=str(ARTIFACTS / f"checkout-phone-error-{lang}-{size}.png"))  # the screen, as seen
    # when those are right and the postal code is one only the server refuses
    page.fill("#co-phone", "010 1234 5678")
    page.select_option("#co-state", "Giza")
    page.fill("#co-postalCode", "!!")
    place_order(page)
    # then the server's answer marks it and focuses it
    page.locator("#co-postalCode-error").wait_for()
    page.wait_for_function("document.activeElement.id === 'co-postalCode'")
    assert Order.objects.count() == 0
    _shot(screenshot, page, f"checkout-server-errors-{lang}-{size}")


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_cash_on_delivery_switched_off_by_the_governorate_says_why(new_page, screenshot, teas, locale, prefix, lang):
    # given cash on delivery chosen at checkout
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0])
    page.goto(f"{prefix}/checkout")
    page.locator("#co-email").wait_for()
    page.locator('input[name="paymentMethod"][value="cod"]').check()
    # when the governorate chosen takes no cash on delivery (North Sinai)
    page.select_option("#co-state", "North Sinai")
    # then another method is chosen, and the shopper is told why, in their language
    cod = page.locator('input[name="paymentMethod"][value="cod"]')
    page.wait_for_function("() => document.querySelector('input[name=paymentMethod][value=cod]').disabled")
    assert not cod.is_checked()
    why = {"en": "Not available for this address or order total", "ar": "غير متاح لهذا العنوان أو لقيمة هذا الطلب"}
    hint = page.locator(".pay-method").filter(has=cod).locator(".pay-method__hint")
    expect(hint).to_have_text(why[lang])
    # said once: beside the option, a polite live region that screen readers hear; no toast says it again
    expect(hint).to_have_attribute("aria-live", "polite")
    expect(page.locator("#toasts .toast")).to_have_count(0)  # it came with the answer that disabled the option
    assert page.get_by_text(why[lang]).count() == 1
    _shot(screenshot, page, f"checkout-cod-unavailable-{lang}-phone")
    # and an address outside Egypt takes none either
    page.select_option("#co-state", "Cairo")
    page.wait_for_function("() => !document.querySelector('input[name=paymentMethod][value=cod]').disabled")
    page.select_option("#co-country", "SAU")
    page.wait_for_function("() => document.querySelector('input[name=paymentMethod][value=cod]').disabled")


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_enter_in_the_coupon_field_applies_the_coupon_and_places_no_order(new_page, teas, locale, prefix, lang):
    # given a filled form and a coupon typed on a phone, whose keyboard's Go key is Enter
    from decimal import Decimal

    from orders.models import Coupon

    Coupon.objects.create(code="WELCOME50", type="fixed", value=Decimal("50.00"))
    page = new_page(viewport=PHONE, locale=locale, has_touch=True, is_mobile=True)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0], 2)
    page.goto(f"{prefix}/checkout")
    page.locator("#co-email").wait_for()
    _fill_checkout(page, arabic=lang == "ar")
    page.get_by_label("Test payment" if lang == "en" else "دفع تجريبي").check()
    # when
    page.fill("#co-couponCode", "welcome50")
    page.locator("#co-couponCode").press("Enter")
    # then the coupon is applied, the shopper stays on the form with focus in the field, and no order is placed
    expect(page.get_by_test_id("summary-total")).to_have_text("E£600.00" if lang == "en" else "600.00 ج.م")
    page.wait_for_timeout(500)  # a submit would be on its way by now
    assert page.url.endswith(f"{prefix}/checkout") and Order.objects.count() == 0
    assert page.evaluate("() => document.activeElement.id") == "co-couponCode"


@pytest.mark.parametrize("viewport, size", SIZES, ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_back_to_cart_sits_at_the_start_of_the_form_like_the_headings(new_page, teas, viewport, size, locale, prefix,
                                                                      lang):
    page = new_page(viewport=viewport, locale=locale)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0])
    page.goto(f"{prefix}/checkout")
    page.locator("#co-email").wait_for()
    # the link's words start where the form's column starts (left in English, right in Arabic), not in its middle
    edges = page.evaluate("""() => {
        const column = document.querySelector('.checkout-main').getBoundingClientRect();
        const words = document.createRange();
        words.selectNodeContents(document.querySelector('.back-link'));
        const text = words.getBoundingClientRect();
        return document.dir === 'rtl' ? [column.right, text.right] : [column.left, text.left];
    }""")
    assert abs(edges[0] - edges[1]) <= 12, edges


# the summary's rows and the place-order button that a message over the page (a toast) covers, even in part
COVERED = """() => {
  const boxes = (selector) => [...document.querySelectorAll(selector)].map((el) => [el, el.getBoundingClientRect()]);
  const over = boxes('#toasts > *');
  return boxes('.checkout-summary .summary__row, [data-testid="place-order"]')
    .filter(([, r]) => over.some(([, t]) =>
      r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom))
    .map(([el]) => el.textContent);
}"""


@pytest.mark.parametrize("viewport, size", SIZES, ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_coupon_applied_is_confirmed_without_covering_the_order_summary(new_page, screenshot, teas, viewport, size,
                                                                        locale, prefix, lang):
    # given a coupon typed at checkout (on a phone the summary is below the form, a toast sat on its rows)
    from decimal import Decimal

    from orders.models import Coupon

    Coupon.objects.create(code="WELCOME50", type="fixed", value=Decimal("50.00"))
    page = new_page(viewport=viewport, locale=locale)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0], 2)
    page.goto(f"{prefix}/checkout")
    page.locator("#co-email").wait_for()
    page.fill("#co-couponCode", "welcome50")
    # when it is applied and the shopper looks at the summary it changed
    page.locator(".coupon__row button").click()
    page.locator(".checkout-summary .summary__row--discount").wait_for()
    page.evaluate("""() => document.querySelector('.checkout-summary .summary')
        .scrollIntoView({block: 'end'})""")
    # then they are told it is applied, in their language, on screen
    applied = page.get_by_text("تم تطبيق القسيمة" if lang == "ar" else "Coupon applied", exact=True)
    expect(applied).to_be_in_viewport()
    page.screenshot(path=str(ARTIFACTS / f"checkout-coupon-applied-{lang}-{size}.png"))  # the screen, as seen
    # and nothing covers a row of the summary or the place-order button
    assert page.evaluate(COVERED) == []
    # and a code typed since, not yet applied, is not called applied
    page.fill("#co-couponCode", "other")
    expect(applied).to_have_count(0)


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_a_refused_order_puts_the_focus_on_the_banner_when_no_field_is_to_blame(new_page, screenshot, teas, locale,
                                                                                 prefix, lang):
    # given a keyboard or screen-reader shopper at checkout, the form right, whose tea sells out meanwhile
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0])
    page.goto(f"{prefix}/checkout")
    page.locator("#co-email").wait_for()
    _fill_checkout(page, arabic=lang == "ar")
    Product.objects.filter(pk=teas[0].pk).update(stock=0)
    # when Place order (disabled while the server answers) is refused
    place_order(page)
    banner = page.locator(".checkout-main [role=alert]")
    expect(banner).to_contain_text("Not enough stock" if lang == "en" else "الكمية المتوفرة غير كافية")
    # then the focus is on the banner that says why, not thrown back to the start of the page
    expect(banner).to_be_focused()
    assert Order.objects.count() == 0
    _shot(screenshot, page, f"checkout-refused-focus-{lang}-phone")
