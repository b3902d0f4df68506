"""What a shopper walking the purchase on a small phone (320 and 360 px, touch) found, in English and Arabic:
tabs cut off at 320 px, suggestions and links too small to tap, a refused coupon that nothing announced."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, islands_ready
from tests.browser.settle import place_order
from tests.browser.test_checkout import _add_to_cart, _fill_checkout
from tests.browser.test_touch_and_focus import FOCUSABLE, MIN_TARGET, SMALL_TARGETS_JS
from tests.factories import make_category, make_product

pytestmark = pytest.mark.django_db(transaction=True)

SMALL_PHONE = {"width": 320, "height": 640}
LANGUAGES = [("en-US", ""), ("ar-EG", "/ar")]


def _phone(new_page, locale, viewport=PHONE):
    return new_page(viewport=viewport, locale=locale, has_touch=True, is_mobile=True)


@pytest.mark.parametrize("locale, prefix", LANGUAGES, ids=["en", "ar"])
def test_every_product_tab_shows_whole_on_a_320_px_phone(new_page, screenshot, teas, locale, prefix):
    # given a 320 px phone on a product page, its tabs island mounted
    page = _phone(new_page, locale, SMALL_PHONE)
    page.goto(f"{prefix}/product/{teas[0].slug}")
    islands_ready(page, "product-tabs")
    # then each tab (Details, Care Guide, Reviews) lies wholly inside the tab bar: none is cut at its edge
    cut = page.evaluate("""() => { const bar = document.querySelector('.tabs').getBoundingClientRect();
      return [...document.querySelectorAll('.tabs [role=tab]')].filter((tab) => {
        const r = tab.getBoundingClientRect(); return r.left < bar.left - 0.5 || r.right > bar.right + 0.5;
      }).map((tab) => tab.textContent); }""")
    page.locator(".tabs").scroll_into_view_if_needed()
    screenshot(page, f"phone-walk-tabs-320-{prefix.strip('/') or 'en'}")
    assert page.locator(".tabs [role=tab]").count() == 3
    assert cut == []


@pytest.mark.parametrize("locale, prefix, typed", [("en-US", "", "tea"), ("ar-EG", "/ar", "شاي")], ids=["en", "ar"])
def test_every_header_search_suggestion_is_a_44_px_target(new_page, locale, prefix, typed):
    # given teas whose suggestions have no second line (no sale price, one-line names)
    tea = make_category(slug="black-tea", name="Black Tea", name_ar="شاي أسود")
    for n in range(3):
        make_product(slug=f"tea-{n}", title_en=f"Tea {n}", title_ar=f"شاي {n}", category=tea, price_amount="90.00")
    page = _phone(new_page, locale)
    page.goto(f"{prefix}/")
    # when the shopper types in the header's search
    page.get_by_role("combobox").tap()
    page.get_by_role("combobox").press_sequentially(typed, delay=30)
    expect(page.get_by_role("listbox").get_by_role("option").last).to_be_visible()
    # then every suggestion, and "See all results", is at least 44 px tall and wide
    result = page.evaluate(SMALL_TARGETS_JS, ["[role=option]", MIN_TARGET, ".site-search [role=listbox]"])
    assert page.get_by_role("option").count() >= 4
    assert result["small"] == []


@pytest.mark.parametrize("locale, prefix", LANGUAGES, ids=["en", "ar"])
def test_the_forgotten_password_page_has_no_control_under_44_px(new_page, screenshot, locale, prefix):
    page = _phone(new_page, locale)
    page.goto(f"{prefix}/forgot-password")
    result = page.evaluate(SMALL_TARGETS_JS, [FOCUSABLE, MIN_TARGET, "main"])
    screenshot(page, f"phone-walk-forgot-password-{prefix.strip('/') or 'en'}")
    # "Back to Login" stands alone under the form: it is a target of its own, not a link in a sentence
    assert result["small"] == []


@pytest.mark.parametrize("locale, prefix, refusal", [("en-US", "", "Invalid coupon code"),
                                                     ("ar-EG", "/ar", "رمز القسيمة غير صالح")], ids=["en", "ar"])
def test_a_refused_coupon_is_announced_and_described_at_its_field(new_page, teas, locale, prefix, refusal):
    # given a guest at checkout on a phone
    page = _phone(new_page, locale)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0])
    page.goto(f"{prefix}/checkout")
    page.locator('[data-island="checkout"][data-mounted="true"]').wait_for(state="attached")
    # when an unknown code is applied (focus stays on Apply)
    page.locator("#co-couponCode").fill("nosuch")
    page.locator(".coupon__row button").tap()
    # then the refusal is said at once (an alert), and the field is marked with it for when it is focused
    expect(page.locator(".coupon").get_by_role("alert")).to_have_text(refusal)
    coupon = page.locator("#co-couponCode")
    expect(coupon).to_have_attribute("aria-invalid", "true")
    expect(coupon).to_have_accessible_description(refusal)
    assert coupon.get_attribute("aria-required") != "true"  # a coupon is never required


# the live regions (alerts, status, aria-live) whose words a screen reader reads out as they come
SAID_JS = """(words) => [...document.querySelectorAll('[role=alert], [role=status], [aria-live]')]
  .filter((region) => {
    const heard = region.cloneNode(true);  // what a screen reader hears of it: not what is aria-hidden
    heard.querySelectorAll('[aria-hidden=true]').forEach((hidden) => hidden.remove());
    return region.getAttribute('aria-live') !== 'off' && heard.textContent.includes(words);
  })
  .map((region) => region.id || region.className)"""


@pytest.mark.parametrize("locale, prefix, refusal", [("en-US", "", "Invalid coupon code"),
                                                     ("ar-EG", "/ar", "رمز القسيمة غير صالح")], ids=["en", "ar"])
def test_a_coupon_refused_at_place_order_is_said_once_at_its_field(new_page, teas, locale, prefix, refusal):
    # given a filled checkout on a phone, an unknown code typed but not applied
    page = _phone(new_page, locale)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0])
    page.goto(f"{prefix}/checkout")
    page.locator('[data-island="checkout"][data-mounted="true"]').wait_for(state="attached")
    _fill_checkout(page, arabic=prefix == "/ar")
    page.locator("#co-couponCode").fill("nosuch")
    # when Place order is refused for it
    place_order(page)
    coupon = page.locator("#co-couponCode")
    expect(coupon).to_be_focused()
    # then it is read out once: at the field the focus is on (its description), by no alert, status or toast too
    expect(coupon).to_have_accessible_description(refusal)
    expect(page.locator("#co-alert")).to_have_text(refusal)  # the banner still shows it, silently
    page.wait_for_timeout(300)
    assert page.evaluate(SAID_JS, refusal) == []
    # and a code refused at Apply (the focus stays on Apply) is an alert again
    page.locator(".coupon__row button").tap()
    expect(page.locator(".coupon").get_by_role("alert")).to_have_text(refusal)


# the "×" of each summary line and the quantity after it: on one line of text, or not
TIMES_APART_JS = """(selector) => [...document.querySelectorAll(selector)].filter((line) => {
  const chars = [];  // every visible character of the line with the text node it is in (React splits them)
  const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    for (let i = 0; i < node.data.length; i++) if (node.data[i].trim()) chars.push([node, i]);
  }
  const top = ([node, i]) => { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
                               return r.getBoundingClientRect().top; };
  const at = chars.findIndex(([node, i]) => node.data[i] === '×');
  return at >= 0 && at + 1 < chars.length && Math.abs(top(chars[at]) - top(chars[at + 1])) > 2;
}).map((line) => line.textContent)"""


def test_a_checkout_line_keeps_its_quantity_beside_the_times_sign_at_any_phone_width(new_page, teas):
    # given an Arabic phone shopper with two of a tea whose name fills most of a line
    teas[0].title_ar = "شاي كيريتشو جولد أوراق سائبة، 500 جم"
    teas[0].save()
    page = _phone(new_page, "ar-EG", SMALL_PHONE)
    page.goto("/ar/")
    _add_to_cart(page, teas[0], 2)
    page.goto("/ar/checkout")
    page.locator('[data-island="checkout"][data-mounted="true"]').wait_for(state="attached")
    # then at every width from 300 to 420 px, "× 2" never breaks between the sign and the number
    apart = set()
    for width in range(300, 421, 4):
        page.set_viewport_size({"width": width, "height": 640})
        apart |= {f"{width}px: {text}" for text in page.evaluate(TIMES_APART_JS, ".checkout-summary .mini-lines li")}
    assert apart == set()


@pytest.mark.parametrize("locale, prefix", LANGUAGES, ids=["en", "ar"])
def test_a_tracking_lookup_that_finds_nothing_takes_the_focus_to_why(new_page, locale, prefix):
    # given a shopper on the tracking form who mistypes the order number
    page = _phone(new_page, locale)
    page.goto(f"{prefix}/track")
    page.locator("#t-number").fill("NHT-000000-AAAAAA")
    page.locator("#t-contact").fill("mona@example.com")
    # when the form comes back refused (a new page: the focus would start at its top)
    with page.expect_navigation():
        page.locator("main button[type=submit]").tap()
    # then the focus is on the message saying why, which a screen reader then reads, as the account forms do
    expect(page.get_by_test_id("track-error")).to_be_focused()


@pytest.mark.parametrize("locale, prefix", LANGUAGES, ids=["en", "ar"])
def test_side_by_side_checkout_fields_line_up_their_inputs_on_a_320_px_phone(new_page, teas, locale, prefix):
    # given a guest at checkout on a 320 px phone, where "Building (optional)" wraps and "Floor (optional)" does not
    page = _phone(new_page, locale, SMALL_PHONE)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0])
    page.goto(f"{prefix}/checkout")
    page.locator('[data-island="checkout"][data-mounted="true"]').wait_for(state="attached")
    building, floor = page.locator("#co-building").bounding_box(), page.locator("#co-floor").bounding_box()
    # then the two inputs, side by side, start at the same height
    assert abs(building["x"] - floor["x"]) > 100  # side by side
    assert round(building["y"]) == round(floor["y"])


@pytest.mark.parametrize("locale, prefix", LANGUAGES, ids=["en", "ar"])
def test_the_skip_link_is_a_44_px_target_once_the_keyboard_reaches_it(new_page, locale, prefix):
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/")
    page.keyboard.press("Tab")
    skip = page.locator(".skip-link")
    expect(skip).to_be_focused()
    box = skip.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    assert 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"]


DIRECTION_JS = "() => getComputedStyle(document.querySelector('#newsletter-email')).direction"


@pytest.mark.parametrize("locale, prefix, empty", [("en-US", "", "ltr"), ("ar-EG", "/ar", "rtl")], ids=["en", "ar"])
def test_the_newsletter_address_is_typed_left_to_right_under_a_placeholder_at_the_line_start(
        new_page, screenshot, locale, prefix, empty):
    # given the footer's newsletter form on a phone
    page = _phone(new_page, locale)
    page.goto(f"{prefix}/")
    field = page.locator("#newsletter-email")
    field.scroll_into_view_if_needed()
    # then its placeholder starts where the page's lines do (the right in Arabic) while it shows
    assert page.evaluate(DIRECTION_JS) == empty
    screenshot(page, f"phone-walk-newsletter-{prefix.strip('/') or 'en'}")
    # and an address typed in it runs left to right, as the shop's other e-mail fields do, in both languages
    field.tap()
    field.press_sequentially("mona@example.com")
    expect(page.locator("#newsletter-email")).to_have_attribute("dir", "ltr")
    assert page.evaluate(DIRECTION_JS) == "ltr"
    # and its autofill offers the shopper's address
    expect(page.locator("#newsletter-email")).to_have_attribute("autocomplete", "email")


# a box's corners and border, and the shop's input token (--radius-sm) as a length
BOX_STYLE_JS = """(selector) => { const style = getComputedStyle(document.querySelector(selector));
  const probe = document.createElement('div');
  probe.style.borderRadius = 'var(--radius-sm)'; document.body.append(probe);
  const token = getComputedStyle(probe).borderTopLeftRadius; probe.remove();
  return {radius: style.borderTopLeftRadius, border: style.borderTopWidth + ' ' + style.borderTopStyle, token}; }"""


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 860}], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix", LANGUAGES, ids=["en", "ar"])
def test_the_shop_search_box_has_the_shops_input_corners(new_page, screenshot, teas, viewport, locale, prefix):
    page = new_page(viewport=viewport, locale=locale)
    page.goto(f"{prefix}/shop")
    for when in ("as sent", "mounted"):
        if when == "mounted":
            islands_ready(page, "shop-filters")
        search = page.evaluate(BOX_STYLE_JS, "#shop-search")
        # rounded as the shop's other inputs (the Sort by list beside it), not a square box among round buttons
        assert search["radius"] == search["token"] == page.evaluate(BOX_STYLE_JS, "#shop-sort")["radius"], when
        assert search["border"] == "1px solid", when
    page.screenshot(path=f"test-artifacts/phone-walk-shop-search-{prefix.strip('/') or 'en'}-{viewport['width']}.png")


HOME_JS = """() => { const top = (s) => document.querySelector(s).getBoundingClientRect().top + scrollY;
  const hidden = [...document.querySelectorAll('.hero, .hero *, .features *, .stats *')]
    .filter((el) => el.getClientRects().length === 0).map((el) => el.textContent);
  const tiles = new Set([...document.querySelectorAll('.category-tile')].map((t) => t.getBoundingClientRect().top));
  return {order: ['.hero', '.features', '.category-tiles', '.stats', '.product-grid--featured'].map(top),
          first: top('.product-grid--featured .product-card'), hidden, tileRows: tiles.size,
          wide: document.documentElement.scrollWidth > innerWidth}; }"""


@pytest.mark.parametrize("viewport", [SMALL_PHONE, PHONE], ids=["320", "360"])
@pytest.mark.parametrize("locale, prefix", LANGUAGES, ids=["en", "ar"])
def test_the_home_page_reaches_its_first_featured_tea_within_a_screen_and_a_half(new_page, viewport, locale, prefix):
    from tests.browser.storefront_pages import seed_catalogue

    seed_catalogue()  # four category tiles, three featured teas
    page = _phone(new_page, locale, viewport)
    page.goto(f"{prefix}/")
    home = page.evaluate(HOME_JS)
    page.screenshot(path=f"test-artifacts/phone-walk-home-{prefix.strip('/') or 'en'}-{viewport['width']}.png",
                    full_page=True)
    # the spec's order: hero, three feature highlights, four category tiles, stats, three featured teas
    assert home["order"] == sorted(home["order"]), home
    # none of it hidden to make room, and nothing wider than the phone
    assert home["hidden"] == [] and not home["wide"], home
    # compact: the tiles two by two, and the first featured tea 1,300 px down (it was 1,530 to 1,840)
    assert home["tileRows"] == 2, home
    assert home["first"] < 1300, home


@pytest.mark.parametrize("locale, prefix", LANGUAGES, ids=["en", "ar"])
def test_a_cart_line_with_a_one_line_name_is_a_44_px_target(new_page, screenshot, teas, locale, prefix):
    # given two teas with short names (one line each) in the cart, on a phone
    page = _phone(new_page, locale)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0], 2)
    _add_to_cart(page, teas[1])
    page.goto(f"{prefix}/cart")
    page.locator("[data-island=cart][data-mounted]").wait_for()
    before = page.locator("[data-testid=cart-line]").first.bounding_box()
    # then every link and button of the cart, the tea's name too, is at least 44 px tall and wide
    result = page.evaluate(SMALL_TARGETS_JS, [FOCUSABLE, MIN_TARGET, "main"])
    screenshot(page, f"phone-walk-cart-{prefix.strip('/') or 'en'}")
    assert result["small"] == []
    assert before["height"] < 140  # and the line is no taller for it


LONG_EMAIL = "abdelrahman.mohamed.elshennawy.family@verylongdomainname-example.com"
WIDTH_JS = "() => [innerWidth, document.documentElement.scrollWidth]"


@pytest.mark.parametrize("locale, prefix", LANGUAGES, ids=["en", "ar"])
def test_a_long_e_mail_address_never_widens_a_page_past_a_320_px_phone(new_page, live_server, teas, locale, prefix):
    from accounts.models import User
    from tests.browser.storefront_pages import sign_in

    # given a customer whose e-mail address is longer than a phone's line, signed in, buying with cash on delivery
    user = User.objects.create_user(username=LONG_EMAIL, email=LONG_EMAIL, password="Str0ng-pass-123",
                                    first_name="Mona", last_name="Ali", phone="01012345678")
    page = _phone(new_page, locale, SMALL_PHONE)
    sign_in(page, live_server, user)
    page.goto(f"{prefix}/")
    _add_to_cart(page, teas[0])
    page.goto(f"{prefix}/checkout")
    page.locator('[data-island="checkout"][data-mounted="true"]').wait_for(state="attached")
    page.fill("#co-street", "12 Nile Street")  # the e-mail, names and phone are the account's
    page.fill("#co-city", "Cairo")
    page.select_option("#co-state", "Giza")
    page.locator('input[name="paymentMethod"][value="cod"]').check()
    place_order(page)
    page.wait_for_url("**/thankyou")
    # then the thank-you page and the account page, which show the address, stay 320 px wide (a phone zooms
    # out to show a wider page: everything became small)
    widths = {"thank-you": page.evaluate(WIDTH_JS)}
    page.goto(f"{prefix}/account")
    widths["account"] = page.evaluate(WIDTH_JS)
    page.screenshot(path=f"test-artifacts/phone-walk-account-long-email-{prefix.strip('/') or 'en'}.png",
                    full_page=True)
    assert widths == {"thank-you": [320, 320], "account": [320, 320]}


DIRS_JS = """(ids) => ids.map((id) => { const el = document.getElementById(id);
  return `${id}: ${el.matches(':dir(rtl)') ? 'rtl' : 'ltr'}`; })"""


def test_latin_text_typed_on_an_arabic_page_reads_as_typed_and_arabic_as_arabic(new_page, teas):
    # given an Arabic shopper at checkout on a phone, who types a street in Latin letters and a city in Arabic
    page = _phone(new_page, "ar-EG")
    page.goto("/ar/")
    _add_to_cart(page, teas[0])
    page.goto("/ar/checkout")
    page.locator('[data-island="checkout"][data-mounted="true"]').wait_for(state="attached")
    page.fill("#co-street", "12 Nile Street")
    page.fill("#co-city", "الجيزة")
    page.fill("#co-firstName", "Mona")
    page.fill("#co-couponCode", "WELCOME50")
    # then each reads in its own direction: "12 Nile Street", not "Nile Street 12"
    assert page.evaluate(DIRS_JS, ["co-street", "co-city", "co-firstName", "co-couponCode"]) == [
        "co-street: ltr", "co-city: rtl", "co-firstName: ltr", "co-couponCode: ltr"]
    # and so on the account forms (the register page's names)
    page.goto("/ar/register")
    page.fill("#id_firstName", "Mona")
    page.fill("#id_lastName", "علي")
    assert page.evaluate(DIRS_JS, ["id_firstName", "id_lastName"]) == ["id_firstName: ltr", "id_lastName: rtl"]
