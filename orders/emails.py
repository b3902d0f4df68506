"""Customer e-mails, written in the language the customer used the shop in.

Each is queued in the outbox (shop.mail) inside the transaction that changes
the order, so the mail exists exactly when the change does.
"""


from decimal import Decimal
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from orders.models import Order, PaymentStatus
from orders.selectors import order_pending_report
from orders.tracking import shipment_of, tracking_url
from shop.mail import isolate_ltr, mail_queue
from shop.models import StoreSettings
from shop.store_settings import store_settings_get
from shop.whatsapp import whatsapp_number, whatsapp_queue


def _context(order: Order, store: StoreSettings, language: str, extra: dict[str, Any] | None) -> dict[str, Any]:
    return {"order": order, "items": list(order.items.all()), "store": store, "LANG": language,
            "DIR": "rtl" if language == "ar" else "ltr",
            # an Arabic subject keeps the order number whole and left-to-right
            "subject_number": isolate_ltr(order.number) if language == "ar" else order.number,
            "track_url": tracking_url(order, language), "shipment": shipment_of(order), **(extra or {})}


def _queue(order: Order, template: str, subject_template: str, extra: dict[str, Any] | None = None) -> None:
    store = store_settings_get()
    language = order.language or "en"
    with translation.override(language):
        context = _context(order, store, language, extra)
        subject = render_to_string(subject_template, context).strip()
        body = render_to_string(template, context)
    mail_queue(to=order.email, subject=_test_prefix(order) + subject, text=body, language=language)
    if order.whatsapp_opt_in:
        _whatsapp(order, store, language, context)


def _whatsapp(order: Order, store: StoreSettings, language: str, context: dict[str, Any]) -> None:
    """The same news by WhatsApp to the checkout phone, for customers who opted in."""
    to = whatsapp_number(order.phone, country=order.country)
    if not to:
        return
    with translation.override(language):
        text = render_to_string("orders/whatsapp/update.txt", context).strip()
    whatsapp_queue(to=to, text=_test_prefix(order) + text, language=language)


def _test_prefix(order: Order) -> str:
    """Test-page orders say so in every subject, so nobody ships or books them."""
    return "[TEST] " if order.is_test else ""


def order_confirmation_send(*, order: Order) -> None:
    _queue(order, "orders/email/confirmation.txt", "orders/email/confirmation_subject.txt")


def order_status_send(*, order: Order, status: str) -> None:
    # a cancelled order whose customer holds a kiosk reference (Aman, Masary) for it: told not to pay it now,
    # as Paymob cannot refund the cash (not "if you paid by card, it will be refunded")
    kiosk = (status == "cancelled" and order.payment_status == PaymentStatus.AWAITING
             and order_pending_report(order) is not None)
    _queue(order, "orders/email/status.txt", "orders/email/status_subject.txt", {"status": status, "kiosk": kiosk})


def order_refund_send(*, order: Order, amount: Decimal, refunded: Decimal, cash: bool = False) -> None:
    """Tell the customer `amount` of their card payment went back to their card (`cash`: staff gave it back
    in cash, for a cash-on-delivery order) (`refunded`: all of the order's money returned so far). Queued
    once per refund by orders.actions.order_refund_record."""
    _queue(order, "orders/email/refund.txt", "orders/email/refund_subject.txt",
           {"status": "refunded", "amount": amount, "refunded": refunded, "cash": cash})


def order_refund_void_send(*, order: Order, amount: Decimal, refunded: Decimal) -> None:
    """Correct an earlier refund e-mail: `amount` of it was voided in the provider's dashboard and will not go
    back to the card after all (`refunded`: what is returned so far). Queued once per void by
    orders.actions.order_refund_record."""
    _queue(order, "orders/email/refund_void.txt", "orders/email/refund_void_subject.txt",
           {"status": "refund_voided", "amount": amount, "refunded": refunded})


def order_attention_send(*, order: Order, reason: str = "paid_after_cancel", other: Order | None = None) -> None:
    """Tell the store that money arrived on a cancelled order (refund or restore it), or that an order
    was paid twice (`reason` "paid_twice": refund one payment), or paid by card after the cash-on-delivery
    order `other` replaced it ("paid_after_replaced": ship one, cancel the other)."""
    store = store_settings_get()
    with translation.override(settings.LANGUAGE_CODE):
        context = {"order": order, "store": store, "reason": reason, "other": other}
        subject = render_to_string("orders/email/attention_subject.txt", context).strip()
        body = render_to_string("orders/email/attention.txt", context)
    mail_queue(to=store.store_email, subject=_test_prefix(order) + subject, text=body,
               language=settings.LANGUAGE_CODE)
