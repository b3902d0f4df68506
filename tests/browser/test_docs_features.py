"""Invoices, saved addresses, reorder, back-in-stock and cart reminders in a real browser,
English and Arabic, phone (360 px) and desktop (1280 px)."""


import pytest

from accounts.addresses import address_create
from catalog.models import StockAlert
from catalog.products import product_update
from catalog.stock_alerts import stock_alert_confirm, stock_alert_request
from orders.models import Cart
from shop.models import NewsletterSubscriber
from shop.store_settings import store_settings_update
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.staff_pages import signed_in
from tests.factories import make_order, make_product

pytestmark = pytest.mark.django_db(transaction=True)

VIEWS = [("en", "", PHONE, "phone"), ("en", "", DESKTOP, "desktop"), ("ar", "/ar", PHONE, "phone"),
         ("ar", "/ar", DESKTOP, "desktop")]


def _no_sideways_scroll(page):
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.fixture
def alice_with_history(alice):
    store_settings_update(tax_registration_number="123-456-789")
    black = make_product(title="Kericho Gold Pure Black 250 g", title_ar="شاي كريتشو الأسود 250 g", stock=8)
    gone = make_product(title="Old Blend", stock=3, price="90")
    order = make_order(user=alice, lines=[(black, 2), (gone, 1)], status="delivered")
    product_update(product=gone, is_active=False)  # withdrawn since
    address_create(user=alice, fields={"label": "Home", "first_name": "Alice", "last_name": "Hassan",
                                       "phone": "01012345678", "street": "12 Nile St", "building": "4",
                                       "city": "Zamalek", "state": "Cairo"})
    address_create(user=alice, fields={"label": "Work", "first_name": "Alice", "last_name": "Hassan",
                                       "phone": "01012345678", "street": "5 Tahrir Sq", "city": "Dokki",
                                       "state": "Giza"})
    return order


@pytest.mark.parametrize("language,prefix,viewport,size", VIEWS)
def test_account_invoice_addresses_and_reorder(new_page, live_server, screenshot, alice, alice_with_history,
                                                language, prefix, viewport, size):
    order = alice_with_history
    page = signed_in(new_page, live_server, alice, viewport=viewport)
    page.goto(f"{prefix}/account")
    cards = page.locator("[data-address]")
    assert cards.count() == 2
    assert cards.first.locator("[data-default]").count() == 1
    _no_sideways_scroll(page)
    page.locator("#addresses-heading").scroll_into_view_if_needed()
    screenshot(page, f"docs-account-{language}-{size}")
    # the invoice downloads as a PDF
    with page.expect_download() as download:
        page.locator(f'[data-order="{order.number}"] [data-invoice]').click()
    path = download.value.path()
    assert open(path, "rb").read(4) == b"%PDF"
    # Reorder: the cart says what came back and what did not
    page.locator(f'[data-order="{order.number}"] [data-reorder]').click()
    page.wait_for_url(f"**{prefix}/cart")
    notices = page.locator("[data-cart-notices]").inner_text()
    assert "Kericho Gold Pure Black" in notices or "شاي كريتشو" in notices
    assert "Old Blend" in notices
    assert ("No longer available" if language == "en" else "لم يعد متوفرًا") in notices
    page.locator('[data-island="cart"][data-mounted="true"]').wait_for()
    screenshot(page, f"docs-reorder-cart-{language}-{size}")


@pytest.mark.parametrize("language,prefix,viewport,size", [VIEWS[1], VIEWS[2]])
def test_checkout_is_prefilled_from_the_default_address_and_can_switch(new_page, live_server, screenshot, alice,
                                                                        alice_with_history, language, prefix,
                                                                        viewport, size):
    page = signed_in(new_page, live_server, alice, viewport=viewport)
    page.goto(f"{prefix}/account")
    page.locator(f'[data-order="{alice_with_history.number}"] [data-reorder]').click()
    page.goto(f"{prefix}/checkout")
    page.locator("#co-street").wait_for()
    assert page.input_value("#co-street") == "12 Nile St"
    assert page.input_value("#co-city") == "Zamalek"
    page.locator("[data-saved-addresses] a", has_text="Work").click()
    page.locator("#co-street").wait_for()
    assert page.input_value("#co-street") == "5 Tahrir Sq"
    _no_sideways_scroll(page)
    screenshot(page, f"docs-checkout-prefill-{language}-{size}")


@pytest.mark.parametrize("language,prefix,viewport,size", VIEWS)
def test_guest_asks_to_be_notified_when_back_in_stock(new_page, screenshot, language, prefix, viewport, size):
    product = make_product(title="Milima Mint", title_ar="شاي ميليما بالنعناع", stock=0)
    page = new_page(viewport=viewport)
    page.goto(f"{prefix}/product/{product.slug}")
    form = page.locator("[data-stock-alert]")
    form.wait_for()
    _no_sideways_scroll(page)
    screenshot(page, f"docs-notify-me-{language}-{size}")
    page.fill("#stock-alert-email", f"guest-{language}-{size}@example.com")
    form.get_by_role("button").click()
    result = page.locator("[data-stock-alert-result]")
    result.wait_for()
    assert ("sent you an e-mail" if language == "en" else "أرسلنا إليك رسالة") in result.inner_text()
    alert = StockAlert.objects.get(email=f"guest-{language}-{size}@example.com")
    assert alert.language == language and alert.confirmed_at is None
    page.goto(f"{prefix}/stock-alert/confirm?token={alert.token}")
    page.locator("[data-confirm]").click()
    page.locator("[data-stock-alert-result]").wait_for()
    alert.refresh_from_db()
    assert alert.confirmed_at is not None
    screenshot(page, f"docs-notify-confirmed-{language}-{size}")


@pytest.mark.parametrize("language,prefix,viewport,size", VIEWS)
def test_guest_subscribes_to_the_newsletter_and_confirms_by_email(new_page, screenshot, language, prefix, viewport,
                                                                  size):
    email = f"reader-{language}-{size}@example.com"
    page = new_page(viewport=viewport)
    page.goto(f"{prefix}/about")
    page.fill("#newsletter-email", email)
    page.locator(".newsletter-form button[type=submit]").click()
    answer = page.locator(".alert--success")  # the island's answer, or the page's if it had not mounted yet
    answer.wait_for()
    assert ("confirm your subscription" if language == "en" else "لتأكيد اشتراكك") in answer.inner_text()
    _no_sideways_scroll(page)
    screenshot(page, f"docs-newsletter-asked-{language}-{size}")
    subscriber = NewsletterSubscriber.objects.get(email=email)
    assert subscriber.status == "pending"
    page.goto(f"{prefix}/newsletter/confirm/{subscriber.unsubscribe_token}")
    page.get_by_role("button", name="Confirm my subscription" if language == "en" else "تأكيد اشتراكي").click()
    page.locator(".alert--success").wait_for()
    subscriber.refresh_from_db()
    assert subscriber.status == "active"
    _no_sideways_scroll(page)
    screenshot(page, f"docs-newsletter-confirmed-{language}-{size}")


@pytest.mark.parametrize("language,prefix,viewport,size", [VIEWS[0], VIEWS[3]])
def test_support_is_told_its_print_limit_instead_of_offered_a_print_it_would_be_refused(
        new_page, live_server, screenshot, support, language, prefix, viewport, size):
    for n in range(11):
        make_order(first_name=f"Customer {n}", payment_status="cod")
    page = signed_in(new_page, live_server, support, viewport=viewport)
    page.goto(f"{prefix}/admindash/orders")
    page.locator('[data-island="admin-orders"][data-mounted="true"]').wait_for()
    page.get_by_text("Customer 10").first.wait_for()  # the rows are in: selecting all before selects nothing
    page.locator('[data-island="admin-orders"] input[type="checkbox"]:visible').first.check()
    page.get_by_text("Print at most 10 orders at a time" if language == "en"
                     else "اطبع 10 طلبات على الأكثر").wait_for()
    assert page.locator("[data-print-kind]").count() == 0
    # and the page-size menu offers no more rows than Support is served
    sizes = page.locator(".admin-pager select option, [class*=pager] select option").evaluate_all(
        "(options) => options.map((o) => Number(o.value))")
    assert sizes and max(sizes) <= 20
    screenshot(page, f"docs-admin-support-print-limit-{language}-{size}")


@pytest.mark.parametrize("language,prefix,viewport,size", [VIEWS[0], VIEWS[3]])
def test_guest_opts_in_to_a_cart_reminder_at_checkout(new_page, screenshot, language, prefix, viewport, size):
    product = make_product(title="Chai Masala", stock=5)
    page = new_page(viewport=viewport)
    page.goto(f"{prefix}/product/{product.slug}")
    page.evaluate("""(id) => fetch('/api/cart/items', {method: 'POST', credentials: 'same-origin',
        headers: {'Content-Type': 'application/json',
                  'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || ''},
        body: JSON.stringify({productId: id, quantity: 1})})""", product.pk)
    page.goto(f"{prefix}/checkout")
    page.fill("#co-email", "walker@example.com")
    box = page.get_by_label("E-mail me once if I leave without ordering" if language == "en"
                            else "راسلني مرة واحدة إذا غادرت دون إتمام الطلب")
    with page.expect_response("**/api/cart/reminder") as answer:
        box.check()
    assert answer.value.status == 200
    cart = Cart.objects.get()
    assert cart.reminder_opt_in and cart.reminder_email == "walker@example.com" and cart.reminder_language == language
    screenshot(page, f"docs-checkout-reminder-{language}-{size}")


@pytest.mark.parametrize("language,prefix,viewport,size", VIEWS)
def test_staff_print_documents_and_see_waiting_shoppers(new_page, live_server, screenshot, manager,
                                                        language, prefix, viewport, size):
    black = make_product(title="Kericho Gold", stock=2)
    orders = [make_order(lines=[(black, 1)], first_name=name, payment_status="cod")  # the last two: sold out
              for name in ("Sara", "Omar")]
    for n in range(2):
        stock_alert_confirm(token=stock_alert_request(product_id=black.pk, email=f"w{n}@example.com").token)
    page = signed_in(new_page, live_server, manager, viewport=viewport)
    # order detail: invoice, packing slip and print view
    page.goto(f"{prefix}/admindash/orders")
    page.locator('[data-island="admin-orders"][data-mounted="true"]').wait_for()
    page.get_by_role("button", name=orders[0].number).first.click()
    documents = page.locator("[data-documents]")
    documents.wait_for()
    hrefs = documents.locator("a").evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")
    assert hrefs[0].endswith(f"/orders/{orders[0].number}/invoice.pdf")
    assert "kind=packing-slip" in hrefs[1] and hrefs[2].endswith(f"/admindash/orders/{orders[0].pk}/print")
    screenshot(page, f"docs-admin-order-detail-{language}-{size}")
    page.keyboard.press("Escape")
    # bulk: select all, print packing slips in one PDF
    page.locator('[data-island="admin-orders"] input[type="checkbox"]:visible').first.check()
    link = page.locator('[data-print-kind="packing-slip"]')
    link.wait_for()
    href = link.get_attribute("href")
    assert href.startswith(f"{prefix}/admindash/orders/documents.pdf?kind=packing-slip&ids=")
    answer = page.request.get(href)
    assert answer.status == 200 and answer.body()[:4] == b"%PDF"
    screenshot(page, f"docs-admin-bulk-print-{language}-{size}")
    # the print view
    page.goto(f"{prefix}/admindash/orders/{orders[0].pk}/print")
    assert page.locator(".doc__title").inner_text() in ("Invoice", "فاتورة")
    assert page.locator("html").get_attribute("dir") == ("rtl" if language == "ar" else "ltr")
    _no_sideways_scroll(page)
    screenshot(page, f"docs-admin-print-view-{language}-{size}")
    # inventory: waiting shoppers per product
    page.goto(f"{prefix}/admindash/inventory")
    waiting = page.locator("[data-waiting]").first
    waiting.wait_for()
    assert "2" in waiting.inner_text()
    screenshot(page, f"docs-admin-inventory-waiting-{language}-{size}")
