from celery import shared_task
from django.utils import timezone

from shop.models import Heartbeat


@shared_task
def heartbeat():
    """Record that a worker is consuming the queue (beat sends this every minute)."""
    Heartbeat.objects.update_or_create(name="worker", defaults={"seen_at": timezone.now()})
