"""Checks behind /healthz and the dashboard's system status."""

import uuid
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from shop.celery import app
from shop.models import Heartbeat, OutboundEmail, OutboundWhatsApp
from shop.outbox import outbox_failed_count, outbox_late_count
from shop.queue import broker_answered, broker_failed, broker_resting


def database_ok():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return True
    except Exception:
        return False


def cache_ok():
    """Return whether the shared cache stores and returns a value (a Redis outage reads as a miss)."""
    key, value = "healthz:probe", uuid.uuid4().hex
    try:
        cache.set(key, value, 30)
        return cache.get(key) == value
    except Exception:
        return False


def broker_ok():
    """Return whether the Celery broker accepts connections, waiting at most about a second for it; down
    without asking while requests rest from it (shop.queue: it failed in this process moments ago)."""
    if broker_resting():
        return False
    try:
        with app.connection_for_write(transport_options={"socket_connect_timeout": 1, "socket_timeout": 1}) as conn:
            conn.ensure_connection(max_retries=0, timeout=2)
    except Exception:
        broker_failed()
        return False
    broker_answered()
    return True


def worker_seen_recently(*, within=timedelta(minutes=3)):

    beat = Heartbeat.objects.filter(name="worker").first()
    return bool(beat and beat.seen_at >= timezone.now() - within), beat.seen_at if beat else None


# each outbox /healthz reports, by its key there: messages a customer waits for
OUTBOXES = {"outbox": OutboundEmail, "whatsapp": OutboundWhatsApp}


def outbox_counts(model=OutboundEmail):
    """(messages late, messages given up) in the outbox `model`: not taken for LATE_AFTER, and failed."""
    return outbox_late_count(model), outbox_failed_count(model)


def broker_description():
    return "redis" if settings.REDIS_URL else "filesystem"
