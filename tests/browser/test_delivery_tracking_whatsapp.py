"""Issue 16 in Chromium, English and Arabic, phone and desktop: delivery by governorate with a date,
track my order (guests too) and WhatsApp."""

import re
from decimal import Decimal

import pytest
from django.test import Client
from playwright.sync_api import expect

from catalog.models import Category, Product
from orders.actions import order_set_status
from orders.models import Order
from shop.store_settings import store_settings_get, store_settings_update
from tests.browser.conftest import DESKTOP, PHONE, islands_ready
from tests.browser.settle import place_order
from tests.browser.staff_pages import signed_in
from tests.factories import make_order, make_product

pytestmark = pytest.mark.django_db(transaction=True)

TEXT = {
    "en": {"prefix": "", "aswan": "Aswan", "cairo": "Cairo", "arrives": "Arrives",
           "cairo_delivery": "Delivery to Cairo", "place": "Place Order", "cod": "Cash on Delivery",
           "track": "Track your order", "not_found": "could not find",
           "optin": "Send me order updates on WhatsApp", "money70": "E£70.00", "money50": "E£50.00",
           "shipped": "Shipped", "courier": "Courier"},
    "ar": {"prefix": "/ar", "aswan": "أسوان", "cairo": "القاهرة", "arrives": "يصل",
           "cairo_delivery": "التوصيل إلى القاهرة",
           "place": "تأكيد الطلب", "cod": "الدفع عند الاستلام", "track": "تتبّع طلبك", "not_found": "لم نجد طلبًا",
           "optin": "أرسلوا لي تحديثات الطلب على واتساب", "money70": "70.00\u00a0ج.م", "money50": "50.00\u00a0ج.م",
           "shipped": "تم الشحن", "courier": "شركة الشحن"},
}


@pytest.fixture
def tea(db):
    black = Category.objects.create(slug="black-tea", name="Black tea", name_ar="شاي أسود")
    store_settings_update(whatsapp_number="+20 100 123 4567")
    return Product.objects.create(slug="kericho-gold", title="Kericho Gold", title_ar="كريتشو جولد",
                                  price_amount=Decimal("300.00"), stock=10, category=black)


def _shots(page, screenshot, name):
    """The same page at 1280 and 360 px."""
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"{name}-{label}")
    page.set_viewport_size(DESKTOP)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_guest_sees_the_date_orders_and_tracks_the_order(new_page, screenshot, tea, lang):
    t, p = TEXT[lang], TEXT[lang]["prefix"]
    page = new_page(viewport=DESKTOP, locale="ar" if lang == "ar" else "en-US")
    # the product page estimates for Cairo while the governorate is unknown, and links to WhatsApp
    page.goto(f"{p}/product/{tea.slug}")
    estimate = page.get_by_test_id("delivery-estimate")
    expect(estimate).to_contain_text(t["cairo_delivery"])
    expect(estimate).to_contain_text(re.compile(t["arrives"] + r".*\d"))
    assert not re.search("[٠-٩]", estimate.text_content())  # Latin digits
    assert page.get_by_test_id("whatsapp-link").get_attribute("href").startswith("https://wa.me/201001234567?text=")
    islands_ready(page, "add-to-cart")
    _shots(page, screenshot, f"issue16-product-{lang}")
    page.locator(".add-to-cart__button").click()
    expect(page.locator(".site-header .badge").first).to_have_text("1")
    # the cart: choosing Aswan shows its rate and date at once
    page.goto(f"{p}/cart")
    page.locator("[data-island=cart][data-mounted]").wait_for()
    page.select_option("#cart-governorate", "Aswan")
    expect(page.get_by_test_id("delivery-estimate")).to_contain_text(t["arrives"])
    expect(page.get_by_test_id("summary")).to_contain_text(t["money70"])
    _shots(page, screenshot, f"issue16-cart-{lang}")
    # the checkout knows Aswan already; Cairo is cheaper
    page.goto(f"{p}/checkout")
    page.locator("#co-email").wait_for()
    expect(page.locator("#co-state")).to_have_value("Aswan")
    expect(page.get_by_test_id("delivery-estimate")).to_contain_text(t["arrives"])
    page.fill("#co-email", "mona@example.com")
    page.fill("#co-phone", "01012345678")
    page.fill("#co-firstName", "Mona")
    page.fill("#co-lastName", "Ali")
    page.fill("#co-street", "12 Nile Street")
    page.fill("#co-city", "Nasr City")
    page.select_option("#co-state", "Cairo")
    expect(page.get_by_test_id("summary")).to_contain_text(t["money50"])
    page.get_by_label(t["optin"]).check()
    page.get_by_label(t["cod"]).check()
    _shots(page, screenshot, f"issue16-checkout-{lang}")
    place_order(page)
    # the thank-you page gives the date, the tracking link and WhatsApp
    page.get_by_test_id("thankyou").wait_for()
    order = Order.objects.get()
    assert order.whatsapp_opt_in and order.shipping_amount == Decimal("50.00")
    expect(page.get_by_test_id("order-delivery")).to_contain_text(t["arrives"])
    assert order.number in page.get_by_test_id("whatsapp-link").get_attribute("href")
    _shots(page, screenshot, f"issue16-thankyou-{lang}")
    # staff ship it with a courier; the signed link shows the history, shipment and masked address
    order_set_status(order=order, status="shipped", courier="Bosta", tracking_number="BX-7781",
                     customer_note="Call before 5 pm")
    page.get_by_test_id("track-link").click()
    page.get_by_test_id("tracking").wait_for()
    expect(page.get_by_test_id("track-status")).to_have_text(t["shipped"])
    expect(page.get_by_test_id("track-shipment")).to_contain_text("BX-7781")
    expect(page.get_by_test_id("track-shipment")).to_contain_text(t["courier"])
    expect(page.get_by_test_id("track-address")).to_contain_text("12 ••••••••")
    expect(page.get_by_test_id("track-delivery")).to_contain_text(t["arrives"])
    _shots(page, screenshot, f"issue16-tracking-{lang}")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_track_form_answers_one_way_to_wrong_pairs(new_page, screenshot, tea, lang):
    t, p = TEXT[lang], TEXT[lang]["prefix"]
    client = Client()
    client.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, content_type="application/json")
    client.post("/api/payment/create-intention", {
        "paymentMethod": "cod",
        "customer": {"firstName": "Mona", "lastName": "Ali", "email": "mona@example.com", "phone": "01012345678"},
        "billingAddress": {"street": "12 Nile St", "city": "Cairo", "state": "Cairo", "country": "EGY"},
    }, content_type="application/json")
    order = Order.objects.get()
    page = new_page(viewport=DESKTOP, locale="ar" if lang == "ar" else "en-US")
    page.goto(f"{p}/track")
    page.fill("#t-number", order.number)
    page.fill("#t-contact", "someone@example.com")
    page.locator(".track-form button[type=submit]").click()
    expect(page.get_by_test_id("track-error")).to_contain_text(t["not_found"])
    _shots(page, screenshot, f"issue16-track-form-{lang}")
    page.fill("#t-contact", "+20 10 1234 5678")
    page.locator(".track-form button[type=submit]").click()
    page.get_by_test_id("tracking").wait_for()
    assert "/track/" in page.url and (p == "" or page.url.split("://", 1)[1].split("/", 1)[1].startswith("ar/"))


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_staff_edit_the_delivery_table_and_ship_with_a_courier(new_page, live_server, screenshot, owner, tea, lang):
    p = TEXT[lang]["prefix"]
    page = signed_in(new_page, live_server, owner, viewport=DESKTOP, locale="ar" if lang == "ar" else "en-US")
    page.goto(f"{p}/admindash/settings")
    page.locator('[data-island="admin-settings"][data-mounted="true"]').wait_for()
    table = page.get_by_test_id("delivery-table")
    expect(table.locator("tbody tr")).to_have_count(28)  # the default row and the 27
    giza = table.locator('tr[data-governorate="Giza"] input[inputmode=decimal]').first
    giza.fill("35")
    table.locator("tr").nth(2).scroll_into_view_if_needed()
    _shots(page, screenshot, f"issue16-settings-delivery-{lang}")
    page.locator(".admin-settings__actions button[type=submit]").click()
    expect(page.locator("#toasts")).to_contain_text(re.compile("Settings saved|تم حفظ"))
    assert store_settings_get().shipping_zones["Giza"]["rate"] == "35.00"
    # the status dialog at shipped asks for the courier and a note to the customer
    order = make_order(lines=[(make_product(price="150"), 1)])
    page.goto(f"{p}/admindash/orders")
    page.locator('[data-island="admin-orders"][data-mounted="true"]').wait_for()
    page.locator(f'select[aria-label*="{order.number}"]').select_option("shipped")
    dialog = page.get_by_role("dialog")
    inputs = dialog.locator("input.input")
    inputs.nth(0).fill("BX-1")
    inputs.nth(1).fill("Bosta")
    dialog.locator("textarea").first.fill("Call before 5 pm")
    _shots(page, screenshot, f"issue16-ship-dialog-{lang}")
    dialog.locator("button[type=submit]").click()
    expect(page.locator("#toasts")).to_contain_text(order.number)
    change = Order.objects.get(pk=order.pk).status_changes.last()
    assert (change.tracking_number, change.courier, change.customer_note) == ("BX-1", "Bosta", "Call before 5 pm")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_cash_on_delivery_cannot_be_chosen_where_the_governorate_refuses_it(new_page, screenshot, tea, lang):
    # given: a cart, and a checkout with cash on delivery chosen for Cairo
    t, p = TEXT[lang], TEXT[lang]["prefix"]
    page = new_page(viewport=PHONE, locale="ar" if lang == "ar" else "en-US")
    page.goto(f"{p}/product/{tea.slug}")
    islands_ready(page, "add-to-cart")
    page.locator(".add-to-cart__button").click()
    expect(page.locator(".site-header .badge").first).to_have_text("1")
    page.goto(f"{p}/checkout")
    page.locator("[data-island=checkout][data-mounted]").wait_for()
    page.select_option("#co-state", "Cairo")
    cod = page.get_by_label(t["cod"])
    expect(cod).to_be_enabled()
    # when: the parcel goes to North Sinai, where the store takes no cash on delivery
    page.select_option("#co-state", "North Sinai")
    # then: the method cannot be chosen there, and another one is
    expect(cod).to_be_disabled()
    expect(cod).not_to_be_checked()
    screenshot(page, f"issue16-cod-refused-{lang}-phone")
    page.select_option("#co-state", "Giza")
    expect(cod).to_be_enabled()


def test_a_slow_summary_does_not_overwrite_the_newer_choice(new_page, tea):
    # given: a checkout whose summary for Cairo is held back by the network
    page = new_page(viewport=PHONE)
    page.goto(f"/product/{tea.slug}")
    islands_ready(page, "add-to-cart")
    page.locator(".add-to-cart__button").click()
    expect(page.locator(".site-header .badge").first).to_have_text("1")
    page.goto("/checkout")
    page.locator("[data-island=checkout][data-mounted]").wait_for()
    held = []
    page.route("**/api/cart/summary", lambda route: route.continue_() if held else held.append(route))
    cod = page.get_by_label(TEXT["en"]["cod"])
    page.select_option("#co-state", "Cairo")
    page.select_option("#co-state", "North Sinai")
    expect(cod).to_be_disabled()
    # when: Cairo's answer arrives after North Sinai's
    with page.expect_response("**/api/cart/summary"):
        held[0].continue_()
    # then: the page still shows North Sinai's terms, where the store takes no cash on delivery
    page.wait_for_timeout(200)  # a render the late answer would cause
    expect(cod).to_be_disabled()
    expect(page.locator(".checkout-summary")).not_to_contain_text("Cairo")


# each "<day> <month>" of the delivery dates: whether the day number and its month's first letter lie on one line
DATES_ON_ONE_LINE = r"""() => {
  const parted = [];
  for (const el of document.querySelectorAll('main strong, main p, main span')) {
    for (const node of el.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      for (const match of node.textContent.matchAll(/(\d+)(\s)(\S)/g)) {
        const at = (offset) => { const range = document.createRange(); range.setStart(node, offset);
          range.setEnd(node, offset + 1); return range.getBoundingClientRect(); };
        const day = at(match.index + match[1].length - 1), month = at(match.index + match[0].length - 1);
        if (day.height && month.height && Math.abs(day.top - month.top) > 4) parted.push(node.textContent.trim());
      }
    }
  }
  return parted;
}"""


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_delivery_dates_day_and_month_stay_on_one_line(new_page, tea, lang):
    # given a product page with its delivery estimate ("Arrives Mon 30 Nov – Tue 1 Dec")
    text = TEXT[lang]
    page = new_page(viewport=DESKTOP, locale="ar-EG" if lang == "ar" else "en-US")
    page.goto(f"{text['prefix']}/product/{tea.slug}")
    expect(page.get_by_text(re.compile(text["arrives"])).first).to_be_visible()
    # then at no width does a day number end one line and its month begin the next
    for width in range(320, 1281, 8):
        page.set_viewport_size({"width": width, "height": 800})
        assert page.evaluate(DATES_ON_ONE_LINE) == [], f"at {width} px"
