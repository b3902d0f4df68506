"""Importer reads shared by the API, the panel page and the command."""

from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from importer.models import ExternalProduct, ImporterRun


def external_product_list() -> QuerySet[ExternalProduct]:
    return ExternalProduct.objects.order_by("pk")


def run_latest() -> ImporterRun | None:
    return ImporterRun.objects.order_by("-created_at").first()


def run_progress(run: ImporterRun | None) -> dict[str, Any] | None:
    """The live progress the panel draws: pages fetched of planned, products, errors, elapsed."""
    if run is None:
        return None
    run = run.as_seen()  # a dead run shows failed, before the sweep stores it so
    end = run.finished_at or timezone.now()
    elapsed = (end - run.started_at).total_seconds() if run.started_at else 0.0
    planned = max(run.pages_planned, run.pages_fetched)
    finished = run.status in ("done", "failed", "cancelled")
    if finished and run.status == "done":
        percent = 100
    else:
        percent = int(run.pages_fetched * 100 / planned) if planned else 0
    return {
        "id": run.pk,
        "status": run.status,
        "base_url": run.base_url,
        "max_pages": run.max_pages,
        "pages_planned": planned,
        "pages_fetched": run.pages_fetched,
        "products_found": run.products_found,
        "errors": run.errors,
        "error_count": len(run.errors),
        "error": run.error,
        "percent": min(100, percent),
        "elapsed_seconds": round(elapsed, 1),
        "cancel_requested": run.cancel_requested,
        "started_at": run.started_at,
        "finished_at": run.finished_at,
        "finished": finished,
    }
