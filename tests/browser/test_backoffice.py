"""The staff dashboard in a real browser: sign in, inventory, the Arabic dashboard, screenshots."""

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.staff_pages import signed_in
from tests.factories import make_category, make_product

pytestmark = pytest.mark.django_db(transaction=True)


def test_staff_sign_in_with_username_and_land_on_the_dashboard(new_page, live_server, owner, password, screenshot):
    # given
    page = new_page(viewport=PHONE)
    page.goto("/adminauth")
    page.locator('[data-island="admin-login"][data-mounted="true"]').wait_for()  # typing before would be lost
    button = page.get_by_role("button", name="Sign In")
    expect(page.get_by_text("Authorized personnel only")).to_be_visible()
    expect(button).to_be_disabled()
    page.get_by_label("Username").fill("owner")
    expect(button).to_be_disabled()
    page.get_by_label("Password").fill("wrong password")
    expect(button).to_be_enabled()
    screenshot(page, "backoffice-login-phone-en")
    # when: a wrong password first
    button.click()
    # then
    expect(page.get_by_role("alert").filter(has_text="Invalid username or password")).to_be_visible()
    # when
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign In").click()
    # then
    expect(page).to_have_url(re.compile(r"/admindash$"))
    expect(page.get_by_text("Welcome, owner")).to_be_visible()
    expect(page.locator("#toasts")).to_contain_text("Welcome to the admin dashboard!")
    expect(page.get_by_text("Total Products")).to_be_visible()


def test_inventory_plus_and_minus_change_the_stock(new_page, live_server, manager, screenshot):
    # given
    product = make_product(title="Kenya Gold", stock=10)
    make_product(title="Chai Masala", stock=40)
    page = signed_in(new_page, live_server, manager)
    page.goto("/admindash/inventory")
    row = page.locator(f"tr[data-row-id='{product.pk}']")
    expect(row.locator("[data-stock]")).to_have_text("10")
    # when
    row.locator("[data-stock-plus]").click()
    # then
    expect(row.locator("[data-stock]")).to_have_text("11")
    # when
    row.locator("[data-stock-minus]").click()
    expect(row.locator("[data-stock]")).to_have_text("10")
    row.locator("[data-stock-minus]").click()
    # then
    expect(row.locator("[data-stock]")).to_have_text("9")
    product.refresh_from_db()
    assert product.stock == 9
    screenshot(page, "backoffice-inventory-desktop-en")


def test_the_set_stock_prompt_accepts_numbers_only(new_page, live_server, manager):
    product = make_product(title="Kenya Gold", stock=10)
    page = signed_in(new_page, live_server, manager)
    page.goto("/admindash/inventory")
    page.locator(f"tr[data-row-id='{product.pk}']").get_by_role("button", name="Set").click()
    field = page.get_by_label("New stock")
    field.fill("")
    field.press_sequentially("2a5")
    expect(field).to_have_value("25")
    page.get_by_role("dialog").get_by_role("button", name="Save").click()
    expect(page.locator(f"tr[data-row-id='{product.pk}'] [data-stock]")).to_have_text("25")


@pytest.mark.parametrize("viewport,tag", [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_the_arabic_dashboard_is_right_to_left(new_page, live_server, owner, viewport, tag, screenshot):
    # given
    make_product(title="Kenya Gold", stock=3, title_ar="ذهب كينيا")
    page = signed_in(new_page, live_server, owner, viewport=viewport, locale="ar")
    # when
    page.goto("/ar/admindash")
    # then
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.get_by_text("إجمالي المنتجات")).to_be_visible()
    expect(page.get_by_text("تحديث الآن")).to_be_visible()
    screenshot(page, f"backoffice-overview-{tag}-ar")
    page.goto("/ar/admindash/products")
    expect(page.get_by_text("ذهب كينيا")).to_be_visible()
    screenshot(page, f"backoffice-products-{tag}-ar")


@pytest.mark.parametrize("viewport,tag", [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_the_english_sections_render(new_page, live_server, owner, viewport, tag, screenshot):
    make_product(title="Kenya Gold", stock=3)
    make_product(title="Chai Masala", stock=40, sale_price_amount="90.00")
    page = signed_in(new_page, live_server, owner, viewport=viewport)
    for section, text in [("", "System Status"), ("products", "Kenya Gold"), ("users", "Add Customer"),
                          ("settings", "Maintenance mode"), ("roles", "Permissions by role"),
                          ("storage", "Cache status"), ("database", "Initialize Database")]:
        page.goto(f"/admindash/{section}")
        expect(page.get_by_text(text).first).to_be_visible()
        page.wait_for_load_state("networkidle")
        screenshot(page, f"backoffice-{section or 'overview'}-{tag}-en")


def test_support_sees_the_owner_only_note_on_roles(new_page, live_server, support):
    page = signed_in(new_page, live_server, support)
    page.goto("/admindash/roles")
    expect(page.get_by_text("Only the Owner can manage user roles and permissions.")).to_be_visible()
    expect(page.get_by_role("link", name="Role Management")).to_have_count(0)


def test_a_product_is_added_through_the_dialog(new_page, live_server, manager, screenshot):
    make_category("black-tea")
    page = signed_in(new_page, live_server, manager, viewport=PHONE)
    page.goto("/admindash/products")
    page.get_by_role("button", name="Add Product").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("button", name="Save").click()
    expect(dialog.get_by_text("Title is required")).to_be_visible()
    screenshot(page, "backoffice-product-dialog-phone-en")
    dialog.get_by_label("Title", exact=True).fill("Sunrise Breakfast")
    dialog.get_by_label("Price (EGP)", exact=True).fill("12.50")
    dialog.get_by_label("Stock", exact=True).fill("7")
    dialog.get_by_role("button", name="Save").click()
    expect(page.locator("#toasts")).to_contain_text("Product created")
    expect(page.get_by_text("Sunrise Breakfast")).to_be_visible()


def test_the_phone_menu_opens_and_closes(new_page, live_server, support, screenshot):
    page = signed_in(new_page, live_server, support, viewport=PHONE, locale="ar")
    page.goto("/ar/admindash")
    sidebar = page.locator(".admin-sidebar")
    expect(sidebar).to_be_hidden()
    page.locator(".admin-header__menu").click()
    expect(sidebar).to_be_visible()
    expect(sidebar.get_by_role("link", name="الطلبات")).to_be_visible()
    screenshot(page, "backoffice-menu-phone-ar")
    page.mouse.click(20, 400)  # the backdrop beside the drawer (which opens on the right in Arabic)
    expect(sidebar).to_be_hidden()


def test_refresh_now_reloads_the_section_and_auto_refresh_can_be_switched_on(new_page, live_server, support):
    # given
    make_product(title="Kenya Gold", stock=40)
    page = signed_in(new_page, live_server, support)
    page.goto("/admindash")
    card = page.locator(".admin-stat").filter(has_text="Total Products")
    expect(card).to_contain_text("1")
    make_product(title="Chai Masala", stock=40)
    # when
    page.get_by_role("button", name="Refresh Now").click()
    # then
    expect(card).to_contain_text("2")
    page.get_by_role("button", name="Enable Auto-refresh").click()
    expect(page.get_by_text("Auto-refresh on")).to_be_visible()
    expect(page.get_by_role("button", name="Disable Auto-refresh")).to_be_visible()


def test_the_owner_unlocks_a_locked_account_from_the_roles_screen(new_page, live_server, owner, alice, password):
    # given alice locked out from one address
    client = Client()
    for _ in range(5):
        client.post("/login", {"email": alice.email, "password": "wrong-guess-1"}, REMOTE_ADDR="203.0.113.9")
    page = signed_in(new_page, live_server, owner)
    page.goto("/admindash/roles")
    row = page.locator("tr", has_text=alice.email)
    expect(row).to_contain_text("203.0.113.9")
    # when
    row.get_by_role("button", name="Unlock").click()
    # then
    expect(page.locator("#toasts")).to_contain_text(f"{alice.email} can sign in again")
    expect(page.locator("tr", has_text=alice.email)).to_have_count(0)
    assert client.post("/login", {"email": alice.email, "password": password},
                       REMOTE_ADDR="203.0.113.9").status_code == 302


def test_the_owner_sees_a_failed_e_mail_and_sends_it_again(new_page, live_server, owner, screenshot):
    # given
    from shop.models import OutboundEmail, OutboundEmailStatus

    email = OutboundEmail.objects.create(
        to="mona@example.com", subject="Your order NHT-1 has shipped", text="Hello",
        status=OutboundEmailStatus.FAILED, attempts=10, last_error="SMTPRecipientsRefused: 550 no such user")
    page = signed_in(new_page, live_server, owner)
    page.goto("/admindash")
    listed = page.locator("[data-list='failed-emails'] li").filter(has_text="mona@example.com")
    # then
    expect(page.locator("[data-alert='failed-emails']")).to_contain_text("1 e-mail could not be delivered")
    expect(listed).to_contain_text("550 no such user")
    screenshot(page, "backoffice-failed-emails-en")
    # when
    listed.get_by_role("button", name="Send again").click()
    # then
    expect(page.locator("#toasts")).to_contain_text("The e-mail is queued again.")
    expect(page.locator("[data-alert='failed-emails']")).to_be_hidden()
    email.refresh_from_db()
    assert email.status in (OutboundEmailStatus.QUEUED, OutboundEmailStatus.SENT)


def test_support_does_not_see_failed_e_mails(new_page, live_server, support):
    # given
    from shop.models import OutboundEmail, OutboundEmailStatus

    OutboundEmail.objects.create(to="mona@example.com", subject="Shipped", text="Hello",
                                 status=OutboundEmailStatus.FAILED, attempts=10, last_error="550")
    page = signed_in(new_page, live_server, support)
    # when
    page.goto("/admindash")
    # then
    expect(page.get_by_text("Total Products")).to_be_visible()
    expect(page.get_by_text("Failed E-mails")).to_have_count(0)
    expect(page.get_by_text("mona@example.com")).to_have_count(0)
