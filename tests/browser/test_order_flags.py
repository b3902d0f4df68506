"""Staff see test orders and money captured on cancelled orders: overview alert and order badges."""

import pytest
from playwright.sync_api import expect

from orders.models import Order
from shop.store_settings import store_settings_get
from tests.browser.staff_pages import signed_in
from tests.factories import make_product

pytestmark = pytest.mark.django_db(transaction=True)


def _order(number, **flags):
    return Order.objects.create(
        number=number, email="mona@example.com", first_name="Mona", last_name="Ali", phone="01012345678",
        street="12 Nile St", city="Cairo", state="Cairo", subtotal_amount=100, shipping_amount=50,
        tax_amount=0, total_amount=150, **{"payment_method": "card", **flags},
    )


def test_the_overview_alerts_and_the_orders_list_badges_flagged_orders(new_page, live_server, owner, screenshot):
    # given one order paid after it was cancelled and one paid on the test page
    make_product(title="Kenya Gold", stock=40)
    _order("NHT-ATTENTION", status="cancelled", payment_status="paid", needs_attention=True,
           attention_reason="paid_after_decline")
    _order("NHT-TEST", status="processing", payment_status="paid", payment_method="sandbox", is_test=True)
    page = signed_in(new_page, live_server, owner)
    # when
    page.goto("/admindash")
    # then
    alert = page.locator("[data-alert='attention']")
    expect(alert).to_contain_text("1 cancelled order was paid")
    screenshot(page, "backoffice-overview-attention-en")
    # when
    alert.get_by_role("link", name="Open orders").click()
    # then
    expect(page.locator("[data-flag='attention']")).to_have_text("Needs attention")
    expect(page.locator("[data-flag='test']")).to_have_text("Test")
    screenshot(page, "backoffice-orders-flags-en")


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
