import logging

from celery import shared_task
from django.utils import timezone

from shop.models import Heartbeat

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
