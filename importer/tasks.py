"""Celery jobs: a crawl, the rate refresh, and the auto-import tick beat sends."""

import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from importer import services, sync
from importer.models import ImporterRun, RunStatus
from shop.queue import enqueue
from shop.rates import rates_refresh
from shop.store_settings import store_settings_get

log = logging.getLogger(__name__)


@shared_task
def crawl_run_task(run_id, scheduled=False):
    """Crawl the producer's site for one ImporterRun (progress is saved on the run).

    A scheduled run then refreshes the imported products and mails the Owner
    (importer.sync.scheduled_update); it never creates or deactivates products."""

    run = services.run_crawl(run_id=run_id)
    if scheduled and run.status == RunStatus.DONE:
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
def auto_import_tick():
    """With autoImport on, crawl once every refreshInterval hours and refresh imported products."""

    store = store_settings_get()
    if not (store.external_enabled and store.external_auto_import):
        return "off"
    # the last scheduled run that read the site (started by nobody): a crawl staff start to look at the
    # preview refreshes no price, and a failed one is tried again on the next tick
    last = ImporterRun.objects.filter(started_by=None, status=RunStatus.DONE).order_by("-created_at").first()
    hours = store.external_refresh_interval or 24
    if last is not None and timezone.now() - last.created_at < timedelta(hours=hours):
        return "not due"
    if services.run_active():
        return "busy"
    # the whole site, so that every imported product is refreshed and a product not found is truly gone
    run = ImporterRun.objects.create(base_url=services.importer_config()["base_url"], max_pages=services.MAX_PAGES)
    if not enqueue(crawl_run_task, run.pk, scheduled=True, fail_fast=False):
        run.delete()  # not a run that happened: the next hourly tick tries again
        return "queue down"
    return "started"
