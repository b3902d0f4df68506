"""Issue 17's analytics comparison and export, and the coupon generator and usage list, in a browser."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from catalog.products import product_update
from orders.models import Coupon
from shop.store_settings import store_settings_update
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.staff_pages import open_island, signed_in
from tests.factories import make_category, make_order, make_product

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def two_weeks():
    store_settings_update(free_shipping_threshold=Decimal("0"))  # each order's total is its goods
    tea = make_product(title_en="Kericho Gold", title_ar="كيريتشو جولد", category=make_category())
    now = timezone.now()
    for total, days in (("300", 0), ("150", 2), ("200", 8), ("100", 10)):  # its price changed between orders
        tea = product_update(product=tea, price_amount=Decimal(total))
        make_order(lines=[(tea, 1)], created_at=now - timedelta(days=days))


@pytest.mark.parametrize("locale, prefix, viewport, hint, export", [
    ("en-US", "", DESKTOP, "Previous period: E£300.00 (+50.0%)", "Export CSV"),
    ("en-US", "", PHONE, "Previous period: E£300.00 (+50.0%)", "Export CSV"),
    ("ar", "/ar", DESKTOP, "الفترة السابقة:", "تصدير CSV"),
    ("ar", "/ar", PHONE, "الفترة السابقة:", "تصدير CSV"),
])
def test_analytics_compare_with_the_previous_period_and_export_what_is_shown(
        new_page, live_server, owner, two_weeks, screenshot, locale, prefix, viewport, hint, export):
    # given
    page = signed_in(new_page, live_server, owner, viewport=viewport, locale=locale)
    open_island(page, f"{prefix}/admindash/analytics", "admin-analytics")
    page.get_by_role("combobox").select_option("7d")
    # then
    expect(page.locator(".admin-stat__hint").first).to_contain_text(hint)
    expect(page.locator(".admin-stat__hint").first).to_contain_text("+50.0%")
    link = page.get_by_role("link", name=export)
    expect(link).to_have_attribute("href", "/api/admin/analytics/export?period=7d")
    screenshot(page, f"ops-analytics-{locale[:2]}-{viewport['width']}")
    # when
    with page.expect_download() as download:
        link.click()
    # then
    body = open(download.value.path(), "rb").read()
    assert body.startswith(b"\xef\xbb\xbf")
    if locale == "ar":
        assert "كيريتشو جولد" in body.decode("utf-8-sig")


@pytest.mark.parametrize("locale, prefix, viewport, names", [
    ("en-US", "", DESKTOP, ("Generate codes", "Prefix", "How many codes", "Generate")),
    ("ar", "/ar", PHONE, ("إنشاء رموز", "البادئة", "عدد الرموز", "إنشاء")),
])
def test_coupon_codes_are_generated_in_bulk_and_listed(new_page, live_server, manager, screenshot,
                                                       locale, prefix, viewport, names):
    # given
    open_label, prefix_label, count_label, submit = names
    page = signed_in(new_page, live_server, manager, viewport=viewport, locale=locale)
    open_island(page, f"{prefix}/admindash/coupons", "admin-coupons")
    # when
    page.get_by_role("button", name=open_label).click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_label(prefix_label).fill("eid-")
    dialog.get_by_label(count_label).fill("5")
    dialog.locator("input[inputmode=decimal]").nth(1).fill("10")  # the value, after the count
    screenshot(page, f"ops-coupons-generate-{locale[:2]}-{viewport['width']}")
    page.get_by_role("button", name=submit, exact=True).click()
    # then
    codes = page.get_by_role("dialog").locator("textarea")
    expect(codes).to_be_visible()
    listed = codes.input_value().split("\n")
    assert len(listed) == 5 and all(code.startswith("EID-") for code in listed)
    assert set(Coupon.objects.values_list("code", flat=True)) == set(listed)
    screenshot(page, f"ops-coupons-generated-{locale[:2]}-{viewport['width']}")


@pytest.mark.parametrize("locale, prefix, viewport, title", [
    ("en-US", "", DESKTOP, "Orders that used NILE10"),
    ("ar", "/ar", PHONE, "الطلبات التي استخدمت \u2068NILE10\u2069"),  # the code isolated
])
def test_a_coupons_usage_lists_the_orders_that_used_it(new_page, live_server, manager, screenshot,
                                                      locale, prefix, viewport, title):
    # given
    coupon = Coupon.objects.create(code="NILE10", type="percentage", value="10", used_count=1)
    order = make_order(first_name="منى", last_name="علي")
    order.coupon, order.coupon_code, order.discount_amount = coupon, "NILE10", 12
    order.save()
    page = signed_in(new_page, live_server, manager, viewport=viewport, locale=locale)
    open_island(page, f"{prefix}/admindash/coupons", "admin-coupons")
    # when
    page.get_by_role("button", name=title).click()
    # then
    dialog = page.get_by_role("dialog", name=title)
    expect(dialog).to_contain_text(order.number)
    expect(dialog).to_contain_text("منى علي")
    screenshot(page, f"ops-coupons-usage-{locale[:2]}-{viewport['width']}")


@pytest.mark.parametrize("locale, prefix, viewport, words", [
    ("en-US", "", DESKTOP, ("Failed jobs", "Paid on cancelled orders", "E-mail me a daily summary")),
    ("en-US", "", PHONE, ("Failed jobs", "Paid on cancelled orders", "E-mail me a daily summary")),
    ("ar", "/ar", DESKTOP, ("مهام فشلت", "مدفوعات على طلبات ملغاة", "أرسل لي ملخصًا يوميًا بالبريد")),
    ("ar", "/ar", PHONE, ("مهام فشلت", "مدفوعات على طلبات ملغاة", "أرسل لي ملخصًا يوميًا بالبريد")),
])
def test_the_overview_shows_failed_jobs_money_on_cancelled_orders_and_the_summary_switch(
        new_page, live_server, owner, screenshot, locale, prefix, viewport, words):
    # given
    from shop.models import FailedJob

    failed_jobs, captured, switch = words
    FailedJob.objects.create(task="importer.tasks.crawl_task", error="ConnectionError: producer down")
    store_settings_update(free_shipping_threshold=Decimal("0"))  # each order's total is its goods
    make_order(price="420", status="cancelled", payment_status="paid")
    page = signed_in(new_page, live_server, owner, viewport=viewport, locale=locale)
    open_island(page, f"{prefix}/admindash", "admin-overview")
    # then
    expect(page.locator(".admin-stat", has_text=failed_jobs)).to_contain_text("1")
    expect(page.locator(".admin-stat", has_text=captured)).to_contain_text("420.00")
    expect(page.locator('[data-list="failed-jobs"]')).to_contain_text("producer down")
    # when
    page.get_by_text(switch).click()
    # then
    expect(page.get_by_role("checkbox", name=switch)).to_be_checked()
    screenshot(page, f"ops-overview-{locale[:2]}-{viewport['width']}")
    owner.refresh_from_db()
    assert owner.daily_summary is True
