"""Delivering the outbox: claim a due e-mail, hand it to the mail server, record the outcome.

Mail is queued by `shop.mail.mail_queue` only. A worker task delivers each new
mail right after its transaction commits, and beat runs `outbox_send_due`
every minute (so does `manage.py send_queued_mail`), which picks up whatever
is due: retries, and mail whose task was never queued because the broker was
down. Several workers may race for one mail: a conditional UPDATE lets exactly
one claim it (on SQLite and PostgreSQL alike), so a mail is sent once. The one
gap is a worker dying after the server accepted a mail and before the row says
so: the claim then runs out and the mail goes again (at least once, never lost).
"""

import logging
import smtplib
import socket
import time
from contextlib import suppress
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from shop.logs import loggable_text
from shop.models import OutboundEmail, OutboundEmailStatus
from shop.outbound import DeadlinePassed, call_within, outside_transaction

logger = logging.getLogger(__name__)

S = OutboundEmailStatus
# longer than any attempt (SEND_DEADLINE): a claim older than this belongs to a dead worker
SEND_LEASE = timedelta(minutes=5)
# seconds for handing over one mail in all (connect, greeting, TLS, sign-in, the message): EMAIL_TIMEOUT bounds
# each wait for bytes, and a server trickling its replies a byte at a time held the worker for as long as it
# liked. A mail takes a second or two; past this the server counts as down (the sweep stops, the mail waits).
SEND_DEADLINE = 30
MAX_RETRY_WAIT = timedelta(hours=4)
# one sweep per minute: a sweep gives up its worker well before the next one starts
SWEEP_BUDGET = timedelta(seconds=50)

# sent mail is kept this long for support questions ("did my confirmation go out?")
SENT_KEPT_FOR = timedelta(days=30)

# what one delivery came to
SENT, SKIPPED, REFUSED, SERVER_DOWN = "sent", "skipped", "refused", "server down"
# the server turned this one message away; the next one may well go through
_MESSAGE_ERRORS = (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused, smtplib.SMTPDataError)
ERROR_MAX = 1000


def _permanent(error):
    """Whether the server refused every recipient with a permanent (5xx) reply, "no such user": no later
    attempt can deliver it (RFC 5321 4.2.1). A 4xx reply (busy, greylisted) is worth trying again."""
    refused = getattr(error, "recipients", None) if isinstance(error, smtplib.SMTPRecipientsRefused) else None
    return bool(refused) and all(code >= 500 for code, _reply in refused.values())


def retry_wait(attempts):
    """How long to wait after the `attempts`-th failure: doubling from EMAIL_RETRY_SECONDS, capped."""
    wait = timedelta(seconds=settings.EMAIL_RETRY_SECONDS * 2 ** min(attempts - 1, 20))
    return min(wait, MAX_RETRY_WAIT)


def _due(now):
    return Q(status=S.QUEUED, next_attempt_at__lte=now) | Q(lapsed_claim(now), attempts__lt=settings.EMAIL_MAX_ATTEMPTS)


def lapsed_claim(now):
    """A row claimed by a worker that stopped while sending (its lease ran out)."""
    return Q(status=S.SENDING, locked_until__lt=now)


# stored in English (the logs, the doctor); staff read it in their language (backoffice.api.emails)
LAPSED_ERROR = gettext_noop(
    "The worker stopped while sending, on every attempt (killed, out of memory, a time limit).")


def lapsed_give_up(model, now):
    """Fail the rows of `model` (an outbox) whose last allowed attempt ended with its worker gone.

    Without this such a row is neither due (no attempts left) nor failed: "sending" for ever, retried
    every lease if it were due, and never shown to staff among the failed."""
    gave_up = model.objects.filter(lapsed_claim(now), attempts__gte=settings.EMAIL_MAX_ATTEMPTS).update(
        status=S.FAILED, locked_until=None, last_error=LAPSED_ERROR)
    if gave_up:
        logger.error("%s %s row(s) given up: %s", gave_up, model.__name__, LAPSED_ERROR)
    return gave_up


def _message(email):
    message = EmailMultiAlternatives(
        subject=email.subject, body=email.text, from_email=settings.DEFAULT_FROM_EMAIL, to=[email.to],
        reply_to=[email.reply_to] if email.reply_to else None,
        headers={"Content-Language": email.language},
    )
    if email.html:
        message.attach_alternative(email.html, "text/html")
    return message


def outbox_deliver(*, email_id):
    """Send the e-mail `email_id` if it is due and nobody else holds it; return whether it went."""
    return _deliver(email_id) == SENT


def _deliver(email_id):
    now = timezone.now()
    claimed = OutboundEmail.objects.filter(_due(now), pk=email_id).update(
        status=S.SENDING, attempts=F("attempts") + 1, last_attempt_at=now, locked_until=now + SEND_LEASE,
    )
    if not claimed:
        return SKIPPED
    email = OutboundEmail.objects.get(pk=email_id)
    outside_transaction("the mail server")
    try:
        _send(_message(email))
    except Exception as error:  # any failure of the server, the network or the message: try again later
        _record_failure(email, error)
        return REFUSED if isinstance(error, _MESSAGE_ERRORS) else SERVER_DOWN
    OutboundEmail.objects.filter(pk=email.pk).update(
        status=S.SENT, sent_at=timezone.now(), locked_until=None, last_error="",
    )
    return SENT


def _send(message):
    """Hand `message` to the mail server within SEND_DEADLINE in all (shop.outbound.call_within).

    Given up, the connection is hung up if it got as far as the greeting, so that the abandoned attempt ends
    now rather than deliver the mail after all while the outbox keeps it for a retry."""
    connection = message.connection = get_connection()
    try:
        call_within(SEND_DEADLINE, "the mail server", message.send)
    except DeadlinePassed:
        smtp = getattr(connection, "connection", None)  # smtplib's, once the server's greeting came
        with suppress(AttributeError, OSError):
            smtp.sock.shutdown(socket.SHUT_RDWR)  # wakes the attempt's thread waiting on it
        raise


def _record_failure(email, error):
    gave_up = email.attempts >= settings.EMAIL_MAX_ATTEMPTS or _permanent(error)
    OutboundEmail.objects.filter(pk=email.pk).update(
        status=S.FAILED if gave_up else S.QUEUED,
        next_attempt_at=timezone.now() + retry_wait(email.attempts),
        locked_until=None,
        last_error=f"{type(error).__name__}: {error}"[:ERROR_MAX],
    )
    if gave_up:
        logger.error("e-mail %s given up after %s attempt(s): %s", email.pk, email.attempts, loggable_text(error))
    else:
        logger.warning("e-mail %s failed (attempt %s), will retry: %s", email.pk, email.attempts,
                       loggable_text(error))


def outbox_send_due(*, limit=200, budget=SWEEP_BUDGET):
    """Send up to `limit` due e-mails, oldest due first; return how many went out.

    The sweep stops when the mail server itself fails (down, silent, hanging up)
    or after `budget`: waiting out a timeout per queued mail would hold a worker
    for hours and pile up the sweeps beat starts every minute. The rest stay due
    and go in a later sweep.
    """
    started = time.monotonic()
    lapsed_give_up(OutboundEmail, timezone.now())
    due = (OutboundEmail.objects.filter(_due(timezone.now()))
           .order_by("next_attempt_at", "pk").values_list("pk", flat=True)[:limit])
    sent = 0
    for pk in list(due):
        outcome = _deliver(pk)
        sent += outcome == SENT
        if outcome == SERVER_DOWN or (budget and time.monotonic() - started > budget.total_seconds()):
            break
    return sent


def outbox_prune(*, keep=SENT_KEPT_FOR):
    """Delete e-mails sent more than `keep` ago (their content lives on in the orders and messages)."""
    deleted, _ = OutboundEmail.objects.filter(status=S.SENT, sent_at__lt=timezone.now() - keep).delete()
    return deleted


# a message not taken by its server this long after it was queued is late: the server refuses, or no worker sends
LATE_AFTER = timedelta(minutes=15)


def _late(model):
    return model.objects.filter(status__in=[S.QUEUED, S.SENDING], created_at__lt=timezone.now() - LATE_AFTER)


def outbox_late_count(model=OutboundEmail):
    """How many messages of the outbox `model` have waited longer than LATE_AFTER. One function for the
    e-mail and the WhatsApp outbox: same columns, same statuses."""
    return _late(model).count()


def outbox_late_error(model=OutboundEmail):
    """The last error of the latest tried late message of the outbox `model` ("" if none had one)."""
    late = _late(model).exclude(last_error="").order_by("-last_attempt_at")
    return late.values_list("last_error", flat=True).first() or ""


def outbox_failed_count(model=OutboundEmail):
    """How many messages of the outbox `model` were given up after every attempt."""
    return model.objects.filter(status=S.FAILED).count()


def outbox_failed_list(*, limit=10):
    """The most recently failed e-mails, for the dashboard."""
    return list(OutboundEmail.objects.filter(status=S.FAILED).order_by("-last_attempt_at", "-pk")
                .only("id", "to", "subject", "language", "status", "attempts", "last_error", "created_at",
                      "last_attempt_at")[:limit])
