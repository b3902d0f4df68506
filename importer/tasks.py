"""Celery jobs: a crawl, the rate refresh, and the auto-import tick beat sends."""

import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from importer.models import ImporterRun, RunStatus

log = logging.getLogger(__name__)


@shared_task
def crawl_run_task(run_id, import_after=False):
    """Crawl the producer's site for one ImporterRun (progress is saved on the run)."""
    from importer import services

    run = services.run_crawl(run_id=run_id)
    if import_after and run.status == RunStatus.DONE:
        result = services.products_import(external_products=list(run.products.all()))
        log.info("importer: auto-import created %s, updated %s", len(result.created), len(result.updated))
    return run.status


@shared_task
def rates_refresh_task(force=False):
    """Refresh KES→EGP from the provider chain (a fresh stored rate is kept as it is)."""
    from shop.rates import rates_refresh

    result = rates_refresh("KES", "EGP", force=force)
    return str(result.rate.rate)


@shared_task
def auto_import_tick():
    """With autoImport on, crawl and import once every refreshInterval hours."""
    from importer import services
    from shop.store_settings import store_settings_get

    store = store_settings_get()
    if not (store.external_enabled and store.external_auto_import):
        return "off"
    last = ImporterRun.objects.order_by("-created_at").first()
    hours = store.external_refresh_interval or 24
    if last is not None and timezone.now() - last.created_at < timedelta(hours=hours):
        return "not due"
    if services.run_active():
        return "busy"
    run = ImporterRun.objects.create(base_url=services.importer_config()["base_url"], max_pages=services.DEFAULT_PAGES)
    crawl_run_task.delay(run.pk, import_after=True)
    return "started"
