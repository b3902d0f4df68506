"""The Celery app: broker from REDIS_URL, else the embedded filesystem broker."""

import logging.config
import os
import sys

from celery import Celery, Task
from celery.schedules import crontab
from celery.signals import setup_logging
from django.conf import settings

from shop.config import run_or_explain
from shop.store_time import store_time_active

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings")
PROJECT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class StoreTimeTask(Task):
    """A job shows dates and times in the store's zone, as a request does (shop.store_time): the e-mails it
    renders. One read of the store settings per job (from the shared cache; a job inside a request, run
    eagerly, has them already)."""

    def __call__(self, *args, **kwargs):
        with store_time_active():
            return super().__call__(*args, **kwargs)


# Celery's Django fixup puts the working directory first on sys.path as the app is made: a worker started in
# the project's directory imports the apps from there after `celery -A shop` has taken its own insertion off.
# Run from an app's directory, as makemessages is for the app's own catalogue (`make po`), that directory put
# first made `backoffice/orders.py` hide the orders app; only the project's directory is kept there.
_path = list(sys.path)
app = Celery("shop", task_cls=StoreTimeTask)
if sys.path[1:] == _path and os.path.realpath(sys.path[0]) != os.path.realpath(PROJECT_DIR):
    del sys.path[0]
run_or_explain(lambda: app.config_from_object("django.conf:settings", namespace="CELERY"))
app.autodiscover_tasks()


@setup_logging.connect
def _shop_logging(**kwargs) -> None:
    """The worker and beat log like the web (settings.LOGGING: JSON lines, request ids, masked tokens).
    With no receiver of this signal Celery puts its own plain format on the root logger instead."""
    logging.config.dictConfig(settings.LOGGING)


def _every(seconds: float, task: str) -> dict:
    """A job beat queues every `seconds`. A tick no worker took before the next one is dropped (`expires`):
    after a worker outage the backlog is one tick, not one per tick missed (hundreds of sweeps, each
    waiting out a mail server's timeout, ahead of the real work)."""
    return {"task": task, "schedule": float(seconds), "options": {"expires": float(seconds)}}


# Periodic jobs. Each app's task decides for itself whether there is work.
app.conf.beat_schedule = {
    "worker-heartbeat": _every(60.0, "shop.tasks.heartbeat"),
    # hourly; the stored rate is only re-fetched once it is 6 hours old
    "exchange-rate-refresh": _every(3600.0, "importer.tasks.rates_refresh_task"),
    # hourly; crawls only with autoImport on, once every refreshInterval hours
    "importer-auto-import": _every(3600.0, "importer.tasks.auto_import_tick"),
    # crawls whose worker died, stored as failed (the panel's polls only show them so)
    "importer-dead-runs": _every(600.0, "importer.tasks.runs_end_dead_task"),
    "orders-expire-unpaid": _every(300.0, "orders.tasks.orders_expire_unpaid"),
    # e-mail retries, and mail whose delivery task could not be queued (broker down)
    "outbox-send-due": _every(60.0, "shop.tasks.outbox_send_due_task"),
    "outbox-prune": _every(86400.0, "shop.tasks.outbox_prune_task"),
    # expired sessions and API tokens (Django deletes neither by itself)
    "sign-ins-prune": _every(86400.0, "accounts.tasks.sign_ins_prune_task"),
    # abandoned-cart reminders: one job per due cart (orders/reminders.py)
    "cart-reminders": _every(900.0, "orders.tasks.cart_reminders_task"),
    # back-in-stock e-mails a missed stock hook left behind
    "stock-alerts-sweep": _every(3600.0, "catalog.tasks.stock_alerts_sweep_task"),
    # WhatsApp messages: retries, and messages whose delivery task could not be queued
    "whatsapp-send-due": _every(60.0, "shop.tasks.whatsapp_send_due_task"),
    # every hour on the hour: the job sends from 07:00 in the store's zone (a setting; beat's zone,
    # CELERY_TIMEZONE, is fixed), at most once a store day
    "daily-summary": {"task": "backoffice.tasks.daily_summary_task", "schedule": crontab(minute=0),
                      "options": {"expires": 3600.0}},
}

