"""Checks behind /healthz and the dashboard's system status."""

from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone


def database_ok():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return True
    except Exception:
        return False


def broker_ok():
    """Return whether the Celery broker accepts connections."""
    from shop.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return True
    except Exception:
        return False


def worker_seen_recently(*, within=timedelta(minutes=3)):
    from shop.models import Heartbeat

    beat = Heartbeat.objects.filter(name="worker").first()
    return bool(beat and beat.seen_at >= timezone.now() - within), beat.seen_at if beat else None


def broker_description():
    return "redis" if settings.REDIS_URL else "filesystem"
