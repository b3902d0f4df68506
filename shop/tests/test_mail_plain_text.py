"""Subjects and text parts are plain text: a store, product or customer name holding "&" or an apostrophe
reaches the reader as typed, never as an HTML entity ("Tea &amp; Co", "O&#x27;Brien")."""

from pathlib import Path

import pytest
from django.conf import settings

from accounts.emails import password_reset_email
from catalog.models import Product, StockAlert
from catalog.stock_alerts import stock_alert_request, stock_alerts_send
from orders.emails import order_confirmation_send, order_status_send
from shop.models import OutboundEmail
from shop.newsletter import newsletter_subscribe
from shop.store_settings import store_settings_update
from tests.arabic_seed import seed_arabic_shop

pytestmark = pytest.mark.django_db

ENTITIES = ("&amp;", "&#x27;", "&#39;", "&quot;", "&lt;", "&gt;")


@pytest.mark.parametrize("language", ["en", "ar"])
def test_it_writes_typed_names_into_subjects_and_text_parts_as_typed(alice, settings, tmp_path, language):
    # given
    settings.MEDIA_ROOT = tmp_path
    shop = seed_arabic_shop(alice=alice, media_root=tmp_path)
    store_settings_update(store_name="Tea & Co's", store_name_ar="شاي & كو")
    order, product = shop["order"], shop["product"]
    order.language, order.first_name = language, "D'Arcy & Sons"
    order.save(update_fields=["language", "first_name"])
    alice.language, alice.first_name = language, "D'Arcy"
    alice.save()
    Product.objects.filter(pk=product.pk).update(stock=0, title_en="Tea & Honey", title_ar="شاي & عسل")
    # when
    order_confirmation_send(order=order)
    order_status_send(order=order, status="shipped")
    password_reset_email(user=alice, token="t0ken", base_url="https://shop.example")
    newsletter_subscribe(email="sara@example.com", language=language, site_url="https://shop.example")
    stock_alert_request(product_id=product.pk, email="sara@example.com", language=language,
                        base_url="https://shop.example")
    StockAlert.objects.update(confirmed_at=order.created_at)
    Product.objects.filter(pk=product.pk).update(stock=20)
    stock_alerts_send(product_ids=[product.pk])
    # then
    mails = list(OutboundEmail.objects.all())
    assert len(mails) >= 6
    for mail in mails:
        for entity in ENTITIES:
            assert entity not in mail.subject, (mail.subject, entity)
            assert entity not in mail.text, (mail.subject, mail.text, entity)
    assert any("&" in mail.subject for mail in mails)


def test_every_email_and_whatsapp_text_template_turns_autoescape_off():
    # a new plain-text template HTML-escapes what it shows unless it says otherwise
    templates = [path for path in Path(settings.BASE_DIR).glob("*/templates/*/*/*.txt")
                 if path.parent.name in ("email", "whatsapp")]
    assert len(templates) > 20
    escaping = [str(path) for path in templates if "{% autoescape off %}" not in path.read_text()]
    assert escaping == []
