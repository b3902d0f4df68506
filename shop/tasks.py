import logging

from celery import shared_task
from django.utils import timezone

from shop.models import Heartbeat
from shop.outbox import outbox_deliver, outbox_prune, outbox_send_due

log = logging.getLogger(__name__)


@shared_task
def heartbeat():
    """Record that a worker is consuming the queue (beat sends this every minute)."""
    Heartbeat.objects.update_or_create(name="worker", defaults={"seen_at": timezone.now()})


def enqueue(task, *args, **kwargs):
    """Queue a Celery job; when the broker cannot be reached, log it and return False.

    A request must never fail (or hang) because the queue is down: callers
    decide how the work is recovered (a periodic job, a retry by staff).
    """
    from kombu.exceptions import OperationalError

    try:
        task.apply_async(args=args, kwargs=kwargs)
    except OperationalError as exc:
        log.error("Could not queue %s: %s", task.name, exc)
        return False
    return True


@shared_task(ignore_result=True)
def outbox_deliver_task(email_id):
    """Send one e-mail just queued (shop.mail.mail_queue asks for this after the commit)."""
    outbox_deliver(email_id=email_id)


@shared_task(ignore_result=True)
def outbox_send_due_task():
    """Send every e-mail that is due: retries, and mail whose own task never got queued."""
    return outbox_send_due()


@shared_task(ignore_result=True)
def outbox_prune_task():
    """Forget e-mails sent more than 30 days ago (beat, daily)."""
    return outbox_prune()
