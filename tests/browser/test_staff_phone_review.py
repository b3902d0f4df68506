"""The staff dashboard on a shop owner's phone (360 px), in English and Arabic: what staff measured and saw."""

import pytest
from playwright.sync_api import expect

from backoffice.sections import SECTIONS
from orders.models import PaymentEvent
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.staff_pages import open_island, signed_in
from tests.browser.test_touch_and_focus import FOCUSABLE, MIN_TARGET, SMALL_TARGETS_JS
from tests.factories import make_message, make_order, make_product, make_review

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = [("en-US", "", "en"), ("ar-EG", "/ar", "ar")]

# every stat card whose figure runs past its card's inner edge (or is cut by it)
OVERFLOWING_FIGURES_JS = """() => [...document.querySelectorAll('.admin-stat')].flatMap((card) => {
  const value = card.querySelector('.admin-stat__value');
  const box = card.getBoundingClientRect(), text = document.createRange();
  text.selectNodeContents(value);
  const r = text.getBoundingClientRect();
  return r.left < box.left - 0.5 || r.right > box.right + 0.5 || value.scrollWidth > value.clientWidth + 1
    ? [`${value.textContent} ${Math.round(r.left)}..${Math.round(r.right)} in card `
       + `${Math.round(box.left)}..${Math.round(box.right)}`]
    : [];
})"""


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES)
@pytest.mark.parametrize("viewport, tag", [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_money_figures_stay_inside_their_cards(new_page, live_server, owner, screenshot, locale, prefix, lang,
                                               viewport, tag):
    # given a good month: revenue in six figures
    tea = make_product(title="Kericho Gold", price="95000.00", stock=50)
    make_order(lines=[(tea, 2)], payment_status="cod", status="delivered")
    make_order(lines=[(tea, 1)])
    page = signed_in(new_page, live_server, owner, viewport=viewport, locale=locale)
    for section, island in (("", "admin-overview"), ("/analytics", "admin-analytics")):
        # when
        open_island(page, f"{prefix}/admindash{section}", island)
        page.locator(".admin-stat").first.wait_for()
        # then
        assert page.evaluate(OVERFLOWING_FIGURES_JS) == []
        screenshot(page, f"staff-stat-cards{section.replace('/', '-') or '-overview'}-{tag}-{lang}")


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES)
def test_every_dashboard_control_is_at_least_44_px_on_a_phone(new_page, live_server, owner, screenshot, locale,
                                                              prefix, lang):
    """Staff confirm a cash-on-delivery order at the door, or a stock count in the store room, on a phone: a
    control they tap is 44 × 44 px at least (the storefront's rule, tests/browser/test_touch_and_focus.py)."""
    # given a shop with something in each list
    tea = make_product(title="Kericho Gold", price="450.00", stock=7)
    make_order(lines=[(tea, 2)], payment_status="cod", status="processing")
    make_review(product=tea)
    make_message()
    page = signed_in(new_page, live_server, owner, viewport=PHONE, locale=locale)
    small = []
    for section in SECTIONS:
        # when
        open_island(page, f"{prefix}/admindash/{section.slug}", f"admin-{section.slug}")
        page.wait_for_load_state("networkidle")
        # then
        found = page.evaluate(SMALL_TARGETS_JS, [FOCUSABLE, MIN_TARGET, ".admin-layout"])
        small += [f"{section.slug}: {target}" for target in found["small"]]
        if section.slug in ("orders", "inventory", "settings"):
            screenshot(page, f"staff-phone-targets-{section.slug}-{lang}")
    assert not small, f"{len(small)} controls under 44 px at 360 ({lang}):\n" + "\n".join(small)


def _kiosk_order():
    """A card order whose payment Paymob reported pending: the customer pays cash at a kiosk with 61203455."""
    order = make_order(price="640.00", payment_status="awaiting", status="pending")
    PaymentEvent.objects.create(payment=order.payments.get(), kind="callback-pending", transaction_id="880001",
                                success=False, payload={"pending": True, "data": {"bill_reference": 61203455}})
    return order


@pytest.mark.parametrize("locale, prefix, lang, kiosk, reference, warning, placed", [
    ("en-US", "", "en", "Awaiting cash at a kiosk", "Kiosk payment reference: \u206661203455\u2069", "Not paid yet:",
     "Order placed"),
    ("ar-EG", "/ar", "ar", "بانتظار الدفع نقدًا في منفذ", "الرقم المرجعي للدفع في المنفذ: \u206661203455\u2069",
     "لم يُدفع بعد:", "تم تقديم الطلب"),
])
@pytest.mark.parametrize("viewport, tag", [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_an_order_awaiting_kiosk_cash_says_so_and_shipping_an_unpaid_order_warns_first(
        new_page, live_server, manager, screenshot, locale, prefix, lang, kiosk, reference, warning, placed, viewport,
        tag):
    # given an order awaiting cash at a kiosk, a card order whose payment never came, and a COD order
    held = _kiosk_order()
    unpaid = make_order(price="300.00", payment_status="awaiting", status="pending")
    cod = make_order(price="450.00", payment_status="cod", status="processing")
    page = signed_in(new_page, live_server, manager, viewport=viewport, locale=locale)
    open_island(page, f"{prefix}/admindash/orders", "admin-orders")
    # then the list tells the kiosk order from the card order that is simply unpaid
    expect(page.locator(f"tr[data-row-id='{held.pk}'] [data-payment]")).to_have_text(kiosk)
    expect(page.locator(f"tr[data-row-id='{unpaid.pk}'] [data-payment]")).not_to_have_text(kiosk)
    # and its detail gives the reference the customer pays with
    page.locator(f"tr[data-row-id='{held.pk}']").get_by_role("button", name=held.number).click()
    expect(page.locator("[data-kiosk]")).to_contain_text(reference)
    # and its history, in the dashboard's language
    expect(page.locator(".admin-b-history")).to_contain_text(placed)
    screenshot(page, f"staff-kiosk-order-detail-{tag}-{lang}")
    page.keyboard.press("Escape")
    # when staff move the unpaid card order on
    page.locator(f"tr[data-row-id='{unpaid.pk}'] select").select_option("shipped")
    # then the confirmation says first that no money came for it
    dialog = page.get_by_role("dialog")
    expect(dialog.locator("[data-unpaid-warning]")).to_contain_text(warning)
    expect(dialog.locator("[data-unpaid-warning]")).to_contain_text(unpaid.number)
    screenshot(page, f"staff-unpaid-ship-warning-{tag}-{lang}")
    dialog.get_by_role("button", name="Cancel" if lang == "en" else "إلغاء").click()
    # and a cash-on-delivery order (paid at the door) is shipped without that warning
    page.locator(f"tr[data-row-id='{cod.pk}'] select").select_option("shipped")
    expect(page.get_by_role("dialog")).to_be_visible()
    expect(page.locator("[data-unpaid-warning]")).to_have_count(0)


FOCUS_IN_DIALOG_JS = "() => Boolean(document.activeElement?.closest('[role=dialog]'))"


@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")])
def test_tab_stays_inside_an_open_dialog(new_page, live_server, manager, locale, prefix):
    """A keyboard user confirming a status change must not tab into the page hidden behind the dialog
    (the table, the sidebar): Tab and Shift+Tab go round the dialog's own controls."""
    # given the confirmation of a status change is open
    order = make_order(price="450.00", payment_status="cod", status="processing")
    page = signed_in(new_page, live_server, manager, locale=locale)
    open_island(page, f"{prefix}/admindash/orders", "admin-orders")
    page.locator(f"tr[data-row-id='{order.pk}'] select").select_option("shipped")
    expect(page.get_by_role("dialog")).to_be_visible()
    page.wait_for_function(FOCUS_IN_DIALOG_JS)
    # when staff tab on, past the last control, and back past the first
    escaped = []
    for key in ["Tab"] * 12 + ["Shift+Tab"] * 12:
        page.keyboard.press(key)
        if not page.evaluate(FOCUS_IN_DIALOG_JS):
            escaped.append(f"{key} → {page.evaluate('() => document.activeElement.outerHTML.slice(0, 80)')}")
    # then focus never left it
    assert escaped == []
    # and the dialog still closes with Escape, giving focus back to the page
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)


@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")])
def test_the_tall_phone_header_scrolls_away_with_the_page(new_page, live_server, manager, locale, prefix):
    """On a phone the header holds four rows (about 200 px); pinned to the top it would cover over a quarter
    of the screen over every list staff scroll through."""
    # given a list longer than the screen
    for _ in range(6):
        make_order(price="450.00", payment_status="cod", status="processing")
    page = signed_in(new_page, live_server, manager, viewport=PHONE, locale=locale)
    open_island(page, f"{prefix}/admindash/orders", "admin-orders")
    page.locator("tr[data-row-id]").nth(5).wait_for()
    # when staff scroll down
    page.wait_for_function("() => { window.scrollTo(0, 800); return window.scrollY > 700; }")
    # then the header has gone up with the page
    assert page.evaluate("() => document.querySelector('.admin-header').getBoundingClientRect().bottom") <= 0


@pytest.mark.parametrize("locale, prefix, refused", [
    ("en-US", "", "Stock can be at most 1000000"),
    ("ar-EG", "/ar", "لا يمكن أن يزيد المخزون على 1000000"),
])
def test_a_refused_stock_count_says_why_in_the_staff_members_language(new_page, live_server, manager, locale, prefix,
                                                                      refused):
    # given
    tea = make_product(title="Kericho Gold", stock=10)
    page = signed_in(new_page, live_server, manager, viewport=PHONE, locale=locale)
    open_island(page, f"{prefix}/admindash/inventory", "admin-inventory")
    # when a count with a slip of the finger (one zero too many, past the ceiling) is saved
    page.locator(f"tr[data-row-id='{tea.pk}'] button:not([data-stock-minus]):not([data-stock-plus])").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.locator("input")).to_have_attribute("dir", "ltr")  # a count reads left to right, as other numbers
    dialog.locator("input").fill("2000000")
    dialog.locator(".admin-dialog__foot button").last.click()
    # then the server's reason is shown, not a bare "failed", and the stock is unchanged
    expect(page.locator("#toasts")).to_contain_text(refused)
    expect(page.locator(f"tr[data-row-id='{tea.pk}'] [data-stock]")).to_have_text("10")


@pytest.mark.parametrize("locale, prefix, off, on", [
    ("en-US", "", "alice@example.com is switched off: it can no longer sign in", "alice@example.com can sign in again"),
    ("ar-EG", "/ar", "تم إيقاف الحساب \u2068alice@example.com\u2069: لم يعد بإمكانه تسجيل الدخول",
     "يمكن للحساب \u2068alice@example.com\u2069 تسجيل الدخول مجددًا"),
])
def test_switching_a_customer_account_off_and_on_says_it_was_done(new_page, live_server, manager, alice, screenshot,
                                                                  locale, prefix, off, on):
    # given
    page = signed_in(new_page, live_server, manager, viewport=PHONE, locale=locale)
    open_island(page, f"{prefix}/admindash/users", "admin-users")
    switch = page.locator("tr", has_text="alice@example.com").locator(".admin-toggle")
    # when
    switch.click()
    # then
    expect(page.locator("#toasts")).to_contain_text(off)
    alice.refresh_from_db()
    assert not alice.is_active
    screenshot(page, f"staff-customer-switched-off-{prefix.strip('/') or 'en'}")
    # when
    switch.click()
    # then
    expect(page.locator("#toasts")).to_contain_text(on)
