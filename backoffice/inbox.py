"""Writes for the messages section: a contact message's status and the staff reply."""

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from backoffice.audit import audit_record
from shop.errors import ShopError
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


def _reply_email(*, message, reply):
    store = store_settings_get()
    quoted = "\n".join(f"> {line}" for line in message.message.splitlines())
    heading = _("Your message:")
    body = f"{reply}\n\n— {store.store_name}\n\n{heading}\n{quoted}\n"
    return EmailMessage(
        subject=_("Re: %(subject)s") % {"subject": message.subject},
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[message.email],
        reply_to=[store.store_email] if store.store_email else None,
    )


def contact_message_reply(*, actor, message, reply):
    """E-mail `reply` to the sender, then mark the message replied.

    The e-mail goes out first: if sending fails the message keeps its status
    and the caller reports the failure.
    """
    reply = clean_text(reply, field="replyMessage", max_length=REPLY_MAX, multiline=True)
    if not reply:
        raise ShopError(_("Please enter a reply message"), field="replyMessage")
    _reply_email(message=message, reply=reply).send(fail_silently=False)
    with transaction.atomic():
        message.status = ContactMessageStatus.REPLIED
        message.reply_message = reply
        message.replied_at = timezone.now()
        message.save(update_fields=["status", "reply_message", "replied_at"])
        audit_record(actor=actor, action="message.reply", details=message.email, target=message)
    return message
