"""Customer e-mails, written in the language the customer used the shop in.

Each is queued in the outbox (shop.mail) inside the transaction that changes
the order, so the mail exists exactly when the change does.
"""

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from shop.mail import mail_queue
from shop.store_settings import store_settings_get


def _queue(order, template, subject_template, extra=None):
    store = store_settings_get()
    language = order.language or "en"
    with translation.override(language):
        context = {"order": order, "items": list(order.items.all()), "store": store,
                   "LANG": language, **(extra or {})}
        subject = render_to_string(subject_template, context).strip()
        body = render_to_string(template, context)
    mail_queue(to=order.email, subject=_test_prefix(order) + subject, text=body, language=language)


def _test_prefix(order):
    """Test-page orders say so in every subject, so nobody ships or books them."""
    return "[TEST] " if order.is_test else ""


def order_confirmation_send(*, order):
    _queue(order, "orders/email/confirmation.txt", "orders/email/confirmation_subject.txt")


def order_status_send(*, order, status):
    _queue(order, "orders/email/status.txt", "orders/email/status_subject.txt", {"status": status})


def order_attention_send(*, order):
    """Tell the store that money arrived on a cancelled order (refund or restore it)."""
    store = store_settings_get()
    with translation.override(settings.LANGUAGE_CODE):
        context = {"order": order, "store": store}
        subject = render_to_string("orders/email/attention_subject.txt", context).strip()
        body = render_to_string("orders/email/attention.txt", context)
    mail_queue(to=store.store_email, subject=_test_prefix(order) + subject, text=body,
               language=settings.LANGUAGE_CODE)
