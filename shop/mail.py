"""The one way the shop sends e-mail: `mail_queue` writes it to the outbox.

Call it inside the transaction of the change that causes the mail (an order
placed, a status changed, a reply saved): the mail is stored with that change
or not at all, and a rolled-back change sends nothing. Nothing here talks to
the mail server, so no request ever waits on SMTP; after the commit a worker
task is asked to deliver it (`shop.outbox`), and if the broker cannot take
that task the beat sweep delivers it within a minute anyway.
"""

import logging
import re
from functools import partial

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.html import escape

from shop.models import OutboundEmail, OutboundEmailStatus
from shop.queue import enqueue
from shop.tasks import outbox_deliver_task

logger = logging.getLogger(__name__)

# anything that would end a header line or smuggle a control character into one
_HEADER_BREAK = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
SUBJECT_MAX = 300


def _address(value: str, *, what: str) -> str:
    if not isinstance(value, str) or _HEADER_BREAK.search(value):
        raise ValueError(f"{what} address is not a single line: {value!r}")
    try:
        validate_email(value)
    except ValidationError:
        raise ValueError(f"{what} address is not valid: {value!r}") from None
    return value


def _subject(value: str) -> str:
    # Inputs that end up in a subject (the store name, a contact subject) are
    # refused at their service with a field error; a value stored before that
    # rule must still not break the header or block the change that mails it.
    return " ".join(_HEADER_BREAK.sub(" ", value).split())[:SUBJECT_MAX]


# Unicode isolates for plain text (subjects, text bodies), where no <bdi> exists:
# typed text keeps its own direction and cannot pull the punctuation around it
# ("?Do you sell…"); numbers, codes and addresses stay left-to-right.
FSI, LRI, PDI = "\u2068", "\u2066", "\u2069"
# text stored before the input door dropped them may still hold direction controls: inside our isolate they
# end at our PDI, unless the text closes the isolate itself first, so its own isolates go
_ISOLATES = str.maketrans("", "", "\u2066\u2067\u2068\u2069")


def isolate(text: str | None) -> str:
    """`text` (typed by a person) isolated in its own direction, for plain text."""
    return f"{FSI}{text.translate(_ISOLATES)}{PDI}" if text else ""


def isolate_ltr(text: str | None) -> str:
    """`text` (an order number, e-mail, phone, code) isolated left-to-right, for plain text."""
    return f"{LRI}{text.translate(_ISOLATES)}{PDI}" if text else ""


def html_from_text(text: str, language: str) -> str:
    """The HTML part of a text-only e-mail: the same words, right-to-left for Arabic."""
    direction = "rtl" if language == "ar" else "ltr"
    return (f'<!doctype html><html lang="{escape(language)}" dir="{direction}"><body dir="{direction}">'
            # long links wrap instead of widening a phone's screen
            '<div style="white-space: pre-wrap; overflow-wrap: anywhere; font-family: system-ui, Tahoma, sans-serif;">'
            f"{escape(text)}</div>"
            "</body></html>")


def mail_queue(*, to: str, subject: str, text: str, html: str = "", language: str = "en",
               reply_to: str = "") -> OutboundEmail:
    """Queue one e-mail to `to`, rendered by the caller in `language`; return the outbox row.

    A text-only mail gets an HTML part with the recipient's direction, so an
    Arabic mail reads right-to-left in every client.
    """
    email = OutboundEmail.objects.create(
        to=_address(to, what="recipient"),
        reply_to=_address(reply_to, what="reply-to") if reply_to else "",
        subject=_subject(subject), text=text, html=html or html_from_text(text, language), language=language,
    )
    transaction.on_commit(partial(_deliver_soon, email.pk))
    return email


def mail_retry(*, email: OutboundEmail) -> OutboundEmail:
    """Give a failed e-mail a fresh set of attempts, starting now."""
    with transaction.atomic():
        OutboundEmail.objects.filter(pk=email.pk, status=OutboundEmailStatus.FAILED).update(
            status=OutboundEmailStatus.QUEUED, attempts=0, next_attempt_at=timezone.now(),
        )
        transaction.on_commit(partial(_deliver_soon, email.pk))
    email.refresh_from_db()
    return email


def _deliver_soon(email_id: int) -> None:
    # the mail is stored: if the queue is down, the beat sweep delivers it
    enqueue(outbox_deliver_task, email_id)
