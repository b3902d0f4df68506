"""Issue 14: the dashboard's products section pages, searches, filters and sorts on the server,
and its bulk actions still reach products beyond the page shown (English and Arabic)."""

import pytest
from playwright.sync_api import expect

from backoffice.models import AuditEntry
from catalog.models import Product
from tests.browser.staff_pages import open_island, signed_in
from tests.factories import make_category, make_product

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_products_table_asks_the_server_for_one_page_at_a_time(new_page, live_server, owner):
    # given: 25 products (one page holds 20), one of them green tea without an Arabic title
    black = make_category("black-tea", "Black Tea")
    green = make_category("green-tea", "Green Tea", "شاي أخضر")
    for n in range(24):
        make_product(title=f"Tea {n:02d}", title_ar=f"شاي {n:02d}", price=f"{100 + n}.00", category=black)
    make_product(title="Sencha", category=green, price="90.00")
    page = signed_in(new_page, live_server, owner)
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/api/admin/products?" in r.url else None)
    # when
    open_island(page, "/admindash/products", "admin-products")
    rows = page.locator("tbody tr")
    pager = page.locator(".admin-table__pager")
    # then: the newest 20 of 25
    expect(rows).to_have_count(20)
    expect(pager).to_contain_text("Showing 1–20 of 25")
    # when: the next page
    pager.get_by_role("button", name="Next").click()
    # then
    expect(rows).to_have_count(5)
    expect(rows.first).to_contain_text("Tea 04")
    # when: sorted by price, cheapest first
    page.get_by_role("button", name="Price (EGP)").click()
    # then: back on page 1, the cheapest first
    expect(rows.first).to_contain_text("Sencha")
    expect(pager).to_contain_text("Showing 1–20 of 25")
    # when: the Arabic filter, whose count is over every product
    arabic = page.get_by_label("Arabic: all")
    expect(arabic.locator("option[value=title]")).to_have_text("Arabic title missing (1)")
    arabic.select_option("title")
    # then
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Sencha")
    # when: a search instead
    arabic.select_option("")
    page.get_by_placeholder("Search products...").fill("Tea 17")
    # then
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Tea 17")
    assert any("sort=price" in url for url in asked) and any("search=Tea+17" in url for url in asked)


def test_products_selected_on_two_pages_are_deleted_together(new_page, live_server, owner):
    # given
    products = [make_product(title=f"Tea {n:02d}", stock=20) for n in range(22)]
    page = signed_in(new_page, live_server, owner)
    open_island(page, "/admindash/products", "admin-products")
    rows = page.locator("tbody tr")
    # when: one on the first page, one on the second
    page.get_by_role("row").filter(has_text="Tea 21").get_by_role("checkbox").check()
    page.locator(".admin-table__pager").get_by_role("button", name="Next").click()
    expect(rows).to_have_count(2)
    page.get_by_role("row").filter(has_text="Tea 00").get_by_role("checkbox").check()
    page.get_by_role("button", name="Delete selected (2)").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete selected (2)").click()
    # then
    expect(page.locator("#toasts")).to_contain_text("2 products deleted")
    assert set(Product.objects.values_list("pk", flat=True)) == {p.pk for p in products[1:21]}
    expect(page.locator(".admin-table__pager")).to_contain_text("of 20")


def test_the_arabic_products_table_sorts_by_the_arabic_names(new_page, live_server, owner):
    # given: in English order Assam would come first; in Arabic أسود (Bold) does
    make_product(title="Bold", title_ar="أسود")
    make_product(title="Assam", title_ar="ياسمين")
    page = signed_in(new_page, live_server, owner, locale="ar")
    open_island(page, "/ar/admindash/products", "admin-products")
    rows = page.locator("tbody tr")
    expect(rows.first).to_contain_text("ياسمين")  # the newest
    # when
    page.get_by_role("button", name="الاسم").click()
    # then
    expect(rows.first).to_contain_text("أسود")
    # when: again, descending
    page.get_by_role("button", name="الاسم").click()
    # then
    expect(rows.first).to_contain_text("ياسمين")


def test_saving_a_product_keeps_the_stock_orders_moved_while_its_dialog_was_open(new_page, live_server, owner):
    # given a product of 10 in stock, opened for editing
    tea = make_product(title="Kericho Gold", stock=10)
    page = signed_in(new_page, live_server, owner)
    open_island(page, "/admindash/products", "admin-products")
    page.get_by_role("row").filter(has_text="Kericho Gold").get_by_role("button", name="Edit").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_label("Stock")).to_have_value("10")
    # when 3 are sold meanwhile, and staff change the title and the price, written with a thousands comma
    Product.objects.filter(pk=tea.pk).update(stock=7)
    dialog.get_by_label("Title", exact=True).fill("Kericho Gold Special")
    dialog.get_by_label("Price (EGP)", exact=True).fill("1,250.50")
    dialog.get_by_role("button", name="Save").click()
    expect(dialog).to_be_hidden()
    # then the title and price changed and the stock stayed what the orders left
    tea.refresh_from_db()
    assert (tea.title_en, str(tea.price_amount), tea.stock) == ("Kericho Gold Special", "1250.50", 7)
    # when staff type a stock they counted
    page.get_by_role("row").filter(has_text="Kericho Gold Special").get_by_role("button", name="Edit").click()
    dialog.get_by_label("Stock").fill("25")
    dialog.get_by_role("button", name="Save").click()
    expect(dialog).to_be_hidden()
    # then it is set, as the inventory sets it
    tea.refresh_from_db()
    assert tea.stock == 25
    assert AuditEntry.objects.filter(action="inventory.set", details__endswith="7 → 25").exists()
