import logging
from datetime import timedelta

from celery import shared_task
from celery.signals import task_failure
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from shop.models import FailedJob, Heartbeat
from shop.outbox import outbox_deliver, outbox_prune, outbox_send_due
from shop.whatsapp import WhatsAppSendError, whatsapp_deliver, whatsapp_send_due

log = logging.getLogger(__name__)


@shared_task
def heartbeat():
    """Record that a worker is consuming the queue (beat sends this every minute)."""
    Heartbeat.objects.update_or_create(name="worker", defaults={"seen_at": timezone.now()})


def failed_job_record(*, task, task_id="", error=None):
    """Remember a job that ended in an error; never raises (it runs inside Celery's failure signal)."""
    try:
        FailedJob.objects.create(task=task[:200], task_id=(task_id or "")[:64],
                                 error=f"{type(error).__name__}: {error}"[:2000] if error else "")
    except Exception:  # the database may be why the job failed
        log.exception("Could not record the failed job %s", task)


@task_failure.connect
def _record_failed_job(sender=None, task_id=None, exception=None, **kwargs):
    """Keep a row per failed job for the dashboard's overview (the worker's log has the traceback).

    Connected here, not in shop.celery: that module loads before Django's models can."""
    failed_job_record(task=getattr(sender, "name", str(sender)), task_id=task_id or "", error=exception)


# what each background job does, in the words the overview's failed-jobs list shows staff (by the task's function
# name: the module part moves when code does); the task's dotted name and its error stay only as the detail
JOB_LABELS = {
    "stock_changed_task": gettext_noop("Stock alert after a stock change"),
    "stock_alerts_sweep_task": gettext_noop("Low-stock alerts"),
    "orders_expire_unpaid": gettext_noop("Releasing stock of unpaid orders"),
    "cart_reminders_task": gettext_noop("Abandoned cart reminders"),
    "cart_reminder_send_task": gettext_noop("Sending a cart reminder"),
    "heartbeat": gettext_noop("Background worker check"),
    "outbox_deliver_task": gettext_noop("Sending an e-mail"),
    "outbox_send_due_task": gettext_noop("Sending queued e-mails"),
    "outbox_prune_task": gettext_noop("Clearing old sent e-mails"),
    "whatsapp_deliver_task": gettext_noop("Sending a WhatsApp message"),
    "whatsapp_send_due_task": gettext_noop("Sending queued WhatsApp messages"),
    "daily_summary_task": gettext_noop("Daily summary e-mail"),
    "crawl_run_task": gettext_noop("Reading the producer's site (importer)"),
    "rates_refresh_task": gettext_noop("Exchange rate update"),
    "runs_end_dead_task": gettext_noop("Ending importer runs whose worker stopped"),
    "auto_import_tick": gettext_noop("Scheduled product import"),
    "sign_ins_prune_task": gettext_noop("Clearing old sign-in records"),
}


def failed_job_label(task: str) -> str:
    """What the job named `task` (Celery's dotted name) does, in the active language."""
    label = JOB_LABELS.get(task.rpartition(".")[2])
    return _(label) if label else _("A background job")


def failed_jobs_recent(*, days=7, limit=10):
    """How many jobs failed in the last `days`, and the latest of them."""
    recent = FailedJob.objects.filter(failed_at__gte=timezone.now() - timedelta(days=days))
    return recent.count(), list(recent[:limit])


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


@shared_task(ignore_result=True)
def whatsapp_deliver_task(message_id):
    """Send one WhatsApp message just queued (shop.whatsapp.whatsapp_queue asks for this after the commit)."""
    try:
        whatsapp_deliver(message_id=message_id)
    except WhatsAppSendError:  # the service is down: the message waits for the sweep, not a failed job
        pass


@shared_task(ignore_result=True)
def whatsapp_send_due_task():
    """Send every WhatsApp message that is due: retries, and messages whose task never got queued."""
    return whatsapp_send_due()
