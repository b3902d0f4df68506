"""WhatsApp: click-to-chat links and order updates sent through an adapter.

Click-to-chat is a `https://wa.me/<number>?text=…` link to the store's number
(Store settings), with a message prefilled in the page's language.

Order updates go out only to customers who opted in at checkout. Like e-mail
(shop/mail.py, shop/outbox.py) a message is stored by `whatsapp_queue` inside
the transaction of the change that causes it, delivered by a worker after the
commit, claimed once by a conditional UPDATE, retried with the outbox's backoff
(EMAIL_RETRY_SECONDS doubling, EMAIL_MAX_ATTEMPTS attempts) and swept every
minute by beat. A failed send never touches the order.

The sender is chosen by the WHATSAPP_BACKEND setting: `console` logs the
message (the default), `cloud` posts it to the WhatsApp Cloud API
(`WHATSAPP_API_URL/<WHATSAPP_PHONE_NUMBER_ID>/messages` with the bearer
WHATSAPP_ACCESS_TOKEN).
"""

import logging
import re
import time
from datetime import datetime, timedelta
from functools import partial
from urllib.parse import quote

import requests
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from shop.logs import loggable_phone, loggable_text
from shop.models import OutboundWhatsApp, OutboundWhatsAppStatus
from shop.outbound import DeadlinePassed, call_within, outside_transaction
from shop.outbox import ERROR_MAX, SEND_LEASE, SWEEP_BUDGET, lapsed_claim, lapsed_give_up, retry_wait
from shop.queue import enqueue

logger = logging.getLogger(__name__)
S = OutboundWhatsAppStatus
_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩", "0123456789")


def whatsapp_number(phone: str | None, *, country: str = "EGY") -> str:
    """A phone number as WhatsApp wants it: digits with the country code (Egypt's 0… → 20…), or ""."""
    digits = re.sub(r"\D", "", (phone or "").translate(_DIGITS))
    if digits.startswith("00"):
        digits = digits[2:]
    elif country == "EGY" and digits.startswith("0"):
        digits = "20" + digits[1:]
    elif country == "EGY" and len(digits) == 10 and digits.startswith("1"):
        digits = "20" + digits
    return digits if 8 <= len(digits) <= 15 else ""


def chat_url(number: str | None, text: str = "") -> str:
    """The click-to-chat link to `number` with `text` prefilled, or "" without a usable number."""
    digits = whatsapp_number(number)
    if not digits:
        return ""
    return f"https://wa.me/{digits}" + (f"?text={quote(text)}" if text else "")


# --- senders ---------------------------------------------------------------

class WhatsAppSendError(Exception):
    """A message not sent; `service_down` when the service itself did not answer (the next ones would not go
    either)."""

    def __init__(self, message: str, *, service_down: bool = False) -> None:
        super().__init__(message)
        self.service_down = service_down


class ConsoleSender:
    """Logs the message: for development and shops without a WhatsApp Business account."""

    def send(self, *, to: str, text: str) -> str:
        logger.info("WhatsApp to %s: %s", loggable_phone(to), loggable_text(text))
        return "console"


class CloudApiSender:
    """WhatsApp Cloud API: POST /<phone-number-id>/messages, a text message."""

    def send(self, *, to: str, text: str) -> str:
        if not (settings.WHATSAPP_PHONE_NUMBER_ID and settings.WHATSAPP_ACCESS_TOKEN):
            raise WhatsAppSendError("WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_ACCESS_TOKEN are not set")
        url = f"{settings.WHATSAPP_API_URL}/{settings.WHATSAPP_PHONE_NUMBER_ID}/messages"
        body = {"messaging_product": "whatsapp", "recipient_type": "individual", "to": to, "type": "text",
                "text": {"preview_url": True, "body": text}}
        outside_transaction("WhatsApp")
        limit = settings.WHATSAPP_TIMEOUT  # for the whole answer, however slowly it comes (shop.outbound)
        try:
            response = call_within(limit, "WhatsApp", requests.post, url, json=body, timeout=limit,
                                   headers={"Authorization": f"Bearer {settings.WHATSAPP_ACCESS_TOKEN}"})
        except (requests.RequestException, DeadlinePassed) as exc:
            raise WhatsAppSendError(f"{type(exc).__name__}: {exc}", service_down=True) from None
        if response.status_code >= 300:
            raise WhatsAppSendError(f"HTTP {response.status_code}: {response.text[:300]}",
                                    service_down=response.status_code >= 500)
        try:
            return str(response.json()["messages"][0]["id"])
        except (ValueError, KeyError, IndexError, TypeError):
            # a 2xx is the service's "taken": sending it again would reach the customer twice
            logger.warning("WhatsApp took a message with an unexpected answer: %s", loggable_text(response.text[:300]))
            return ""


def get_sender() -> ConsoleSender | CloudApiSender:
    return CloudApiSender() if settings.WHATSAPP_BACKEND == "cloud" else ConsoleSender()


# --- the outbox ------------------------------------------------------------

def whatsapp_queue(*, to: str, text: str, language: str = "en") -> OutboundWhatsApp:
    """Store one message to `to` (digits with country code) and deliver it after the commit."""
    message = OutboundWhatsApp.objects.create(to=to, text=text, language=language)
    transaction.on_commit(partial(_deliver_soon, message.pk))
    return message


def _deliver_soon(message_id: int) -> None:
    # by dotted path: shop.tasks imports this module; a message not queued is stored, the beat sweep sends it
    if not enqueue("shop.tasks.whatsapp_deliver_task", message_id):
        logger.warning("could not queue WhatsApp message %s; the sweep will send it", message_id)


def _due(now: datetime) -> Q:
    return Q(status=S.QUEUED, next_attempt_at__lte=now) | Q(lapsed_claim(now), attempts__lt=settings.EMAIL_MAX_ATTEMPTS)


def whatsapp_deliver(*, message_id: int) -> bool:
    """Send message `message_id` if it is due and nobody else holds it; return whether it went. A
    WhatsAppSendError with `service_down` is raised on, after the message is put back to try later."""
    now = timezone.now()
    claimed = OutboundWhatsApp.objects.filter(_due(now), pk=message_id).update(
        status=S.SENDING, attempts=F("attempts") + 1, last_attempt_at=now, locked_until=now + SEND_LEASE)
    if not claimed:
        return False
    message = OutboundWhatsApp.objects.get(pk=message_id)
    try:
        provider_id = get_sender().send(to=message.to, text=message.text)
    except Exception as error:  # the provider, the network or the message: try again later
        gave_up = message.attempts >= settings.EMAIL_MAX_ATTEMPTS
        OutboundWhatsApp.objects.filter(pk=message.pk).update(
            status=S.FAILED if gave_up else S.QUEUED, next_attempt_at=timezone.now() + retry_wait(message.attempts),
            locked_until=None, last_error=str(error)[:ERROR_MAX])
        logger.warning("WhatsApp message %s to %s failed (attempt %s%s): %s", message.pk, loggable_phone(message.to),
                       message.attempts, ", given up" if gave_up else "", loggable_text(error))
        if getattr(error, "service_down", False):
            raise
        return False
    OutboundWhatsApp.objects.filter(pk=message.pk).update(
        status=S.SENT, sent_at=timezone.now(), locked_until=None, last_error="", provider_id=str(provider_id)[:200])
    return True


def whatsapp_send_due(*, limit: int = 200, budget: timedelta = SWEEP_BUDGET) -> int:
    """Send up to `limit` due messages, oldest first; return how many went out.

    As the e-mail sweep (shop.outbox): it stops when the service itself fails (down, hanging) or after
    `budget`, rather than wait out a timeout per message while beat starts another sweep every minute.
    The rest stay due for a later sweep.
    """
    started = time.monotonic()
    lapsed_give_up(OutboundWhatsApp, timezone.now())
    due = (OutboundWhatsApp.objects.filter(_due(timezone.now())).order_by("next_attempt_at", "pk")
           .values_list("pk", flat=True)[:limit])
    sent = 0
    for pk in list(due):
        try:
            sent += whatsapp_deliver(message_id=pk)
        except WhatsAppSendError:
            break
        if time.monotonic() - started > budget.total_seconds():
            break
    return sent
