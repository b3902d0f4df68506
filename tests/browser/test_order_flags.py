"""Staff see test orders and orders flagged for them: overview alert, a filter and order badges."""

import pytest
from playwright.sync_api import expect

from backoffice.orders import order_status_change
from orders.actions import order_paid_twice, order_refund_to_check
from shop.store_settings import store_settings_get
from tests.browser.staff_pages import signed_in
from tests.factories import make_order, make_product

pytestmark = pytest.mark.django_db(transaction=True)



def test_the_overview_alerts_and_the_orders_list_badges_flagged_orders(new_page, live_server, owner, screenshot):
    # given one order paid after it was cancelled and one paid on the test page
    tea = make_product(title="Kenya Gold", stock=40)
    make_order(lines=[(tea, 1)], payment_status=("failed", "paid"), status="cancelled")  # a second card, too late
    make_order(lines=[(tea, 1)], payment_method="sandbox")
    page = signed_in(new_page, live_server, owner)
    # when
    page.goto("/admindash")
    # then
    alert = page.locator("[data-alert='attention']")
    expect(alert).to_contain_text("1 order needs your attention")
    screenshot(page, "backoffice-overview-attention-en")
    # when
    alert.get_by_role("link", name="Open orders").click()
    # then the orders list shows the flagged order only
    expect(page.locator("[data-flag='attention']")).to_have_text("Needs attention")
    expect(page.locator("[data-flag='test']")).to_have_count(0)
    # when every order is shown again
    page.get_by_label("Flagged").select_option("")
    # then
    expect(page.locator("[data-flag='test']")).to_have_text("Test")
    expect(page.locator("[data-flag='attention']")).to_have_text("Needs attention")
    screenshot(page, "backoffice-orders-flags-en")
    # and in Arabic on a phone, the flagged orders only
    page.set_viewport_size({"width": 360, "height": 780})
    page.goto("/ar/admindash/orders?attention=1")
    expect(page.locator("[data-flag='attention']")).to_have_text("يحتاج إلى متابعة")
    expect(page.get_by_label("المتابعة")).to_have_value("1")
    screenshot(page, "backoffice-orders-flags-ar-phone")


@pytest.mark.parametrize("language", ["en", "ar"])
def test_mark_as_checked_clears_a_refund_to_check_from_the_orders_page(new_page, live_server, manager, language):
    # given an order flagged with money returned that does not match its payment
    order = make_order(lines=[(make_product(title="Kenya Gold", stock=40), 1)])
    order_refund_to_check(order=order, note="refund of another transaction")
    page = signed_in(new_page, live_server, manager)
    prefix = "/ar" if language == "ar" else ""
    page.goto(f"{prefix}/admindash/orders?attention=1")
    # when a Manager opens it and marks the returned money checked
    page.get_by_role("button", name=order.number).click()
    alert = page.locator("[data-attention='refund_to_check']")
    alert.get_by_role("button", name={"en": "Mark as checked", "ar": "تعليم كمُراجَع"}[language]).click()
    # then the alert and the row's badge are gone, and the status is what it was
    expect(page.locator("#toasts")).to_contain_text(
        {"en": "returned money marked as checked", "ar": "تم تعليم المبلغ المُسترد كمُراجَع"}[language])
    expect(alert).to_have_count(0)
    expect(page.locator("[data-flag='attention']")).to_have_count(0)
    order.refresh_from_db()
    assert (order.needs_attention, order.status) == (False, "processing")


def test_support_see_the_alert_but_neither_mark_as_checked_nor_export(new_page, live_server, support):
    # given an order paid twice
    order = make_order(lines=[(make_product(title="Kenya Gold", stock=40), 1)])
    order_paid_twice(order=order, note="paymob 2")
    page = signed_in(new_page, live_server, support)
    page.goto("/admindash/orders?attention=1")
    # when Support open it
    page.get_by_role("button", name=order.number).click()
    # then they read what is wrong, and leave the money to the Owner or a Manager
    expect(page.locator("[data-attention='paid_twice']")).to_contain_text("Paid twice")
    expect(page.locator("[data-mark-checked]")).to_have_count(0)
    expect(page.get_by_role("link", name="Export CSV")).to_have_count(0)


@pytest.mark.parametrize("language", ["en", "ar"])
def test_mark_as_checked_clears_a_paid_twice_and_keeps_the_status(new_page, live_server, manager, language):
    # given an order paid twice (two tabs on one payment page)
    order = make_order(lines=[(make_product(title="Kenya Gold", stock=40), 1)])
    order_paid_twice(order=order, note="paymob 2")
    page = signed_in(new_page, live_server, manager)
    prefix = "/ar" if language == "ar" else ""
    page.goto(f"{prefix}/admindash/orders?attention=1")
    # when a Manager opens it, refunds one payment in Paymob and marks the second payment checked
    page.get_by_role("button", name=order.number).click()
    alert = page.locator("[data-attention='paid_twice']")
    expect(alert).to_contain_text({"en": "then mark it as checked", "ar": "ثم علِّمه كمُراجَع"}[language])
    alert.get_by_role("button", name={"en": "Mark as checked", "ar": "تعليم كمُراجَع"}[language]).click()
    # then the alert and the row's badge are gone, and the status is what it was
    expect(page.locator("#toasts")).to_contain_text(
        {"en": "second payment marked as checked", "ar": "تم تعليم الدفعة الثانية كمُراجَعة"}[language])
    expect(alert).to_have_count(0)
    expect(page.locator("[data-flag='attention']")).to_have_count(0)
    order.refresh_from_db()
    assert (order.needs_attention, order.status) == (False, "processing")


@pytest.mark.parametrize("language", ["en", "ar"])
def test_staff_see_every_open_reason_and_checking_one_leaves_the_other(new_page, live_server, manager, language,
                                                                        screenshot):
    # given a paid order with money returned to check, then cancelled by staff: a refund is due as well
    order = make_order(lines=[(make_product(title="Kenya Gold", stock=40), 1)])
    order_refund_to_check(order=order, note="refund of another transaction")
    order_status_change(actor=manager, order=order, status="cancelled")
    page = signed_in(new_page, live_server, manager)
    prefix = "/ar" if language == "ar" else ""
    texts = {"en": ("Paymob reports money returned", "Cancelled after it was paid"),
             "ar": ("أبلغت Paymob عن مبلغ مُسترد", "أُلغي الطلب بعد دفعه")}[language]
    # when
    page.goto(f"{prefix}/admindash/orders?attention=1")
    # then the row's label counts both and names each
    badge = page.locator("[data-flag='attention']")
    expect(badge).to_have_text({"en": "Needs attention (2)", "ar": "يحتاج إلى متابعة (2)"}[language])
    title = badge.get_attribute("title")
    assert all(text in title for text in texts), title
    # when staff open the order
    page.get_by_role("button", name=order.number).click()
    # then each reason has its alert, the older first
    alerts = page.locator("[data-attention]")
    expect(alerts).to_have_count(2)
    assert [alerts.nth(i).get_attribute("data-attention") for i in range(2)] == ["refund_to_check", "refund_due"]
    expect(alerts.nth(0)).to_contain_text(texts[0])
    expect(alerts.nth(1)).to_contain_text(texts[1])
    screenshot(page, f"backoffice-order-two-flags-{language}")
    # when they mark the returned money checked
    alerts.nth(0).get_by_role("button", name={"en": "Mark as checked", "ar": "تعليم كمُراجَع"}[language]).click()
    # then only the refund due is left, in the detail and on the row
    expect(page.locator("[data-attention]")).to_have_count(1)
    expect(page.locator("[data-attention='refund_due']")).to_contain_text(texts[1])
    expect(badge).to_have_text({"en": "Needs attention", "ar": "يحتاج إلى متابعة"}[language])
    order.refresh_from_db()
    assert (order.status, order.attention_reasons) == ("cancelled", ["refund_due"])


def test_the_settings_section_edits_the_order_limits(new_page, live_server, owner):
    # given
    page = signed_in(new_page, live_server, owner)
    page.goto("/admindash/settings")
    # when
    page.get_by_label("Most units of one product").fill("12")
    page.get_by_role("button", name="Save Settings").click()
    # then
    expect(page.locator("#toasts")).to_contain_text("Settings saved")
    assert store_settings_get().max_quantity_per_line == 12
