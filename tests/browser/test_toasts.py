"""Toasts (events.toast) on a phone: one sat over the bottom of the screen while it showed, where the
shopper's thumb is, and hid the cart's Proceed to Checkout and the checkout's Place order; moved below the
sticky header, it hid the first cart line and the checkout's banner. On a narrow screen it now shows over the
shop's bar at the top (the header), never over the page, and can be closed; on a desktop it stays at the bottom
corner (the spec's default). A refused order is read out once, in the checkout's banner or at its field; the
spec's error toast shows it too, hidden from screen readers (events.toast's `echo`)."""

import pytest
from playwright.sync_api import expect

from catalog.models import Product
from tests.browser.conftest import ARTIFACTS, DESKTOP, PHONE
from tests.browser.settle import place_order
from tests.browser.test_checkout import _add_to_cart, _fill_checkout

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = [("en-US", "", "en"), ("ar-EG", "/ar", "ar")]
NETWORK_AR = "خطأ في الشبكة أثناء طلب الدفع"
CLOSE = {"en": "Dismiss notification", "ar": "إغلاق الإشعار"}

# the toast's box and a button's, as the screen shows them
BOXES = """([button]) => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left,
                                                                        right: r.right}; };
  const line = document.querySelector('[data-testid=cart-line]');
  return {toast: box(document.querySelector('#toasts .toast')), button: box(document.querySelector(button)),
          header: box(document.querySelector('.site-header')), width: innerWidth, height: innerHeight,
          line: line && box(line)};
}"""


def _overlap(a, b):
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def _cart_with_a_toast(new_page, teas, viewport, locale, prefix):
    """The cart page with a tea at the most one line may hold, and + pressed: the shop says no in a toast."""
    Product.objects.filter(pk=teas[0].pk).update(stock=30)
    page = new_page(viewport=viewport, locale=locale)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0], 20)
    page.goto(f"{prefix}/cart")
    page.locator("[data-island=cart][data-mounted]").wait_for()
    page.locator('[data-testid="cart-line"] .qty__btn').last.click()
    expect(page.locator("#toasts .toast")).to_contain_text("20")
    return page


def _clear_of_the_toast(page, button):
    """The button is not under the toast wherever the shopper has scrolled it, low on the screen or mid-way."""
    for block in ("end", "center"):
        page.evaluate("([selector, block]) => document.querySelector(selector).scrollIntoView({block})",
                      [button, block])
        boxes = page.evaluate(BOXES, [button])
        assert not _overlap(boxes["toast"], boxes["button"]), (block, boxes)
    return boxes


def _sits_on_a_phone_as_it_should(page, boxes, lang):
    toast, header = boxes["toast"], boxes["header"]
    # over the sticky header, across the screen, and not a pixel lower: the page below it stays in sight
    assert toast["top"] == 0 and toast["left"] == 0 and toast["right"] == boxes["width"], boxes
    assert toast["bottom"] <= header["bottom"] + 0.5, boxes
    # its close button at the line's end: right in English, left in Arabic
    close = page.locator("#toasts .toast").get_by_role("button", name=CLOSE[lang]).bounding_box()
    middle = (toast["left"] + toast["right"]) / 2
    assert (close["x"] < middle) if lang == "ar" else (close["x"] > middle), (close, toast)


SMALL_PHONE = {"width": 320, "height": 640}


@pytest.mark.parametrize("viewport", [PHONE, SMALL_PHONE], ids=["360", "320"])
@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_a_toast_on_a_phone_leaves_the_cart_line_in_sight(new_page, screenshot, teas, viewport, locale, prefix, lang):
    # given the cart on a phone as it opens, and a toast (two lines at 320 px) saying a line holds at most 20
    page = _cart_with_a_toast(new_page, teas, viewport, locale, prefix)
    page.evaluate("() => scrollTo(0, 0)")
    boxes = page.evaluate(BOXES, [".cart-summary a.button[href$='/checkout']"])
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"toast-cart-{lang}-{viewport['width']}.png"))
    # then it sits over the header, and the line it speaks of, from its top, is not under it
    _sits_on_a_phone_as_it_should(page, boxes, lang)
    assert not _overlap(boxes["toast"], boxes["line"]), boxes


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_a_toast_on_a_phone_leaves_proceed_to_checkout_clear_and_can_be_closed(new_page, teas, locale, prefix, lang):
    # given the cart on a 360 px phone, and a toast saying a line holds at most 20
    page = _cart_with_a_toast(new_page, teas, PHONE, locale, prefix)
    # then Proceed to Checkout is not under it, low or mid-way on the screen, and it sits as it should
    boxes = _clear_of_the_toast(page, ".cart-summary a.button[href$='/checkout']")
    _sits_on_a_phone_as_it_should(page, boxes, lang)
    # and it is still read out (a polite live region), and it can be closed before it goes by itself
    assert page.locator("#toasts").get_attribute("aria-live") == "polite"
    page.locator("#toasts .toast").get_by_role("button", name=CLOSE[lang]).click()
    expect(page.locator("#toasts .toast")).to_have_count(0, timeout=1_000)


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_a_failed_order_on_a_phone_is_read_out_once_in_the_banner_its_toast_silent(new_page, teas, locale, prefix,
                                                                                     lang):
    # given a filled checkout on a 360 px phone whose network drops as Place order is pressed
    page = new_page(viewport=PHONE, locale=locale, has_touch=True, is_mobile=True)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0])
    page.goto(f"{prefix}/checkout")
    page.locator("#co-email").wait_for()
    _fill_checkout(page, arabic=lang == "ar")
    page.route("**/api/payment/create-intention", lambda route: route.abort())
    page.evaluate("""() => document.querySelector('[data-testid="place-order"]').scrollIntoView({block: 'end'})""")
    place_order(page)
    # then the banner says why, has the focus, and is in sight; the spec's error toast shows it over the shop's
    # bar, clear of the banner, and is not read out a second time
    said = "Network error during payment request" if lang == "en" else NETWORK_AR
    banner = page.locator("#co-alert")
    expect(banner).to_have_text(said)
    expect(banner).to_be_focused()
    expect(banner).to_be_in_viewport()
    toast = page.locator("#toasts .toast")
    expect(toast).to_have_text(said)
    expect(toast).to_have_attribute("aria-hidden", "true")
    boxes = page.evaluate(BOXES, ["#co-alert"])
    assert not _overlap(boxes["toast"], boxes["button"]), boxes
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"toast-checkout-{lang}-phone.png"))  # the screen, as seen


@pytest.mark.parametrize("viewport, size", [(PHONE, "phone"), (DESKTOP, "desktop")], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_toast_screenshots(new_page, teas, viewport, size, locale, prefix, lang):
    # the screen as seen with a toast, for people to look at; on a desktop it stays at the bottom corner
    page = _cart_with_a_toast(new_page, teas, viewport, locale, prefix)
    page.evaluate("() => document.querySelector('.cart-summary').scrollIntoView({block: 'end'})")
    boxes = page.evaluate(BOXES, [".cart-summary a.button[href$='/checkout']"])
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"toast-cart-{lang}-{size}.png"))
    if size == "desktop":
        toast = boxes["toast"]
        assert toast["bottom"] > boxes["height"] - 40, boxes
        # at the line's end: right in English, left in Arabic
        assert (toast["left"] < 40) if lang == "ar" else (toast["right"] > boxes["width"] - 40), boxes


LANDSCAPE = {"width": 844, "height": 390}  # a phone on its side: wider than 800 px, but short


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_a_toast_on_a_phone_on_its_side_leaves_proceed_to_checkout_clear(new_page, teas, locale, prefix, lang):
    # given the cart on a phone held sideways (844×390), and a toast saying a line holds at most 20
    page = _cart_with_a_toast(new_page, teas, LANDSCAPE, locale, prefix)
    # then it shows at the top as on an upright phone, and Proceed to Checkout is not under it
    boxes = _clear_of_the_toast(page, ".cart-summary a.button[href$='/checkout']")
    _sits_on_a_phone_as_it_should(page, boxes, lang)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"toast-cart-{lang}-landscape.png"))


def _still_there_after_its_time(page):
    """The toast is still shown past the 4.5 s after which it goes by itself."""
    page.wait_for_timeout(5_500)
    expect(page.locator("#toasts .toast")).to_be_visible()


def test_a_toast_stays_while_the_pointer_is_over_it_and_goes_once_it_leaves(new_page, teas):
    # given the cart on a desktop, and a toast saying a line holds at most 20
    page = _cart_with_a_toast(new_page, teas, DESKTOP, "en-US", "")
    # when the shopper's pointer rests on it, to read it
    page.locator("#toasts .toast").hover()
    # then it does not go while they read
    _still_there_after_its_time(page)
    # and once the pointer leaves it, it goes by itself
    page.mouse.move(10, 10)
    expect(page.locator("#toasts .toast")).to_have_count(0, timeout=6_000)


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_a_toast_stays_while_its_close_button_has_the_keyboard_and_goes_once_it_leaves(new_page, teas, locale, prefix,
                                                                                      lang):
    # given the cart on a phone, and a toast saying a line holds at most 20
    page = _cart_with_a_toast(new_page, teas, PHONE, locale, prefix)
    close = page.locator("#toasts .toast").get_by_role("button", name=CLOSE[lang])
    # when the keyboard is on its close button (the pointer is not on it)
    page.mouse.move(1, 700)
    close.focus()
    # then it does not go while it is there
    _still_there_after_its_time(page)
    # and once the keyboard moves on, it goes by itself
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#toasts .toast")).to_have_count(0, timeout=6_000)


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_a_toast_under_an_announcement_stays_off_the_page_as_the_shopper_scrolls(new_page, teas, locale, prefix, lang):
    from datetime import timedelta

    from django.utils import timezone

    from shop.models import Announcement

    # given an announcement over the header (it scrolls away, the header stays), and a toast on the cart
    now = timezone.now()
    Announcement.objects.create(title="Ramadan hours", content="Open late", title_ar="مواعيد رمضان",
                                content_ar="نعمل حتى وقت متأخر", is_main=True,
                                display_start_date=now - timedelta(hours=1), display_end_date=now + timedelta(days=1))
    page = _cart_with_a_toast(new_page, teas, PHONE, locale, prefix)
    assert page.locator(".site-header").bounding_box()["y"] > 0  # the announcement shows above it
    # then, at the top and scrolled, the toast covers the shop's bar only, never the page below the header
    for y in (0, 150):
        page.evaluate("(y) => scrollTo(0, y)", y)
        boxes = page.evaluate(BOXES, [".cart-summary a.button[href$='/checkout']"])
        assert boxes["toast"]["bottom"] <= boxes["header"]["bottom"] + 0.5, (y, boxes)


# what the server may say about a cart line, long enough for three lines at 320 px, and twice that
LONG_AR = "لا يمكن تغيير كمية هذا الشاي الآن: الكمية المطلوبة أكبر مما بقي في المخزون، جرّب كمية أقل"
LONGER_AR = f"{LONG_AR}. {LONG_AR}."

# the toast's text takes how many lines, and is any of it cut off
TOAST_LINES = """() => { const toast = document.querySelector('#toasts .toast'), text = document.createRange();
  text.selectNodeContents(toast.firstChild);
  const tops = new Set([...text.getClientRects()].map((r) => Math.round(r.top)));
  return {lines: tops.size, cut: toast.scrollHeight > toast.clientHeight + 1}; }"""


@pytest.mark.parametrize("message, lines", [(LONG_AR, 3), (LONGER_AR, 5)], ids=["three-lines", "longer"])
def test_a_long_arabic_toast_at_320_px_keeps_to_the_header_and_shows_all_its_text(new_page, teas, screenshot, message,
                                                                                  lines):
    # given the cart on a 320 px phone, whose server refuses a change with a long message
    Product.objects.filter(pk=teas[0].pk).update(stock=30)
    page = new_page(viewport=SMALL_PHONE, locale="ar-EG", has_touch=True, is_mobile=True)
    page.goto("/ar/")
    _add_to_cart(page, teas[0], 2)
    page.goto("/ar/cart")
    page.locator("[data-island=cart][data-mounted]").wait_for()
    page.route("**/api/cart/items/*", lambda route: route.fulfill(
        status=409, content_type="application/json", body=f'{{"error": "{message}", "message": "{message}"}}'))
    # when
    page.locator('[data-testid="cart-line"] .qty__btn').last.click()
    expect(page.locator("#toasts .toast")).to_contain_text(message[:20])
    page.screenshot(path=str(ARTIFACTS / f"toast-long-ar-320-{lines}.png"))
    # then every line of it shows; three lines sit over the header, not a pixel lower
    shown = page.evaluate(TOAST_LINES)
    assert (shown["lines"] == 3 if lines == 3 else shown["lines"] > 3) and not shown["cut"], shown
    boxes = page.evaluate(BOXES, ['[data-testid="cart-line"]'])
    if lines == 3:
        _sits_on_a_phone_as_it_should(page, boxes, "ar")
    else:  # longer still, it grows down from the header as far as its text needs, and the line stays in sight
        assert boxes["toast"]["bottom"] <= shown["lines"] * 17.5 + 4 + 0.5, boxes
