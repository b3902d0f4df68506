from celery import shared_task
from django.utils import timezone

from shop.models import Heartbeat
from shop.outbox import outbox_deliver, outbox_prune, outbox_send_due


@shared_task
def heartbeat():
    """Record that a worker is consuming the queue (beat sends this every minute)."""
    Heartbeat.objects.update_or_create(name="worker", defaults={"seen_at": timezone.now()})


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
