"""Customer e-mails, written in the language the customer used the shop in.

Each is queued in the outbox (shop.mail) inside the transaction that changes
the order, so the mail exists exactly when the change does.
"""

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
    mail_queue(to=order.email, subject=subject, text=body, language=language)


def order_confirmation_send(*, order):
    _queue(order, "orders/email/confirmation.txt", "orders/email/confirmation_subject.txt")


def order_status_send(*, order, status):
    _queue(order, "orders/email/status.txt", "orders/email/status_subject.txt", {"status": status})
