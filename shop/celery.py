"""The Celery app: broker from REDIS_URL, else the embedded filesystem broker."""

import os

from celery import Celery
from celery.schedules import crontab

from shop.config import run_or_explain

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings")

app = Celery("shop")
run_or_explain(lambda: app.config_from_object("django.conf:settings", namespace="CELERY"))
app.autodiscover_tasks()

# Periodic jobs. Each app's task decides for itself whether there is work.
app.conf.beat_schedule = {
    "worker-heartbeat": {"task": "shop.tasks.heartbeat", "schedule": 60.0},
    # hourly; the stored rate is only re-fetched once it is 6 hours old
    "exchange-rate-refresh": {"task": "importer.tasks.rates_refresh_task", "schedule": 3600.0},
    # hourly; crawls only with autoImport on, once every refreshInterval hours
    "importer-auto-import": {"task": "importer.tasks.auto_import_tick", "schedule": 3600.0},
    "orders-expire-unpaid": {"task": "orders.tasks.orders_expire_unpaid", "schedule": 300.0},
    # e-mail retries, and mail whose delivery task could not be queued (broker down)
    "outbox-send-due": {"task": "shop.tasks.outbox_send_due_task", "schedule": 60.0},
    "outbox-prune": {"task": "shop.tasks.outbox_prune_task", "schedule": 86400.0},
    # abandoned-cart reminders: one job per due cart (orders/reminders.py)
    "cart-reminders": {"task": "orders.tasks.cart_reminders_task", "schedule": 900.0},
    # back-in-stock e-mails a missed stock hook left behind
    "stock-alerts-sweep": {"task": "catalog.tasks.stock_alerts_sweep_task", "schedule": 3600.0},
    # WhatsApp messages: retries, and messages whose delivery task could not be queued
    "whatsapp-send-due": {"task": "shop.tasks.whatsapp_send_due_task", "schedule": 60.0},
    # 07:00 Cairo time (CELERY_TIMEZONE); the job itself sends at most once a day
    "daily-summary": {"task": "backoffice.tasks.daily_summary_task", "schedule": crontab(hour=7, minute=0)},
}

