"""Importer writes: start, run and cancel a crawl; keep its results; import them into the shop."""

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit

from django.db import OperationalError, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from backoffice import audit_texts as texts
from backoffice.audit import audit_record
from backoffice.audit_texts import audit_text
from catalog.glossary import arabic_words
from catalog.media import (
    IMAGE_CONTENT_TYPES,
    IMPORT_FOLDER,
    MAX_IMAGE_BYTES,
    ImageNotStored,
    ImageRejected,
    image_save,
    image_stored,
)
from catalog.models import Product
from catalog.products import product_create, product_update
from importer.categorize import caffeine_for, categorize, describe
from importer.crawler import DEFAULT_PAGES, MAX_PAGES, MIN_PAGES, Crawl, CrawlResult, Progress
from importer.fetch import FetchError, PoliteSession, check_url
from importer.models import (
    DEAD_ERROR,
    QUEUE_ERROR,
    STALE_AFTER,
    ExternalProduct,
    ImportedProduct,
    ImporterRun,
    PriceReason,
    RunFailure,
    RunStatus,
)
from importer.pricing import EGP_LIMIT, import_price
from importer.records import import_state, price_record, prices_for
from importer.selectors import run_error
from shop.errors import ShopError
from shop.mail import isolate
from shop.models import StoreSettings
from shop.queue import enqueue
from shop.rates import kes_egp_rate, rate_status, rates_refresh
from shop.store_settings import store_settings_get

log = logging.getLogger(__name__)

NEW_STOCK = 50
FEATURED_COUNT = 3
SHORT_DESCRIPTION = 100
BREWING_EN = "Use 1 teaspoon (or 1 tea bag) per 200 ml of water at 95°C and steep for 3 to 5 minutes."
BREWING_AR = "استخدم ملعقة صغيرة واحدة (أو كيس شاي واحد) لكل 200 مل من الماء بدرجة 95 مئوية، واتركه 3 إلى 5 دقائق."
ACTIVE = (RunStatus.QUEUED, RunStatus.RUNNING)
# a crawl that read every page it found but found fewer than this share of the products the last good crawl of
# the site found (when that found at least SHRINK_MIN_BEFORE) failed: a maintenance page, an emptied listing or a
# changed layout, not a catalogue halved overnight (staff confirm a real one: run_start(accept_fewer=True))
SHRINK_SHARE = Decimal("0.5")
SHRINK_MIN_BEFORE = 4


class ImporterError(ShopError):
    """A request the importer cannot carry out; the message is for the operator."""


# -- configuration and cache ----------------------------------------------------


def importer_config() -> dict[str, Any]:
    """The importer configuration (spec 3), from store settings and the stored rate."""
    store = store_settings_get()
    rate = kes_egp_rate()
    status = rate_status("KES", "EGP")
    return {
        "enabled": store.external_enabled,
        "base_url": store.importer_base_url,
        "refresh_interval": store.external_refresh_interval,
        "auto_import": store.external_auto_import,
        "markup": store.importer_markup,
        "exchange_rate": rate.rate,
        "rate_source": rate.source,
        "rate_is_fallback": rate.is_fallback,
        "rate_is_stale": status.is_stale,
        "rate_refused": status.refused_rate,
        "rate_refused_percent": status.refused_percent,
        "rate_updated": rate.last_updated,
        "last_fetch": cache_timestamp(),
    }


def cache_timestamp() -> datetime | None:
    newest = ExternalProduct.objects.order_by("-fetched_at").values_list("fetched_at", flat=True).first()
    return newest


def cache_is_fresh() -> bool:
    stamp = cache_timestamp()
    hours = store_settings_get().external_refresh_interval or 24
    return stamp is not None and timezone.now() - stamp < timedelta(hours=hours)


def cache_clear(*, actor: User | None = None) -> int:
    """Forget the cached crawl results (imported shop products stay); staff's clear is audited."""
    with transaction.atomic():
        deleted, _detail = ExternalProduct.objects.all().delete()
        if actor is not None:
            audit_record(actor=actor, action="importer.cache_clear", details=str(deleted))
    return deleted


def egp_price(kes: Decimal | float, *, config: dict[str, Any] | None = None) -> Decimal:
    config = config or importer_config()
    return import_price(kes=kes, rate=config["exchange_rate"], markup=config["markup"])


def category_for(item: ExternalProduct, *, config: dict[str, Any] | None = None) -> str:
    """The shop category an external product gets on import."""
    price = egp_price(item.price, config=config)
    return categorize(name=item.name, description=item.description, price=price,
                      source_category=item.category).category


# -- runs -----------------------------------------------------------------------


def _refusal_text(exc: FetchError) -> str:
    """Why an address is refused, in the reader's language (the English detail stays in the logs)."""
    if exc.refused == "private":
        return _("it is on a private network, not the internet")
    if exc.refused == "unknown":
        return _("its host name could not be found")
    return _("it is not a web address like https://producer.example/shop")


def base_url_check(base_url: str) -> None:
    """Refuse a producer address the importer must not reach (the settings API's field)."""
    try:
        check_url(base_url)
    except FetchError as exc:
        raise ImporterError(_("The producer site address is not allowed: %(reason)s")
                            % {"reason": _refusal_text(exc)}, field="external_products.base_url") from exc


def _dead() -> Q:
    """The runs whose worker died (ImporterRun.is_dead, asked of the database)."""
    cutoff = timezone.now() - STALE_AFTER
    return Q(status=RunStatus.RUNNING, started_at__lt=cutoff) | Q(status=RunStatus.QUEUED, created_at__lt=cutoff)


def run_active() -> ImporterRun | None:
    return ImporterRun.objects.filter(status__in=ACTIVE).exclude(_dead()).first()


def runs_end_dead() -> None:
    """Store as failed the runs whose worker died (see STALE_AFTER).

    Swept where it matters: when a run is about to start (run_start, scheduled_run_claim, run_crawl) and by
    beat every few minutes (importer.tasks.runs_end_dead_task); never on the panel's polls, which show a
    dead run as ended without writing (ImporterRun.as_seen). Read first: on SQLite even an UPDATE that
    changes nothing waits for the write lock."""
    dead = ImporterRun.objects.filter(_dead())
    if dead.exists():
        dead.update(status=RunStatus.FAILED, error=DEAD_ERROR, finished_at=timezone.now())


def run_start(*, user: User | None = None, base_url: str | None = None, max_pages: int = DEFAULT_PAGES,
              accept_fewer: bool = False) -> ImporterRun:
    """Queue a crawl of the producer's site; the Celery task does the work. With `accept_fewer` staff confirm
    the producer really lists far fewer products than the last good crawl found (SHRINK_SHARE)."""
    with transaction.atomic():
        run = run_open(user=user, base_url=base_url, max_pages=max_pages, accept_fewer=accept_fewer)
        transaction.on_commit(lambda: dispatch(run.pk))
    run.refresh_from_db()
    return run


def run_open(*, user: User | None = None, base_url: str | None = None, max_pages: int = DEFAULT_PAGES,
             accept_fewer: bool = False, by_command: bool = False) -> ImporterRun:
    """A new queued run, refused as run_start refuses one (a bad page count or address, a crawl running);
    nothing runs it: run_start queues it, an operator's command (`by_command`) crawls it in its own process."""
    try:
        max_pages = int(max_pages)
    except (TypeError, ValueError):
        raise ImporterError(_("Max pages must be a whole number from 1 to 100.")) from None
    if not MIN_PAGES <= max_pages <= MAX_PAGES:
        raise ImporterError(_("Max pages must be a whole number from 1 to 100."))
    base_url = (base_url or importer_config()["base_url"]).strip()
    base_url_check(base_url)
    with transaction.atomic():
        _runs_lock()
        run_none_active()
        run = ImporterRun.objects.create(base_url=base_url, max_pages=max_pages, started_by=user,
                                         accept_fewer=bool(accept_fewer), by_command=by_command)
        if user is not None:  # staff's crawl; the scheduled one starts without a user
            audit_record(actor=user, action="importer.crawl_start", target=run,
                         details=audit_text(texts.CRAWL_FEWER_ACCEPTED, url=base_url, pages=max_pages)
                         if accept_fewer else f"{base_url} ({max_pages})")
    return run


def run_none_active() -> None:
    """Refuse (409) while a crawl runs, a dead one ended first: one crawl of the producer's site at a time.
    run_open asks it under _runs_lock; an operator's dry run asks it alone (it opens no run: see its command)."""
    runs_end_dead()
    if run_active():
        raise ImporterError(_("A crawl is already running."), status=409)


def _runs_lock() -> None:
    """Inside a transaction, wait for any other process deciding to start a run, so that of two at once
    (a staff click and the schedule, two ticks from beat's backlog) one starts and the other finds it
    active. PostgreSQL: the store settings row's lock; SQLite: the IMMEDIATE transaction's write lock."""
    StoreSettings.objects.select_for_update().filter(pk=store_settings_get().pk).values_list("pk").first()


def scheduled_run_claim() -> tuple[str, ImporterRun | None]:
    """The auto-import's decision, taken once however many ticks ask at once: ("started", the new run),
    or ("off" | "not due" | "busy", None).

    Due once every refreshInterval hours after the last scheduled run that read the site
    (ImporterRun.objects.scheduled()): a crawl staff start to look at the preview, or an operator's command,
    does not count, and a failed one is tried again on the next tick."""
    store = store_settings_get()
    if not (store.external_enabled and store.external_auto_import):
        return "off", None
    with transaction.atomic():
        _runs_lock()
        last = ImporterRun.objects.scheduled().filter(status=RunStatus.DONE).order_by("-created_at").first()
        hours = store.external_refresh_interval or 24
        if last is not None and timezone.now() - last.created_at < timedelta(hours=hours):
            return "not due", None
        runs_end_dead()
        if run_active():
            return "busy", None
        # the whole site, so that every imported product is refreshed and a product not found is truly gone
        return "started", ImporterRun.objects.create(base_url=importer_config()["base_url"], max_pages=MAX_PAGES)


def dispatch(run_id: int) -> None:
    """Hand a run to Celery (tests may replace this to run it in a thread).

    When the queue is unreachable the run fails at once with a reason staff
    can read, instead of blocking every later crawl as "already running".
    """

    if not enqueue("importer.tasks.crawl_run_task", run_id):
        ImporterRun.objects.filter(pk=run_id, status__in=ACTIVE).update(
            status=RunStatus.FAILED, error=QUEUE_ERROR,
            finished_at=timezone.now(),
        )


def run_cancel(*, run: ImporterRun, actor: User | None = None) -> ImporterRun:
    """Ask a running crawl to stop after the page it is fetching."""
    with transaction.atomic():
        asked = ImporterRun.objects.filter(pk=run.pk, status__in=ACTIVE, cancel_requested=False).update(
            cancel_requested=True)
        if asked and actor is not None:
            audit_record(actor=actor, action="importer.crawl_cancel", details=run.base_url, target=run)
    run.refresh_from_db()
    return run


def run_crawl(*, run_id: int, session: PoliteSession | None = None,
              on_progress: Callable[[Progress], None] | None = None) -> ImporterRun:
    """Crawl for one run, saving progress as it goes (and telling `on_progress`, an operator's command's
    progress bar); keep what was found, unless the crawl failed (_failure)."""
    run = ImporterRun.objects.get(pk=run_id)
    if run.status not in ACTIVE:
        return run
    if run.cancel_requested:
        ImporterRun.objects.filter(pk=run.pk).update(status=RunStatus.CANCELLED, finished_at=timezone.now())
        return ImporterRun.objects.get(pk=run.pk)
    # claimed once: the same job delivered again (a worker's late acknowledgement) finds it taken; a run
    # queued for longer than STALE_AFTER is not started, as a later one may have been since (run_active)
    if not ImporterRun.objects.filter(pk=run.pk, status=RunStatus.QUEUED).exclude(_dead()).update(
            status=RunStatus.RUNNING, started_at=timezone.now()):
        runs_end_dead()
        return ImporterRun.objects.get(pk=run.pk)

    def progress_save(progress: Progress) -> None:
        _run_update(run.pk, attempts=1, pages_planned=progress.pages_planned,
                    pages_fetched=progress.pages_fetched, products_found=progress.products_found,
                    errors=progress.errors[-50:])
        if on_progress is not None:
            on_progress(progress)

    def should_cancel() -> bool:
        try:
            return ImporterRun.objects.filter(pk=run.pk, cancel_requested=True).exists()
        except OperationalError:  # busy: ask again after the next page
            return False

    try:
        rates_refresh("KES", "EGP")  # spec 4: refresh the rate, then crawl
        crawl = Crawl(base_url=run.base_url, max_pages=run.max_pages, session=session,
                      on_progress=progress_save, should_cancel=should_cancel)
        result = crawl.run()
    except FetchError as exc:  # the base URL itself was refused
        _run_update(run.pk, status=RunStatus.FAILED, error=str(exc), finished_at=timezone.now())
        return ImporterRun.objects.get(pk=run.pk)
    except Exception as exc:  # never leave a run "running" behind
        return _run_crashed(run, exc)
    error = run_judge(run, result)
    if result.products and not error:
        try:
            _cache_replace_retried(run, result.products)
        except Exception as exc:
            return _run_crashed(run, exc)
    if result.cancelled:
        status = RunStatus.CANCELLED
    elif error:
        status = RunStatus.FAILED
        log.warning("importer: crawl %s failed: %s", run.pk, error)
    else:
        status = RunStatus.DONE
    _run_update(
        run.pk, status=status, error=error, finished_at=timezone.now(), products_found=len(result.products),
        complete=result.complete, unpriced=result.unpriced, failure=run.failure, products_before=run.products_before,
        pages_fetched=result.pages_fetched, errors=result.errors[-50:],
        pages_planned=max(result.pages_fetched, 1) if not result.cancelled else run.max_pages,
    )
    return ImporterRun.objects.get(pk=run.pk)


def last_good_run(base_url: str) -> ImporterRun | None:
    """The last crawl that read the whole of the producer's site at `base_url` (done and complete): what a
    new crawl's count is held to (SHRINK_SHARE), and the "last good run" the Owner's failure e-mail names."""
    url = base_url.strip().rstrip("/")
    return (ImporterRun.objects.filter(status=RunStatus.DONE, complete=True, base_url__in=[url, url + "/"])
            .order_by("-created_at").first())


def run_judge(run: ImporterRun, result: CrawlResult) -> str:
    """Hold a crawl that ran to its end to the rules (_failure): set on `run` (saved or not: a dry run's) its
    failure and counts, and return why it failed in English, kept for the logs, the admin and the operator's
    command (people read run_error in their language); "" when it did not fail."""
    failure, before = _failure(run, result)
    run.failure, run.products_found, run.products_before, run.errors = (
        failure, len(result.products), before, result.errors)
    if not failure:
        return ""
    with translation.override("en"):
        return run_error(run)


def _failure(run: ImporterRun, result: CrawlResult) -> tuple[str, int | None]:
    """Whether a crawl that ran to its end failed (a RunFailure, or ""), and the last good count it was held to.

    A site that answered 200 with no products (a maintenance page, an empty listing, a layout the parsers no
    longer read) or far fewer than the last good crawl found is a failure, not a catalogue: kept, its products
    would make every product it missed look gone."""
    if result.cancelled:
        return "", None
    if not result.products:
        # no page came back (down, timing out, 5xx, refusing us): unreachable; pages came back empty: no products
        down = result.errors and not result.pages_answered
        return (RunFailure.UNREACHABLE if down else RunFailure.NO_PRODUCTS), None
    if result.cut_short or run.accept_fewer:  # a page limit's count says nothing of the site; staff confirmed it
        return "", None
    good = last_good_run(run.base_url)
    before = good.products_found if good is not None else 0
    if before >= SHRINK_MIN_BEFORE and len(result.products) < before * SHRINK_SHARE:
        return RunFailure.TOO_FEW, before
    return "", None


def _run_crashed(run: ImporterRun, exc: Exception) -> ImporterRun:
    """Mark `run` failed with what went wrong (a crash, a time limit, a database that would not take its
    products): never left "running", which would refuse every new crawl for an hour."""
    log.exception("importer: crawl %s crashed", run.pk)
    _run_update(run.pk, status=RunStatus.FAILED, error=f"{exc.__class__.__name__}: {exc}"[:500],
                finished_at=timezone.now())
    return ImporterRun.objects.get(pk=run.pk)


def _cache_replace_retried(run: ImporterRun, products: list[Any]) -> None:
    """cache_replace, tried again a few times while the database is busy."""
    for attempt in range(5):
        try:
            cache_replace(run=run, products=products)
            return
        except OperationalError:
            if attempt == 4:
                raise
            time.sleep(0.2 * (attempt + 1))


def _run_update(pk: int, *, attempts: int = 5, **fields: Any) -> int:
    """Save a run's fields. Progress is best-effort: a busy database skips one update
    (the next page writes again); the final status is retried."""
    for attempt in range(attempts):
        try:
            return ImporterRun.objects.filter(pk=pk).update(**fields)
        except OperationalError:
            if attempt == attempts - 1:
                if attempts == 1:
                    return 0
                raise
            time.sleep(0.2 * (attempt + 1))
    return 0  # attempts=0: nothing was tried


@transaction.atomic
def cache_replace(*, run: ImporterRun, products: list[Any]) -> None:
    """The last crawl's products replace the cache (a partial crawl keeps what it found)."""

    now = timezone.now()
    ExternalProduct.objects.all().delete()
    ExternalProduct.objects.bulk_create([
        ExternalProduct(
            run=run, name=p.name, price=p.price, original_price=p.original_price, currency="KES",
            image=p.image[:1000], description=p.description, source=urlsplit(run.base_url).netloc,
            source_url=p.source_url[:1000], category=p.category[:60], in_stock=p.in_stock is not False,
            fetched_at=now,
        )
        for p in products
    ])


# -- import into the shop --------------------------------------------------------


@dataclass
class ImportResult:
    created: list[Product] = field(default_factory=list)
    updated: list[Product] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def image_import(url: str, *, session: PoliteSession) -> str:
    """Download a product picture and keep it in media storage; return its URL (never hot-linked).

    `session` is the crawl's polite client: pictures wait their turn like pages.
    The picture is named after its address, so a re-import finds it again."""
    digest = hashlib.sha256(url.encode()).hexdigest()[:24]
    stored = image_stored(stem=digest, folder=IMPORT_FOLDER)
    if stored is not None:
        return stored
    body, _content_type = session.download(url, max_bytes=MAX_IMAGE_BYTES, allowed_types=set(IMAGE_CONTENT_TYPES))
    return image_save(body, stem=digest, folder=IMPORT_FOLDER, unique=False)


def external_products_import(*, external_products: list[ExternalProduct] | None = None,
                             user: User | None = None, config: dict[str, Any] | None = None) -> ImportResult:
    """Create or update shop products from the producer's (cached) ones, matched by source URL, priced at
    `config` (importer_config(): the apply passes the one its preview's pricing was checked against)."""
    items = list(external_products if external_products is not None else ExternalProduct.objects.order_by("pk"))
    if not items:
        raise ImporterError(_("No products to save. Please scrape products first."))
    config = config or importer_config()
    result = ImportResult()
    featured_left = FEATURED_COUNT
    session = _picture_session(config["base_url"])
    try:
        for item in items:
            try:
                product, created = _import_one(item, config=config, feature=featured_left > 0, session=session,
                                               user=user)
            except ImporterError as exc:  # this one is left out and staff told why; the others go on
                result.errors.append(str(exc.message))
                continue
            except Exception:  # a write refused (a lock wait, a value): left out whole, named, the others go on
                log.exception("importer: import of %s failed", item.name)
                result.errors.append(_("%(name)s was not imported: an error stopped it; try again.")
                                     % {"name": isolate(item.name)})
                continue
            if created:
                result.created.append(product)
                featured_left -= 1 if product.is_featured else 0
            else:
                result.updated.append(product)
    finally:
        if session is not None:
            session.close()
    return result


def _picture_session(base_url: str) -> PoliteSession | None:
    """The polite client pictures are fetched with (None when the producer address is refused)."""
    try:
        return PoliteSession(base_url=base_url)
    except FetchError as exc:
        log.warning("importer: pictures skipped: %s", exc)
        return None


def _import_one(item: ExternalProduct, *, config: dict[str, Any], feature: bool, session: PoliteSession | None,
                user: User | None) -> tuple[Product, bool]:
    current_egp = egp_price(item.price, config=config)
    if current_egp <= 0:  # a few cents on the page (a typo, a price per gram): never on sale for nothing
        raise ImporterError(_("%(name)s was not imported: its price (%(kes)s KES) makes 0 EGP")
                            % {"name": isolate(item.name), "kes": item.price})
    list_egp = egp_price(item.original_price, config=config) if item.original_price else None
    if max(current_egp, list_egp or 0) >= EGP_LIMIT:  # more than a price column holds: PostgreSQL refuses it
        raise ImporterError(_("%(name)s was not imported: its price (%(kes)s KES) makes more EGP than a price "
                              "can hold") % {"name": isolate(item.name),
                                             "kes": max(item.price, item.original_price or 0)})
    existing = Product.objects.filter(source_url=item.source_url[:500]).first()
    images = []
    if item.image and session is not None and not (existing and existing.images):
        try:
            images = [image_import(item.image, session=session)]
        except (FetchError, ImageRejected) as exc:  # a missing picture is not worth losing the product
            log.info("importer: image skipped for %s: %s", item.name, exc)
        except ImageNotStored as exc:  # nor is one the media storage could not keep (a full disk): for the operator
            log.error("importer: image not stored for %s: %s", item.name, exc)
    prices = {
        "price_amount": list_egp or current_egp,
        "sale_price_amount": current_egp if list_egp else None,
        "kes_price_amount": item.price,
    }
    with transaction.atomic():
        if existing is not None:
            changes = {**prices, **({"images": images} if images else {})}
            product = product_update(product=existing, actor=user, audit_action="product_reimport", **changes)
            _history(product, item, config)
            return product, False
        verdict = categorize(name=item.name, description=item.description,
                             price=current_egp, source_category=item.category)
        generated_en = describe(name=item.name, category=item.category or "speciality-teas")
        description_en = item.description
        description_ar = ""
        if not description_en or description_en == generated_en:
            description_en = describe(name=item.name, category=verdict.category, price=current_egp)
            description_ar = describe(name=item.name, category=verdict.category, price=current_egp, language="ar")
        product = product_create(
            actor=user, audit_action="product_import",
            title_en=item.name,
            description_en=description_en, description_ar=description_ar,
            short_description_en=description_en[:SHORT_DESCRIPTION],
            short_description_ar=description_ar[:SHORT_DESCRIPTION],
            brewing_instructions_en=BREWING_EN, brewing_instructions_ar=BREWING_AR,
            category=verdict.category, create_category=True,
            tags=verdict.tags, tags_ar=arabic_words(verdict.tags, partial=True),
            caffeine_level=caffeine_for(verdict.category), stock=NEW_STOCK if item.in_stock else 0,
            is_active=True, is_new=True, is_featured=feature, images=images,
            source_url=item.source_url[:500], **prices,
        )
        import_state(product, created=True)
        if not item.in_stock:
            ImportedProduct.objects.filter(product=product).update(stock_zeroed=True)
        _history(product, item, config)
        return product, True


def _history(product: Product, item: ExternalProduct, config: dict[str, Any]) -> None:
    price_record(product=product, prices=prices_for(item, config=config), reason=PriceReason.IMPORT)
    ImportedProduct.objects.filter(product=product).update(last_seen_at=timezone.now(), gone_since=None)
