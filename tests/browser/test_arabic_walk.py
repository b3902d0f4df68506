"""Issue 13 in a browser: every storefront page and every dashboard section in Arabic, with
its islands rendered, read by the same checker as tests/test_arabic_pages.py (no stray English
word, no Eastern digit, typed text isolated), with screenshots at 360 and 1280 px."""

import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from backoffice.sections import SECTIONS
from tests.arabic_seed import TYPED, seed_arabic_shop
from tests.arabic_text import arabic_page_problems
from tests.browser.conftest import DESKTOP, PHONE, islands_ready
from tests.browser.test_importer_preview import recrawled  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def _session_page(new_page, live_server, user=None):
    page = new_page(viewport=DESKTOP, locale="ar")
    if user is not None:
        client = Client()
        client.force_login(user)
        page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                                   "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                                   "url": live_server.url}])
    return page


def _read(page, path, screenshot, name, typed=()):
    """Open `path`, let its islands render, check it, and photograph it at both widths."""
    if path is not None:
        page.goto(path)
    page.wait_for_load_state("networkidle")
    problems = arabic_page_problems(page.content(), typed=typed, where=path or name)
    screenshot(page, f"arabic-{name}-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, f"arabic-{name}-phone")
    page.set_viewport_size(DESKTOP)
    return problems


@pytest.fixture
def shop(alice, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return seed_arabic_shop(alice=alice, media_root=tmp_path)


def test_a_shopper_reads_arabic_from_home_to_checkout(new_page, live_server, shop, alice, screenshot):
    page = _session_page(new_page, live_server, alice)
    slug = shop["product"].slug
    problems = []
    for path, name in [("/ar/", "home"), ("/ar/shop", "shop"), ("/ar/explore", "explore"), ("/ar/about", "about"),
                       ("/ar/contact", "contact")]:
        problems += _read(page, path, screenshot, name)
    problems += _read(page, f"/ar/product/{slug}", screenshot, "product",
                      typed=[TYPED["review_title_en"], TYPED["review_comment_en"]])
    islands_ready(page, "add-to-cart")
    page.locator(".converter button").first.click()  # the converter's code loads on this first tap
    page.locator(".converter__panel").wait_for()
    problems += _read(page, None, screenshot, "product-converter")
    page.keyboard.press("Escape")
    # Eastern Arabic digits typed in a quantity become Western ones as they are typed
    quantity = page.locator(".stepper input")
    quantity.fill("٢")
    assert quantity.input_value() == "2"
    page.locator(".add-to-cart__button").click()
    page.wait_for_selector(".mini-cart", timeout=5_000)
    problems += _read(page, None, screenshot, "mini-cart")
    problems += _read(page, "/ar/cart", screenshot, "cart")
    problems += _read(page, "/ar/checkout", screenshot, "checkout")
    problems += _read(page, "/ar/account", screenshot, "account", typed=[TYPED["street"]])
    assert problems == [], "\n".join(problems)


def test_a_visitor_reads_arabic_on_the_account_pages(new_page, live_server, shop, screenshot):
    page = _session_page(new_page, live_server)
    problems = []
    for path, name in [("/ar/login", "login"), ("/ar/register", "register"), ("/ar/forgot-password", "forgot")]:
        problems += _read(page, path, screenshot, name)
    assert problems == [], "\n".join(problems)


def test_the_owner_reads_arabic_in_every_dashboard_section(new_page, live_server, shop, owner, screenshot):
    page = _session_page(new_page, live_server, owner)
    problems = []
    for section in SECTIONS:
        problems += _read(page, f"/ar/admindash/{section.slug}", screenshot, f"dash-{section.slug}",
                          typed=[TYPED["message_subject"]] if section.slug == "messages" else ())
    page.goto("/ar/admindash/orders")
    page.wait_for_load_state("networkidle")
    page.get_by_text("NHT-261124-ARABIC").first.click()
    problems += _read(page, None, screenshot, "dash-order-detail", typed=[TYPED["street"], TYPED["status_note"]])
    page.goto("/ar/admindash/products")
    page.wait_for_load_state("networkidle")
    page.locator("tbody tr").first.get_by_role("button", name="تعديل").click()
    page.wait_for_selector("#product-form")
    problems += _read(page, None, screenshot, "dash-product-dialog")
    # staff may type Eastern Arabic digits in prices: they become Western as they type
    price = page.locator("#product-form input[name=price]")
    price.fill("١٢٥.٥٠")
    assert price.input_value() == "125.50"
    assert problems == [], "\n".join(problems)


def test_the_owner_reads_arabic_in_the_coupon_generator_and_usage_list(new_page, live_server, shop, owner,
                                                                       screenshot):
    from orders.models import Coupon

    coupon = Coupon.objects.get(code="WELCOME10")
    shop["order"].__class__.objects.filter(pk=shop["order"].pk).update(
        coupon=coupon, coupon_code=coupon.code, discount_amount="23.50")
    page = _session_page(new_page, live_server, owner)
    page.goto("/ar/admindash/coupons")
    page.locator('[data-island="admin-coupons"][data-mounted="true"]').wait_for()
    page.get_by_role("button", name="إنشاء رموز").click()
    form = page.locator("#coupon-generate-form")
    form.wait_for()
    problems = _read(page, None, screenshot, "dash-coupon-generator")
    # staff may type Eastern Arabic digits: they are read as Western ones
    form.get_by_label("البادئة").fill("EID")
    form.get_by_label("عدد الرموز").fill("٣")
    assert form.get_by_label("عدد الرموز").input_value() == "3"
    form.locator("input[inputmode=decimal]").nth(1).fill("١٥")  # the value
    page.get_by_role("button", name="إنشاء", exact=True).click()
    page.locator("textarea.admin-codes").wait_for()
    assert Coupon.objects.filter(code__startswith="EID").count() == 3
    problems += _read(page, None, screenshot, "dash-coupon-codes")
    page.keyboard.press("Escape")
    page.get_by_role("button", name="الطلبات التي استخدمت \u2068WELCOME10\u2069").click()  # the code isolated
    page.get_by_text("NHT-261124-ARABIC").wait_for()
    problems += _read(page, None, screenshot, "dash-coupon-usage", typed=["Mona Adel"])
    assert problems == [], "\n".join(problems)


def test_the_dashboard_clock_keeps_latin_digits_in_arabic(new_page, live_server, shop, owner):
    page = _session_page(new_page, live_server, owner)
    page.goto("/ar/admindash")
    page.wait_for_load_state("networkidle")
    page.locator("[data-refresh-now]").click()
    clock = page.locator("time[data-refresh-last]")
    expect(clock).to_have_text(re.compile(r"\d{1,2}:\d{2}"))
    assert not re.search(r"[\u0660-\u0669\u06f0-\u06f9]", clock.inner_text())
    assert arabic_page_problems(page.content(), where="dashboard clock") == []


@pytest.mark.usefixtures("recrawled")
def test_the_owner_reads_arabic_in_the_importer_preview_diff(new_page, live_server, owner, screenshot):
    page = _session_page(new_page, live_server, owner)
    page.goto("/ar/admindash/external-products")
    page.locator('[data-island="admin-external-products"][data-mounted="true"]').wait_for()
    diff = page.get_by_test_id("import-diff")
    diff.get_by_test_id("diff-changed").wait_for()
    diff.scroll_into_view_if_needed()
    problems = _read(page, None, screenshot, "dash-importer-diff",
                     typed=["Detox Tea", "Moringa Green", "Ginger & Lemon"])
    assert problems == [], "\n".join(problems)


def test_the_tracking_page_and_the_order_print_view_read_as_arabic(new_page, live_server, shop, owner, screenshot):
    from orders.models import OrderStatusChange
    from orders.tracking import tracking_path

    order = shop["order"]
    OrderStatusChange.objects.create(order=order, from_status="processing", to_status="shipped", courier="Bosta",
                                     tracking_number="EG123456789", customer_note="Leave it with the doorman")
    typed = [TYPED["customer_first"], TYPED["street"], "Bosta", "Leave it with the doorman"]
    page = _session_page(new_page, live_server)
    problems = _read(page, "/ar/track", screenshot, "track-lookup")
    problems += _read(page, tracking_path(order, "ar"), screenshot, "track-order", typed=typed)
    staff = _session_page(new_page, live_server, owner)
    problems += _read(staff, f"/ar/admindash/orders/{order.pk}/print", screenshot, "order-print",
                      typed=[TYPED["customer_first"], TYPED["street"]])
    assert problems == [], "\n".join(problems)


def test_the_new_emails_and_whatsapp_texts_look_right_in_arabic(new_page, shop, owner, screenshot, settings):
    """Staff and customer e-mails (and a WhatsApp text) as an Arabic mail client shows their HTML part."""
    settings.SITE_URL = "https://shop.example"
    from django.utils import timezone

    from backoffice.alerts import daily_summary_send, stock_levels_check
    from catalog.models import Product
    from orders.emails import order_status_send
    from orders.models import OrderStatusChange
    from shop.mail import html_from_text
    from shop.models import OutboundEmail, OutboundWhatsApp

    owner.language, owner.daily_summary = "ar", True
    owner.save()
    order, product = shop["order"], shop["product"]
    order.whatsapp_opt_in = True
    order.save(update_fields=["whatsapp_opt_in"])
    daily_summary_send(now=timezone.now())
    Product.objects.filter(pk=product.pk).update(stock=0)
    stock_levels_check(product_ids=[product.pk])
    OrderStatusChange.objects.create(order=order, from_status="processing", to_status="shipped", courier="Bosta",
                                     tracking_number="EG123456789", customer_note="Leave it with the doorman")
    order_status_send(order=order, status="shipped")
    mails = list(OutboundEmail.objects.filter(language="ar").order_by("pk"))
    whatsapp = OutboundWhatsApp.objects.get()
    assert len(mails) >= 3
    page = new_page(viewport=DESKTOP, locale="ar")
    problems = []
    for number, html in enumerate(
            [m.html or html_from_text(m.text, "ar") for m in mails]
            + [html_from_text(whatsapp.text, "ar")]):
        page.set_content(html)
        problems += _read(page, None, screenshot, f"message-{number}", typed=["Bosta", "Leave it with the doorman"])
    assert problems == [], "\n".join(problems)
