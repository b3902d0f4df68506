"""Celery jobs: a crawl, the rate refresh, and the auto-import tick beat sends."""

import logging

from celery import shared_task

from importer import services, sync
from importer.models import RunStatus
from shop.queue import enqueue
from shop.rates import rates_refresh

log = logging.getLogger(__name__)


@shared_task
def crawl_run_task(run_id, scheduled=False):
    """Crawl the producer's site for one ImporterRun (progress is saved on the run).

    A scheduled run then refreshes the imported products and mails the Owner
    (importer.sync.scheduled_update); it never creates or deactivates products. A scheduled run that
    failed tells the Owners, once for a series of failures, and the next that works says so (a crawl
    staff started mails nobody: they watch it end)."""

    run = services.run_crawl(run_id=run_id)
    if scheduled and run.status == RunStatus.FAILED:
        sync.scheduled_failure_tell(run=run)
    if scheduled and run.status == RunStatus.DONE:
        sync.scheduled_recovery_tell(run=run)
        summary = sync.scheduled_update(run=run)
        log.info("importer: scheduled import updated %s, %s new, %s gone",
                 len(summary.updated), len(summary.new), len(summary.gone))
    return run.status


@shared_task
def rates_refresh_task(force=False):
    """Refresh KES→EGP from the provider chain (a fresh stored rate is kept as it is)."""

    result = rates_refresh("KES", "EGP", force=force)
    return str(result.rate.rate)


@shared_task
def runs_end_dead_task():
    """Store as failed the crawls whose worker died (the panel already shows them ended), and tell the Owners
    when that began a series of scheduled failures."""

    services.runs_end_dead()
    sync.scheduled_dead_tell()


@shared_task
def auto_import_tick():
    """With autoImport on, crawl once every refreshInterval hours and refresh imported products."""

    outcome, run = services.scheduled_run_claim()
    if run is None:
        return outcome
    if not enqueue(crawl_run_task, run.pk, scheduled=True, fail_fast=False):
        run.delete()  # not a run that happened: the next hourly tick tries again
        return "queue down"
    return outcome
