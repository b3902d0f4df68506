"""Writes for the messages section: a contact message's status and the staff reply."""

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from backoffice.audit import audit_record
from orders.models import Order
from shop.errors import ShopError
from shop.mail import isolate, mail_queue
from shop.models import ContactMessageStatus
from shop.store_settings import store_settings_get
from shop.validation import clean_text

REPLY_MAX = 10000  # room to quote the visitor's message (5000) and answer it


def contact_message_set_status(*, actor, message, status):
    """Mark a contact message new, read, replied or closed."""
    if status not in ContactMessageStatus.values:
        raise ValueError(f"unknown contact message status {status!r}")
    previous = message.status
    with transaction.atomic():
        message.status = status
        message.save(update_fields=["status"])
        audit_record(actor=actor, action="message.status",
                     details=f"{message.email}: {previous} → {status}", target=message)
    return message


def contact_message_reply_language(message):
    """The customer's language for a reply: the one they wrote in, else their account's or last order's."""
    candidates = [
        message.language,
        User.objects.filter(email__iexact=message.email, is_staff=False).values_list("language", flat=True).first(),
        Order.objects.filter(email__iexact=message.email).order_by("-created_at")
        .values_list("language", flat=True).first(),
    ]
    known = dict(settings.LANGUAGES)
    return next((language for language in candidates if language in known), settings.LANGUAGE_CODE)


def _queue_reply(*, message, reply):
    store = store_settings_get()
    language = contact_message_reply_language(message)
    # the customer's own words keep their direction inside a reply in either language
    quoted = "\n".join(f"> {isolate(line)}" for line in message.message.splitlines())
    with translation.override(language):
        heading = _("Your message:")
        typed_subject = isolate(message.subject) if language == "ar" else message.subject
        subject = _("Re: %(subject)s") % {"subject": typed_subject}
        store_name = store.shown_name
    mail_queue(
        to=message.email,
        subject=subject,
        text=f"{reply}\n\n— {store_name}\n\n{heading}\n{quoted}\n",
        language=language,
        reply_to=store.store_email,
    )


def contact_message_reply(*, actor, message, reply):
    """Queue `reply` to the sender in their language and mark the message replied, together."""
    reply = clean_text(reply, field="replyMessage", max_length=REPLY_MAX, multiline=True)
    if not reply:
        raise ShopError(_("Please enter a reply message"), field="replyMessage")
    with transaction.atomic():
        message.status = ContactMessageStatus.REPLIED
        message.reply_message = reply
        message.replied_at = timezone.now()
        message.save(update_fields=["status", "reply_message", "replied_at"])
        _queue_reply(message=message, reply=reply)
        audit_record(actor=actor, action="message.reply", details=message.email, target=message)
    return message
