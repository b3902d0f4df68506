"""Importer reads shared by the API, the panel page and the command."""

from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from importer.crawl_errors import crawl_error_text
from importer.models import SHOP_ERRORS, ExternalProduct, ImporterRun, RunFailure
from shop.mail import isolate


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
        "errors": [crawl_error_text(error) for error in run.errors],  # in the reader's language
        "error_count": len(run.errors),
        "error": run_error(run),
        "failure": run.failure,
        "percent": min(100, percent),
        "elapsed_seconds": round(elapsed, 1),
        "cancel_requested": run.cancel_requested,
        "started_at": run.started_at,
        "finished_at": run.finished_at,
        "finished": finished,
    }


def run_error(run: ImporterRun, *, isolated: bool = False) -> str:
    """Why `run` failed, in the active language: a failure the importer names (RunFailure, a dead worker) is
    told in words, a refused address or failed page in the words of importer.crawl_errors, any other (a crash)
    is its stored error; with `isolated` wrapped in its own direction for a sentence around it (an Arabic
    e-mail, the API's error). The one place that knows which errors are worded."""
    url = isolate(run.base_url)
    kept = _("Nothing is called gone, and the products found before are kept.")
    if run.failure == RunFailure.UNREACHABLE:
        return _("The producer's site %(url)s could not be read: every page failed (%(error)s).") % {
            "url": url, "error": crawl_error_text(run.errors[0], isolated=True) if run.errors else ""}
    if run.failure == RunFailure.NO_PRODUCTS:
        return " ".join([_("The producer's site %(url)s answered, but no products were found on it (a maintenance "
                           "page, an empty listing or a changed layout?).") % {"url": url}, kept])
    if run.failure == RunFailure.TOO_FEW:
        return " ".join([_("Too few products found on %(url)s: %(found)s, against %(before)s in the last complete "
                           "crawl (fewer than half: a maintenance page, an emptied listing or a changed layout?).")
                         % {"url": url, "found": run.products_found, "before": run.products_before}, kept])
    if run.error in SHOP_ERRORS:
        return _(run.error)
    return crawl_error_text(run.error, isolated=isolated)  # a refused base URL is worded; a crash is as it is
