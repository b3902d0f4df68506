"""Dashboard sections in a real browser: bulk order status, review approval, message reply,
and the analytics, coupons and announcements screens in English and Arabic."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core import mail
from django.utils import timezone

from catalog.models import Review
from orders.models import Coupon, Order
from shop.models import Announcement, ContactMessage
from shop.store_settings import store_settings_update
from tests.browser.conftest import PHONE
from tests.browser.staff_pages import open_island, signed_in
from tests.factories import make_message, make_order, make_product, make_review

pytestmark = pytest.mark.django_db(transaction=True)


def _toast(page):
    toast = page.locator("#toasts .toast")
    toast.wait_for()
    return toast


def test_staff_change_the_status_of_several_orders_at_once(new_page, live_server, manager, screenshot):
    # given
    product = make_product(title="Kericho Gold")
    orders = [make_order(lines=[(product, 1)], first_name=name) for name in ("Sara", "Omar", "Laila")]
    page = signed_in(new_page, live_server, manager)
    open_island(page, "/admindash/orders", "admin-orders")
    page.get_by_role("row").filter(has_text="Sara").wait_for()
    # when: nothing selected yet
    page.get_by_role("button", name="Apply to selected").click()
    # then
    assert _toast(page).inner_text() == "No orders selected"
    # when
    page.get_by_role("checkbox", name="Select all").check()
    page.get_by_label("New status for the selected orders").select_option("shipped")
    screenshot(page, "backoffice-b-orders-bulk-en-desktop")
    page.get_by_role("button", name="Apply to selected").click()
    page.get_by_role("dialog").get_by_role("button", name="Change to Shipped").click()
    # then
    page.locator("#toasts .toast", has_text="3 orders updated").wait_for()
    assert set(Order.objects.values_list("status", flat=True)) == {"shipped"}
    page.get_by_role("row").filter(has_text="Laila").get_by_role("combobox").filter(has_text="Shipped").wait_for()
    # and the order detail shows the history
    page.get_by_role("button", name=orders[0].number).click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_text("Processing → Shipped").wait_for()
    screenshot(page, "backoffice-b-order-detail-en-desktop")


def test_the_orders_screen_reads_right_to_left_in_arabic_on_a_phone(new_page, live_server, support, screenshot):
    # given
    make_order(lines=[(make_product(price="120"), 2)], first_name="سارة", last_name="نبيل")
    page = signed_in(new_page, live_server, support, viewport=PHONE, locale="ar")
    # when
    open_island(page, "/ar/admindash/orders", "admin-orders")
    page.get_by_role("row").filter(has_text="سارة").wait_for()
    # then
    assert page.locator("html").get_attribute("dir") == "rtl"
    assert page.get_by_role("button", name="تطبيق على المحدد").is_visible()
    screenshot(page, "backoffice-b-orders-ar-phone")


def test_staff_approve_a_pending_review(new_page, live_server, head_support, screenshot):
    # given
    review = make_review(product=make_product(title="Green Mist"), title="Fresh and grassy")
    page = signed_in(new_page, live_server, head_support, locale="ar")
    open_island(page, "/ar/admindash/reviews", "admin-reviews")
    row = page.get_by_role("row").filter(has_text="Fresh and grassy")
    row.wait_for()
    screenshot(page, "backoffice-b-reviews-ar-desktop")
    # when
    row.get_by_role("button", name="اعتماد").click()
    # then
    assert _toast(page).inner_text() == "تم اعتماد التقييم"
    review.refresh_from_db()
    assert review.is_approved
    review.product.refresh_from_db()
    assert review.product.review_count == 1


def test_support_approves_nothing_but_may_respond(new_page, live_server, support):
    # given
    make_review(title="Strong brew")
    page = signed_in(new_page, live_server, support)
    open_island(page, "/admindash/reviews", "admin-reviews")
    row = page.get_by_role("row").filter(has_text="Strong brew")
    row.wait_for()
    # then
    assert row.get_by_role("button", name="Approve").count() == 0
    assert row.get_by_role("button", name="Delete").count() == 0
    # when
    row.get_by_role("button", name="Respond").click()
    page.get_by_role("dialog").get_by_role("textbox").fill("Thank you for the kind words!")
    page.get_by_role("button", name="Save response").click()
    # then
    assert _toast(page).inner_text() == "Response saved"
    assert Review.objects.get().admin_response == "Thank you for the kind words!"


def test_staff_reply_to_a_contact_message(new_page, live_server, support, screenshot):
    # given
    make_message(subject="Is the tea organic?", email="sara@example.com")
    page = signed_in(new_page, live_server, support)
    open_island(page, "/admindash/messages", "admin-messages")
    row = page.get_by_role("row").filter(has_text="Is the tea organic?")
    row.wait_for()
    # when: an empty reply
    row.get_by_role("button", name="Reply").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("button", name="Send reply").click()
    # then
    assert dialog.get_by_role("alert").inner_text() == "Please enter a reply message"
    # when
    dialog.get_by_label("Your reply to sara@example.com").fill("Yes, it is grown without pesticides.")
    screenshot(page, "backoffice-b-message-reply-en-desktop")
    dialog.get_by_role("button", name="Send reply").click()
    # then
    assert _toast(page).inner_text() == "Reply sent to sara@example.com"
    assert ContactMessage.objects.get().status == "replied"
    assert mail.outbox[-1].to == ["sara@example.com"]
    row.get_by_text("Replied").wait_for()


def test_the_analytics_screen_in_english_and_arabic(new_page, live_server, owner, screenshot):
    # given
    store_settings_update(free_shipping_threshold=Decimal("0"))  # each order's total is its goods
    product = make_product(title="Kericho Gold")
    now = timezone.now()
    for days, quantity in [(0, 3), (1, 1), (3, 2), (6, 4)]:
        make_order(lines=[(product, quantity)], created_at=now - timedelta(days=days))
    # when
    page = signed_in(new_page, live_server, owner)
    open_island(page, "/admindash/analytics", "admin-analytics")
    # then
    page.get_by_text("E£1,500.00").first.wait_for()  # 10 × E£150
    assert page.locator("svg.admin-b-bars rect").count() == 7
    screenshot(page, "backoffice-b-analytics-en-desktop")
    page.get_by_label("Period").select_option("7d")
    page.get_by_role("heading", name="The last 7 days", exact=True).wait_for()

    page = signed_in(new_page, live_server, owner, viewport=PHONE, locale="ar")
    open_island(page, "/ar/admindash/analytics", "admin-analytics")
    page.get_by_text("1,500.00\u00a0ج.م").first.wait_for()
    screenshot(page, "backoffice-b-analytics-ar-phone")


def test_coupons_and_announcements_screens(new_page, live_server, manager, screenshot):
    # given
    Coupon.objects.create(code="EID10", type="percentage", value=10, usage_limit=100)
    Announcement.objects.create(title="Free delivery this week", content="On orders over E£1,000",
                                display_end_date=timezone.now() + timedelta(days=7))
    page = signed_in(new_page, live_server, manager)
    # when: a coupon with a lower-case code and no usage limit
    open_island(page, "/admindash/coupons", "admin-coupons")
    page.get_by_role("button", name="Create coupon").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("Code").fill("ramadan")
    dialog.get_by_label("Type").select_option("fixed")
    dialog.get_by_label("Discount (E£)").fill("50")
    dialog.get_by_role("button", name="Create").click()
    # then
    assert _toast(page).inner_text() == "Coupon RAMADAN created"
    assert Coupon.objects.get(code="RAMADAN").usage_limit is None
    screenshot(page, "backoffice-b-coupons-en-desktop")

    page = signed_in(new_page, live_server, manager, locale="ar", viewport=PHONE)
    open_island(page, "/ar/admindash/announcements", "admin-announcements")
    page.get_by_text("Free delivery this week").wait_for()
    page.get_by_role("button", name="إضافة إعلان").click()
    screenshot(page, "backoffice-b-announcement-form-ar-phone")


def test_newsletter_and_messages_screens_in_arabic_on_a_phone(new_page, live_server, manager, screenshot):
    # given
    from shop.models import NewsletterSubscriber

    NewsletterSubscriber.objects.create(email="fan@example.com", language="ar")
    NewsletterSubscriber.objects.create(email="gone@example.com", is_active=False)
    make_message(subject="هل الشاي عضوي؟", name="سارة")
    page = signed_in(new_page, live_server, manager, viewport=PHONE, locale="ar")  # the export is Owner's, Manager's
    # when
    open_island(page, "/ar/admindash/newsletter", "admin-newsletter")
    page.get_by_text("fan@example.com").wait_for()
    # then
    with page.expect_download() as download:
        page.get_by_role("link", name="تصدير CSV").click()
    assert "fan@example.com" in open(download.value.path(), encoding="utf-8").read()
    screenshot(page, "backoffice-b-newsletter-ar-phone")
    # when
    open_island(page, "/ar/admindash/messages", "admin-messages")
    page.get_by_role("row").filter(has_text="هل الشاي عضوي؟").wait_for()
    screenshot(page, "backoffice-b-messages-ar-phone")
