"""Issue 13, the screens and messages added after the first Arabic walk: staff e-mails (daily
summary, stock alerts), customer e-mails (confirmation, status, back in stock, cart reminder),
WhatsApp texts, the invoice and packing slip, the tracking page and the order print view, each in
Arabic, read by the same checker as tests/test_arabic_pages.py: no stray English word, no Eastern
digit, typed text (names, addresses, product titles, notes) direction-isolated."""

import re
from datetime import timedelta
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.utils import timezone

from accounts.emails import email_changed_email, password_reset_email
from backoffice.alerts import daily_summary_send, rate_refused_send, stock_levels_check
from backoffice.inbox import contact_message_reply
from catalog.models import Product, StockAlert
from catalog.stock_alerts import stock_alert_confirm, stock_alert_request, stock_alerts_send
from importer.sync import ScheduleSummary, summary_send
from orders.cart import CartOwner, cart_line_add
from orders.documents import Kind, document_html
from orders.emails import order_confirmation_send, order_status_send
from orders.models import Cart, OrderStatusChange
from orders.reminders import cart_reminder_send
from orders.tracking import tracking_path
from shop.models import ContactMessage, NewsletterSubscriber, OutboundEmail, OutboundWhatsApp
from shop.newsletter import newsletter_confirm, newsletter_subscribe
from tests.arabic_seed import TYPED, seed_arabic_shop
from tests.arabic_text import arabic_page_problems, arabic_text_problems

pytestmark = pytest.mark.django_db

# what the order and its product say that a person typed: every message isolates it
SHIPPING_NOTE = "Leave it with the doorman"
COURIER = "Bosta"


@pytest.fixture
def shop(alice, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.SITE_URL = "https://shop.example"
    return seed_arabic_shop(alice=alice, media_root=tmp_path)


def _typed(product):
    return [TYPED["customer_first"], TYPED["street"], "Dokki", product.title_ar, product.title_en, SHIPPING_NOTE]


def _mail_problems(mail, typed, where):
    assert re.search(r'<html lang="ar" dir="rtl"', mail.html), f"{where}: the HTML part is not Arabic, right-to-left"
    return (arabic_text_problems(mail.subject, typed=typed, where=f"{where} subject")
            + arabic_text_problems(mail.text, typed=typed, where=where)
            + arabic_page_problems(mail.html, typed=typed, where=f"{where} html"))


def _last_mail(to):
    return OutboundEmail.objects.filter(to=to).order_by("-pk").first()


def test_the_staff_emails_read_as_arabic(shop, owner):
    owner.language, owner.daily_summary = "ar", True
    owner.save()
    product = shop["product"]
    assert daily_summary_send(now=timezone.now()) == 1
    problems = _mail_problems(_last_mail(owner.email), [], "daily summary")
    Product.objects.filter(pk=product.pk).update(stock=3)
    stock_levels_check(product_ids=[product.pk])
    Product.objects.filter(pk=product.pk).update(stock=0)
    stock_levels_check(product_ids=[product.pk])
    alerts = OutboundEmail.objects.filter(to=owner.email, subject__contains="المخزون")
    assert alerts.count() == 2, list(OutboundEmail.objects.values_list("subject", flat=True))
    for mail in alerts:
        problems += _mail_problems(mail, [product.title_ar], "stock alert")
    assert problems == [], "\n".join(problems)


def test_the_customer_emails_and_whatsapp_texts_read_as_arabic(shop, alice, django_capture_on_commit_callbacks):
    order, product = shop["order"], shop["product"]
    order.whatsapp_opt_in = True
    order.save(update_fields=["whatsapp_opt_in"])
    OrderStatusChange.objects.create(order=order, from_status="processing", to_status="shipped", courier=COURIER,
                                     tracking_number="EG123456789", customer_note=SHIPPING_NOTE)
    typed = _typed(product)
    problems = []
    order_confirmation_send(order=order)
    problems += _mail_problems(_last_mail(order.email), typed, "confirmation")
    for status in ("shipped", "delivered", "cancelled", "processing"):
        order_status_send(order=order, status=status)
        problems += _mail_problems(_last_mail(order.email), typed, f"status {status}")
        message = OutboundWhatsApp.objects.order_by("-pk").first()
        assert message.language == "ar"
        problems += arabic_text_problems(message.text, typed=typed + [COURIER], where=f"whatsapp {status}")
    assert problems == [], "\n".join(problems)


def test_the_back_in_stock_and_cart_reminder_emails_read_as_arabic(shop, bob):
    product = shop["product"]
    Product.objects.filter(pk=product.pk).update(stock=0)
    stock_alert_request(product_id=product.pk, email="sara@example.com", language="ar", base_url="https://x.example")
    problems = _mail_problems(_last_mail("sara@example.com"), [product.title_ar], "stock alert confirm")
    stock_alert_confirm(token=StockAlert.objects.get(email="sara@example.com").token)
    Product.objects.filter(pk=product.pk).update(stock=20)
    assert stock_alerts_send(product_ids=[product.pk]) == 1
    problems += _mail_problems(_last_mail("sara@example.com"), [product.title_ar], "back in stock")

    bob.language, bob.cart_reminders = "ar", True
    bob.save()
    cart = Cart.objects.create(user=bob)
    cart_line_add(owner=CartOwner.of(cart), product_id=product.pk, quantity=2)
    Cart.objects.filter(pk=cart.pk).update(updated_at=timezone.now() - timedelta(days=1))
    assert cart_reminder_send(cart_id=cart.pk)
    problems += _mail_problems(_last_mail(bob.email), [product.title_ar], "cart reminder")
    assert problems == [], "\n".join(problems)


def test_the_account_newsletter_and_reply_emails_read_as_arabic(shop, alice, owner):
    alice.language, alice.first_name = "ar", TYPED["customer_first"]
    alice.save()
    typed = [TYPED["customer_first"]]
    password_reset_email(user=alice, token="t0ken", base_url="https://shop.example")
    problems = _mail_problems(_last_mail(alice.email), typed, "password reset")
    email_changed_email(user=alice, old_email="old@example.com")
    problems += _mail_problems(_last_mail("old@example.com"), typed, "e-mail changed")
    subscriber = newsletter_subscribe(email="sara@example.com", language="ar", site_url="https://shop.example")
    problems += _mail_problems(_last_mail("sara@example.com"), [], "newsletter confirmation")
    newsletter_confirm(token=subscriber.unsubscribe_token, site_url="https://shop.example")
    problems += _mail_problems(_last_mail("sara@example.com"), [], "newsletter welcome")
    message = ContactMessage.objects.get(email="mona@example.com")
    contact_message_reply(actor=owner, message=message, reply="شكرًا لرسالتك، طلبك في الطريق.")
    problems += _mail_problems(_last_mail("mona@example.com"), [TYPED["message_subject"]], "staff reply")
    assert problems == [], "\n".join(problems)


def test_the_exchange_rate_alert_reads_as_arabic(shop, owner):
    owner.language = "ar"
    owner.save()
    rate_refused_send(stored=Decimal("0.376"), refused=Decimal("0.5"), move=Decimal("0.33"), limit=Decimal("0.20"))
    mail = _last_mail(owner.email)
    # Latin digits with the decimal point the prices use (1,234.50 ج.م): "0,376" reads as three hundred and seventy-six
    assert "0.376" in mail.text and "0.5" in mail.text
    assert not re.search(r"\d,\d", mail.text), mail.text
    assert _mail_problems(mail, [], "rate alert") == []


def test_the_scheduled_import_summary_reads_as_arabic(shop, owner, settings):
    owner.language = "ar"
    owner.save()
    product, other = Product.objects.order_by("pk")[:2]
    summary = ScheduleSummary(run=SimpleNamespace(base_url="https://producer.example"), unchanged=3,
                              updated=[(product, Decimal("100.00"), Decimal("120.00"), ["price", "stock"])],
                              new=[SimpleNamespace(name="Kericho Gold Mint 100 bags")], gone=[other])
    summary_send(summary=summary)
    mail = _last_mail(owner.email)
    assert "https://shop.example/ar/admindash/external-products" in mail.text
    problems = _mail_problems(mail, [product.title_ar, other.title_ar, "Kericho Gold Mint 100 bags"], "import summary")
    assert problems == [], "\n".join(problems)


def test_the_invoice_and_packing_slip_read_as_arabic(shop):
    order, product = shop["order"], shop["product"]
    problems = []
    for kind in (Kind.INVOICE, Kind.PACKING_SLIP):
        page = document_html(orders=[order], kind=kind, language="ar")
        assert 'dir="rtl"' in page
        # the page's own direction is not an isolate: typed text must have its own
        problems += arabic_page_problems(page.replace(' dir="rtl"', ""), typed=_typed(product), where=kind)
    assert problems == [], "\n".join(problems)


def test_the_tracking_page_reads_as_arabic(shop, client):
    order, product = shop["order"], shop["product"]
    OrderStatusChange.objects.create(order=order, from_status="processing", to_status="shipped", courier=COURIER,
                                     tracking_number="EG123456789", customer_note=SHIPPING_NOTE)
    problems = arabic_page_problems(client.get("/ar/track").content.decode(), where="/ar/track")
    response = client.get(tracking_path(order, "ar"))
    assert response.status_code == 200
    problems += arabic_page_problems(response.content.decode(), typed=_typed(product) + [COURIER], where="tracking")
    assert problems == [], "\n".join(problems)


def test_the_order_print_view_reads_as_arabic(shop, client, owner):
    order, product = shop["order"], shop["product"]
    client.force_login(owner)
    response = client.get(f"/ar/admindash/orders/{order.pk}/print")
    assert response.status_code == 200
    page = response.content.decode().replace(' dir="rtl"', "")  # the page's direction is not an isolate
    problems = arabic_page_problems(page, typed=_typed(product), where="print view")
    assert problems == [], "\n".join(problems)


def test_the_pages_behind_the_email_links_read_as_arabic(shop, client):
    problems = []
    for path in ("/ar/cart/reminders/unsubscribe?token=bad", "/ar/stock-alert/confirm?token=bad",
                 "/ar/stock-alert/cancel?token=bad", "/ar/newsletter/confirm/bad", "/ar/newsletter/unsubscribe/bad",
                 f"/ar/newsletter/confirm/{NewsletterSubscriber.objects.create(email='n@example.com').unsubscribe_token}",
                 f"/ar/newsletter/unsubscribe/{NewsletterSubscriber.objects.get(email='n@example.com').unsubscribe_token}"):
        response = client.get(path)
        assert response.status_code in (200, 400, 404), (path, response.status_code)
        assert re.search(r"<title>[^<]*نايل هايلاندز تي", response.content.decode()), path
        problems += arabic_page_problems(response.content.decode(), where=path)
    assert problems == [], "\n".join(problems)


def test_the_stock_alert_pages_and_the_out_of_stock_refusal_isolate_the_products_title(shop, client):
    # a product's title is typed text: a Latin one ("Kenya Gold (250 g)") at the start of an Arabic sentence
    # set its direction, and its brackets and digits came out mirrored
    product = shop["product"]
    typed = [product.title_ar]
    Product.objects.filter(pk=product.pk).update(stock=0)
    stock_alert_request(product_id=product.pk, email="sara@example.com", language="ar", base_url="https://x.example")
    token = StockAlert.objects.get(email="sara@example.com").token
    asked = client.get(f"/ar/stock-alert/confirm?token={token}")
    problems = arabic_page_problems(asked.content.decode(), typed=typed, where="stock alert confirm page")
    confirmed = client.post("/ar/stock-alert/confirm", {"token": token})
    assert confirmed.status_code == 200
    problems += arabic_page_problems(confirmed.content.decode(), typed=typed, where="stock alert confirmed page")
    refused = client.post("/api/cart/items", {"productId": product.pk, "quantity": 1}, content_type="application/json",
                          HTTP_ACCEPT_LANGUAGE="ar")
    assert refused.status_code == 400, refused.content
    problems += arabic_text_problems(refused.json()["message"], typed=typed, where="out of stock")
    assert problems == [], "\n".join(problems)


def test_the_product_pages_pictures_isolate_its_title(shop, client):
    # the pictures' text alternatives name the product: "<title>، الصورة 2 من 2"
    product = shop["product"]
    Product.objects.filter(pk=product.pk).update(images=["/media/a.jpg", "/media/b.jpg"])
    page = client.get(f"/ar/product/{product.slug}").content.decode()
    assert "، الصورة 2 من 2" in page
    problems = [p for p in arabic_page_problems(page, typed=[product.title_ar], where="product page") if "<img>" in p]
    assert problems == [], "\n".join(problems)
