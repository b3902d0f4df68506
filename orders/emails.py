"""Customer e-mails, written in the language the customer used the shop in."""

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import translation

from shop.store_settings import store_settings_get


def _send(order, template, subject_template, extra=None):
    store = store_settings_get()
    with translation.override(order.language or "en"):
        context = {"order": order, "items": list(order.items.all()), "store": store,
                   "LANG": order.language or "en", **(extra or {})}
        subject = render_to_string(subject_template, context).strip()
        body = render_to_string(template, context)
    send_mail(_test_prefix(order) + subject, body, settings.DEFAULT_FROM_EMAIL, [order.email])


def _test_prefix(order):
    """Test-page orders say so in every subject, so nobody ships or books them."""
    return "[TEST] " if order.is_test else ""


def order_confirmation_send(*, order):
    _send(order, "orders/email/confirmation.txt", "orders/email/confirmation_subject.txt")


def order_status_send(*, order, status):
    _send(order, "orders/email/status.txt", "orders/email/status_subject.txt", {"status": status})


def order_attention_send(*, order):
    """Tell the store that money arrived on a cancelled order (refund or restore it)."""
    store = store_settings_get()
    with translation.override(settings.LANGUAGE_CODE):
        context = {"order": order, "store": store}
        subject = render_to_string("orders/email/attention_subject.txt", context).strip()
        body = render_to_string("orders/email/attention.txt", context)
    send_mail(_test_prefix(order) + subject, body, settings.DEFAULT_FROM_EMAIL, [store.store_email])
