"""Issue 17's dashboard defects in a real browser, English and Arabic: each test failed before its fix."""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from backoffice.models import AuditEntry
from shop.models import StoreSettings
from shop.store_settings import store_settings_update
from tests.browser.conftest import PHONE
from tests.browser.staff_pages import open_island, signed_in
from tests.factories import make_order, make_product, make_review

pytestmark = pytest.mark.django_db(transaction=True)


def _store():
    return StoreSettings.objects.get_or_create(pk=1)[0]


def test_vat_is_typed_and_shown_as_a_percentage(new_page, live_server, owner):
    # given
    page = signed_in(new_page, live_server, owner)
    open_island(page, "/admindash/settings", "admin-settings")
    vat = page.get_by_label("VAT (%)")
    # then
    expect(vat).to_have_value(re.compile(r"^14(\.00?)?$"))
    # when
    vat.fill("15")
    page.get_by_role("button", name="Save Settings").click()
    # then
    expect(page.locator("#toasts")).to_contain_text("Settings saved")
    assert str(_store().tax_rate) == "0.1500"


def test_the_arabic_settings_take_vat_as_a_percentage_too(new_page, live_server, owner):
    # given
    page = signed_in(new_page, live_server, owner, viewport=PHONE, locale="ar")
    open_island(page, "/ar/admindash/settings", "admin-settings")
    # then
    expect(page.get_by_label("ضريبة القيمة المضافة (%)")).to_have_value(re.compile(r"^14(\.00?)?$"))


def test_the_maintenance_switch_asks_first_and_then_takes_effect_without_save(new_page, live_server, owner):
    # given
    page = signed_in(new_page, live_server, owner)
    open_island(page, "/admindash/settings", "admin-settings")
    switch = page.get_by_role("checkbox", name="Maintenance mode")
    # when: cancelled
    switch.click(force=True)
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Shoppers will see the maintenance page")
    dialog.get_by_role("button", name="Cancel").click()
    # then
    expect(switch).not_to_be_checked()
    assert _store().maintenance_mode is False
    # when: confirmed
    switch.click(force=True)
    page.get_by_role("dialog").get_by_role("button", name="Turn on").click()
    # then: on at once, no Save pressed
    expect(page.locator("#toasts")).to_contain_text("Maintenance mode is on")
    expect(switch).to_be_checked()
    assert _store().maintenance_mode is True
    # and the storefront tells the staff member
    page.goto("/")
    expect(page.get_by_role("status").filter(
        has_text="Maintenance mode is on: shoppers see the maintenance page")).to_be_visible()


def test_a_save_sends_only_what_was_changed_and_keeps_maintenance_mode_switched_on_meanwhile(
        new_page, live_server, owner):
    # given: Settings open, then maintenance mode switched on elsewhere (another staff member)
    page = signed_in(new_page, live_server, owner)
    open_island(page, "/admindash/settings", "admin-settings")
    store_settings_update(maintenance_mode=True)
    # when: only the COD fee changed, and Save
    page.get_by_label("Cash on delivery fee (EGP)").fill("15")
    with page.expect_request(lambda r: r.url.endswith("/api/admin/settings") and r.method == "PUT") as sent:
        page.get_by_role("button", name="Save Settings").click()
    expect(page.locator("#toasts")).to_contain_text("Settings saved")
    # then: the one field went, and the shop stays closed
    assert sent.value.post_data_json == {"codFee": "15"}
    store = _store()
    assert store.cod_fee == Decimal("15") and store.maintenance_mode is True
    # and the switch shows what the server holds now
    expect(page.get_by_role("checkbox", name="Maintenance mode")).to_be_checked()


def test_recent_activity_shows_the_one_changed_setting_in_words(new_page, live_server, owner):
    # given: the whole settings form saved with only the COD fee changed
    page = signed_in(new_page, live_server, owner)
    open_island(page, "/admindash/settings", "admin-settings")
    page.get_by_label("Cash on delivery fee (EGP)").fill("15")
    page.get_by_role("button", name="Save Settings").click()
    expect(page.locator("#toasts")).to_contain_text("Settings saved")
    # when
    open_island(page, "/admindash", "admin-overview")
    # then
    activity = page.locator(".admin-activity li").first
    expect(activity).to_contain_text("Settings changed · Cash on delivery fee: 0.00 → 15.00")
    expect(activity).not_to_contain_text("cod_")
    # and in Arabic
    open_island(page, "/ar/admindash", "admin-overview")
    # the arrow points the reading way
    expect(page.locator(".admin-activity li").first).to_contain_text("رسوم الدفع عند الاستلام: 0.00 ← 15.00")


def test_a_changed_key_of_a_setting_that_holds_several_is_named_after_the_setting(new_page, live_server, owner):
    # given: a change to one governorate's delivery rate and to the WhatsApp number
    AuditEntry.objects.create(actor=owner, actor_name=owner.username, action="settings.update", changes=[
        {"field": "shipping_zones.Giza", "old": "", "new": "60.00"},
        {"field": "whatsapp_number", "old": "", "new": "+201001234567"},
        {"field": "description_en", "old": "", "new": ""}])
    page = signed_in(new_page, live_server, owner)
    # when
    open_island(page, "/admindash", "admin-overview")
    # then
    activity = page.locator(".admin-activity li").first
    expect(activity).to_contain_text("Delivery by governorate (Giza): (empty) → 60.00")
    expect(activity).to_contain_text("WhatsApp number: (empty) → +201001234567")
    expect(activity).to_contain_text("Description: changed")
    open_island(page, "/ar/admindash", "admin-overview")
    expect(page.locator(".admin-activity li").first).to_contain_text("التوصيل حسب المحافظة (Giza)")


def test_inventory_rows_stay_in_place_after_a_stock_change_until_the_list_is_refreshed(new_page, live_server, manager):
    # given: two products listed lowest stock first
    alpha = make_product(title="Alpha Tea", stock=5)
    beta = make_product(title="Beta Tea", stock=6)
    page = signed_in(new_page, live_server, manager)
    open_island(page, "/admindash/inventory", "admin-inventory")
    first_row = page.locator("tbody tr").first
    expect(first_row).to_have_attribute("data-row-id", str(alpha.pk))
    # when: Alpha goes above Beta, and the summary reloads
    first_row.locator("[data-stock-plus]").click()
    first_row.locator("[data-stock-plus]").click()
    expect(page.locator(f"tr[data-row-id='{alpha.pk}'] [data-stock]")).to_have_text("7")
    page.wait_for_load_state("networkidle")
    expect(page.locator(".admin-stat").filter(has_text="Low Stock")).to_contain_text("2")
    # then: Alpha is still where the pointer is, and the next click changes Alpha again
    expect(first_row).to_have_attribute("data-row-id", str(alpha.pk))
    first_row.locator("[data-stock-plus]").click()
    expect(page.locator(f"tr[data-row-id='{alpha.pk}'] [data-stock]")).to_have_text("8")
    page.wait_for_load_state("networkidle")
    beta.refresh_from_db()
    assert beta.stock == 6
    # when: the list is refreshed
    page.get_by_role("button", name="Refresh Now").click()
    # then: lowest stock first again
    expect(page.locator("tbody tr").first).to_have_attribute("data-row-id", str(beta.pk))


@pytest.mark.parametrize(("path", "username", "password", "sign_in"), [
    ("/adminauth", "Username", "Password", "Sign In"),
    ("/ar/adminauth", "اسم المستخدم", "كلمة المرور", "تسجيل الدخول")])
def test_sign_in_stays_disabled_until_both_fields_hold_something(new_page, live_server, path, username, password,
                                                                  sign_in):
    # given
    page = new_page(viewport=PHONE, locale="ar" if path.startswith("/ar") else "en-US")
    page.goto(path)
    page.locator('[data-island="admin-login"][data-mounted="true"]').wait_for()  # typing before would be lost
    button = page.get_by_role("button", name=sign_in)
    # when: a username of spaces and a password
    page.get_by_label(username).fill("   ")
    page.get_by_label(password).fill("secret")
    # then
    expect(button).to_be_disabled()
    # when
    page.get_by_label(username).fill("owner")
    # then
    expect(button).to_be_enabled()


def test_the_server_rendered_sign_in_form_cannot_be_pressed_while_a_field_is_empty(browser, live_server):
    # given: the form as the server sends it, before (or without) the island
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    page = context.new_page()
    page.goto("/adminauth")
    button = page.get_by_role("button", name="Sign In")
    pointer = "b => getComputedStyle(b).pointerEvents"
    # then
    assert button.evaluate(pointer) == "none"
    page.get_by_label("Username").fill("owner")
    assert button.evaluate(pointer) == "none"
    # when
    page.get_by_label("Password").fill("secret")
    # then
    assert button.evaluate(pointer) == "auto"
    context.close()


def test_a_review_is_approved_then_rejected_and_stays_in_the_list(new_page, live_server, head_support):
    # given: one pending review, on the default "pending" filter
    review = make_review(product=make_product(title="Green Mist"), title="Fresh and grassy")
    page = signed_in(new_page, live_server, head_support)
    open_island(page, "/admindash/reviews", "admin-reviews")
    row = page.get_by_role("row").filter(has_text="Fresh and grassy")
    # when
    row.get_by_role("button", name="Approve").click()
    # then: the row is still there, approved, and the counts follow
    expect(page.locator("#toasts")).to_contain_text("Review approved")
    expect(row).to_contain_text("Approved")
    expect(page.locator(".admin-table__pager")).to_contain_text("Showing 1–1 of 1")
    expect(page.locator(".admin-b-counts")).to_contain_text("Approved: 1")
    # when
    row.get_by_role("button", name="Reject").click()
    # then
    expect(row).to_contain_text("Rejected")
    expect(page.locator(".admin-b-counts")).to_contain_text("Rejected: 1")
    review.refresh_from_db()
    assert review.status == "rejected"


def test_the_arabic_reviews_screen_rejects_a_review(new_page, live_server, head_support):
    # given
    review = make_review(title="Too bitter")
    page = signed_in(new_page, live_server, head_support, viewport=PHONE, locale="ar")
    open_island(page, "/ar/admindash/reviews", "admin-reviews")
    row = page.get_by_role("row").filter(has_text="Too bitter")
    # when
    row.get_by_role("button", name="رفض").click()
    # then
    expect(page.locator("#toasts")).to_contain_text("تم رفض التقييم")
    expect(row).to_contain_text("مرفوض")
    review.refresh_from_db()
    assert review.status == "rejected"


def test_guest_buyers_are_listed_by_e_mail_beside_accounts(new_page, live_server, support, alice):
    # given: a guest who ordered twice, and alice with no order
    store_settings_update(free_shipping_threshold=Decimal("0"))  # each order's total is its one price
    make_order(email="hoda@example.com", first_name="Hoda", last_name="Nabil", price="100.00")
    make_order(email="hoda@example.com", first_name="Hoda", last_name="Nabil", price="50.00")
    page = signed_in(new_page, live_server, support)
    # when
    open_island(page, "/admindash/users", "admin-users")
    # then
    hoda = page.get_by_role("row").filter(has_text="hoda@example.com")
    expect(hoda).to_contain_text("Guest")
    expect(hoda).to_contain_text("2")
    expect(hoda).to_contain_text("150.00")
    expect(page.get_by_role("row").filter(has_text="alice@example.com")).to_contain_text("Account")
    # when: only guests
    page.get_by_label("Guests or accounts").select_option("guest")
    # then
    expect(page.get_by_role("row").filter(has_text="alice@example.com")).to_have_count(0)
    expect(page.locator(".admin-table__pager")).to_contain_text("Showing 1–1 of 1")


def test_the_arabic_customers_screen_shows_guests(new_page, live_server, support):
    # given
    make_order(email="hoda@example.com", first_name="هدى")
    page = signed_in(new_page, live_server, support, viewport=PHONE, locale="ar")
    # when
    open_island(page, "/ar/admindash/users", "admin-users")
    # then
    expect(page.get_by_role("row").filter(has_text="hoda@example.com")).to_contain_text("زائر")


FITS = """select => {
  const style = getComputedStyle(select);
  const probe = document.createElement("span");
  probe.style.font = style.font;
  probe.style.whiteSpace = "nowrap";
  document.body.append(probe);
  let widest = 0;
  for (const option of select.options) {
    probe.textContent = option.text;
    widest = Math.max(widest, probe.getBoundingClientRect().width);
  }
  probe.remove();
  const room = select.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd);
  return widest <= room;
}"""


@pytest.mark.parametrize(("path", "locale"), [("/admindash/orders", "en-US"), ("/ar/admindash/orders", "ar")])
def test_the_row_status_select_shows_its_longest_status_whole(new_page, live_server, manager, path, locale):
    # given
    order = make_order()
    page = signed_in(new_page, live_server, manager, locale=locale, viewport={"width": 1024, "height": 800})
    # when: a laptop-sized window, where the table squeezes its columns
    open_island(page, path, "admin-orders")
    select = page.locator(f"select[aria-label*='{order.number}']")
    # then
    assert select.evaluate(FITS)


def test_a_row_status_change_waits_for_confirmation_and_keeps_a_note_and_tracking_number(new_page, live_server,
                                                                                         manager):
    # given
    from orders.models import Order
    order = make_order(lines=[(make_product(price="150"), 1)])
    page = signed_in(new_page, live_server, manager)
    open_island(page, "/admindash/orders", "admin-orders")
    select = page.get_by_label(f"Status of order {order.number}")
    # when: cancelling is chosen, then called off
    select.select_option("cancelled")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Cancelling releases the reserved stock")
    dialog.get_by_role("button", name="Cancel", exact=True).click()
    # then: nothing changed, and the select shows the order's status again
    expect(select).to_have_value("processing")
    assert Order.objects.get(pk=order.pk).status == "processing"
    # when: shipped, with a tracking number and a note
    select.select_option("shipped")
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("Tracking number").fill("EG123456789")
    dialog.get_by_label("Note (optional)").fill("Aramex, two boxes")
    dialog.get_by_role("button", name="Change to Shipped").click()
    # then
    expect(page.locator("#toasts")).to_contain_text("Shipped")
    assert Order.objects.get(pk=order.pk).status == "shipped"
    # and the order detail shows them
    page.get_by_role("button", name=order.number).click()
    detail = page.get_by_role("dialog")
    expect(detail).to_contain_text("Tracking number: \u2066EG123456789\u2069")  # LTR-isolated code
    expect(detail).to_contain_text("Aramex, two boxes")


def test_the_bulk_bar_starts_with_no_status_and_asks_before_changing(new_page, live_server, manager):
    # given
    from orders.models import Order
    orders = [make_order(first_name="Sara"), make_order(first_name="Omar")]
    page = signed_in(new_page, live_server, manager, locale="ar")
    open_island(page, "/ar/admindash/orders", "admin-orders")
    page.get_by_role("row").filter(has_text="Sara").wait_for()
    bulk = page.get_by_label("الحالة الجديدة للطلبات المحددة")
    # then
    expect(bulk).to_have_value("")
    # when: orders selected but no status chosen
    page.get_by_role("checkbox", name="تحديد الكل").check()
    page.get_by_role("button", name="تطبيق على المحدد").click()
    # then
    expect(page.locator("#toasts")).to_contain_text("اختر حالة للطلبات المحددة")
    # when
    bulk.select_option("cancelled")
    page.get_by_role("button", name="تطبيق على المحدد").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("الإلغاء يحرر المخزون المحجوز")
    dialog.get_by_label("ملاحظة (اختيارية)").fill("طلب العميل")
    dialog.get_by_role("button", name="تغيير إلى ملغي").click()
    # then
    expect(page.get_by_role("dialog")).to_have_count(0)
    assert set(Order.objects.filter(pk__in=[o.pk for o in orders]).values_list("status", flat=True)) == {"cancelled"}
    cancelled = Order.objects.get(pk=orders[0].pk).status_changes.filter(to_status="cancelled")
    assert set(cancelled.values_list("note", flat=True)) == {"طلب العميل"}


@pytest.mark.parametrize(("path", "locale"), [("/admindash/orders", "en-US"), ("/ar/admindash/orders", "ar")])
def test_the_dark_sidebar_runs_the_whole_height_of_a_long_page(new_page, live_server, manager, path, locale):
    # given: a page three screens long
    page = signed_in(new_page, live_server, manager, locale=locale)
    open_island(page, path, "admin-orders")
    page.evaluate("""() => { const tall = document.createElement("div");
                             tall.className = "test-tall"; tall.style.blockSize = "2600px";
                             document.querySelector("#main").append(tall); }""")
    # when
    sidebar = page.locator("nav.admin-sidebar").evaluate("n => n.getBoundingClientRect().height")
    document = page.evaluate("() => document.documentElement.scrollHeight")
    # then
    assert document > 2600 and sidebar >= document - 1
    # and its links stay in view at the bottom of the page
    page.mouse.wheel(0, 5000)
    expect(page.get_by_role("navigation", name=re.compile("Dashboard sections|أقسام")).get_by_role(
        "link").first).to_be_in_viewport()


def test_sidebar_icons_are_drawn_from_one_svg_sprite_and_mirror_in_arabic(new_page, live_server, owner):
    # given
    page = signed_in(new_page, live_server, owner, locale="ar")
    # when
    open_island(page, "/ar/admindash", "admin-overview")
    links = page.locator(".admin-sidebar__link")
    # then: every link shows an icon from the sprite, and no symbol characters
    icons = page.evaluate("""() => [...document.querySelectorAll('.admin-sidebar__link')].map((link) => {
        const use = link.querySelector('svg.admin-icon use');
        const id = use && use.getAttribute('href').slice(1);
        const box = link.querySelector('svg.admin-icon').getBoundingClientRect();
        return {id, found: Boolean(id && document.querySelector(`.admin-icon-sprite symbol[id="${id}"]`)),
                drawn: box.width > 0 && box.height > 0, text: link.textContent.trim()};
    })""")
    assert len(icons) == links.count() == 17  # 16 sections and one's own two-step sign-in
    assert all(i["found"] and i["drawn"] for i in icons)
    assert not any(re.search(r"[\u2190-\u2bff]", i["text"]) for i in icons)
    # and an icon that points a way is flipped right-to-left, one that does not is not
    mirrored = "a => getComputedStyle(a.querySelector('svg.admin-icon')).transform"
    assert page.locator(".admin-sidebar__link[data-section='analytics']").evaluate(mirrored).startswith("matrix(-1")
    assert page.locator(".admin-sidebar__link[data-section='orders']").evaluate(mirrored) == "none"


def test_product_deletes_live_in_a_row_menu_and_several_go_at_once(new_page, live_server, owner):
    # given
    from catalog.models import Product

    products = [make_product(title=f"Tea {n}", stock=20) for n in range(4)]
    page = signed_in(new_page, live_server, owner)
    open_island(page, "/admindash/products", "admin-products")
    rows = page.locator("tbody tr")
    expect(rows).to_have_count(4)
    # then: no row of red Delete buttons
    expect(page.locator("tbody").get_by_role("button", name="Delete")).to_have_count(0)
    # when: one product through its menu
    page.get_by_label("More actions for Tea 0").click()
    page.get_by_role("menuitem", name="Delete").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    # then
    expect(page.locator("#toasts")).to_contain_text("Product deleted")
    expect(rows).to_have_count(3)
    # when: two selected, deleted together
    for title in ("Tea 1", "Tea 2"):
        page.get_by_role("row").filter(has_text=title).get_by_role("checkbox").check()
    page.get_by_role("button", name="Delete selected (2)").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete selected (2)").click()
    # then
    expect(page.locator("#toasts")).to_contain_text("2 products deleted")
    expect(rows).to_have_count(1)
    assert list(Product.objects.values_list("pk", flat=True)) == [products[3].pk]


def test_the_arabic_product_row_menu_opens_inside_the_page(new_page, live_server, owner):
    # given
    make_product(title="Kenya Gold", stock=20, title_ar="ذهب كينيا")
    page = signed_in(new_page, live_server, owner, viewport=PHONE, locale="ar")
    open_island(page, "/ar/admindash/products", "admin-products")
    # when
    page.get_by_label(re.compile("إجراءات أخرى لـ")).click()  # the row's title is isolated (issue 13)
    # then
    item = page.get_by_role("menuitem", name="حذف")
    expect(item).to_be_visible()
    item.scroll_into_view_if_needed()
    expect(item).to_be_in_viewport(ratio=1)
