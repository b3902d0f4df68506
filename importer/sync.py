"""The producer's catalogue against the shop: the preview diff, applying the
checked changes, the scheduled update, price history and staff edits.

A scheduled import (autoImport) may change, on products imported before:
prices (shop price, sale price, KES price), stock when the producer's
availability changes, and the English title and description only while staff
have never edited them. It never creates, deactivates or deletes a product:
new and gone products go to the Owner's summary e-mail and the preview.
"""

import logging
from dataclasses import dataclass, field
from decimal import Decimal
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import Role
from backoffice.audit import audit_record
from catalog.models import Product
from catalog.pricing import unit_price
from catalog.products import product_update
from importer import services
from importer.categorize import describe
from importer.models import ExternalProduct, ImportedProduct, ImporterRun, PriceReason, RunStatus
from importer.normalize import FALLBACK_DESCRIPTION, GENERATED_NAME
from importer.pricing import plain
from importer.records import PRICE_FIELDS, import_state, price_approved, price_record, prices_for
from importer.selectors import run_error
from shop.mail import isolate, mail_queue
from shop.store_settings import store_settings_get

log = logging.getLogger(__name__)

# fields a scheduled import may refresh from the producer while staff never edited them
PRODUCER_TEXT = {"title_en": "name", "description_en": "description"}
# a scheduled import leaves to staff a price moving more than this (a quarter) from the one on sale
PRICE_JUMP_HELD = Decimal("0.25")
SHORT_DESCRIPTION = 100


def _producer_text(item, attr):
    """The producer's own title or description ('' for a description the crawl generated)."""
    value = (getattr(item, attr) or "").strip()
    generated = {GENERATED_NAME} if attr == "name" else {
        FALLBACK_DESCRIPTION, describe(name=item.name, category=item.category or "speciality-teas")}
    return "" if value in generated else value


# -- one product's update ------------------------------------------------------------


def _stock_change(product, state, in_stock):
    """The stock a producer's availability asks for, or None to leave it."""
    if not in_stock and product.stock > 0:
        return 0
    if in_stock and product.stock == 0 and state.stock_zeroed:
        return services.NEW_STOCK
    return None


def prices_held(product, prices, state):
    """Why a scheduled import leaves a product's prices as they are: "edited" (staff set them), "refused"
    (the producer's price makes 0 EGP or more than a price holds: no apply would take it, so nobody is asked
    to approve it), "jump" (the new price is more than PRICE_JUMP_HELD away from the one on sale: a
    producer's typo or a rate service's bad answer must not reprice the shop overnight), "drift" (within a
    quarter of the price on sale, but more than PRICE_JUMP_HELD away from the one staff last approved,
    records.price_approved: unattended nights must not add up to what no single night may do, a tampered or
    faulty producer site lowering a price by 24 % every night), or "" to apply them. The preview still offers
    "edited", "jump" and "drift" ones, never a refused one; applied, a price becomes the approved one.

    Both prices are watched: the regular one, and the one customers pay (the sale price when there is one).
    A sale the producer's page announces far below the price on sale ("was 420, now 5") keeps the regular
    price, and would otherwise sell the stock at a fraction of it from the next morning."""
    if set(PRICE_FIELDS) & set(state.staff_edited):
        return "edited"
    if not prices.sellable:
        return "refused"
    if _moves_far((product.price_amount, unit_price(product)), prices):
        return "jump"
    approved = price_approved(product)
    if approved is not None and _moves_far(_approved_prices(approved), prices):
        return "drift"
    return ""


def _approved_prices(record):
    """A history row's (regular, paid) EGP prices."""
    return record.egp, record.sale_egp if record.sale_egp is not None else record.egp


def _moves_far(before, prices):
    """Whether the regular price or the one customers pay moves more than PRICE_JUMP_HELD from `before`'s."""
    return any(old and abs(new - old) > old * PRICE_JUMP_HELD
               for old, new in zip(before, (prices.price, prices.current), strict=True))


def product_update_from_producer(*, product, item, config, reason, texts=False, keep_prices=False):
    """Prices (with history) and stock from the producer; with `texts`, the English
    title and description too, unless staff edited them; with `keep_prices`, no price
    (nor its history), as when the producer's price makes 0 EGP. Returns the changed fields."""
    prices = prices_for(item, config=config)
    keep_prices = keep_prices or not prices.sellable
    state = import_state(product)
    changes = {}
    if not keep_prices:
        if product.price_amount != prices.price:
            changes["price_amount"] = prices.price
        if product.sale_price_amount != prices.sale:
            changes["sale_price_amount"] = prices.sale
        if product.kes_price_amount != prices.kes:
            changes["kes_price_amount"] = prices.kes
    stock = _stock_change(product, state, item.in_stock)
    if stock is not None:
        changes["stock"] = stock
    if texts:
        for field_name, attr in PRODUCER_TEXT.items():
            value = _producer_text(item, attr)
            if value and field_name not in state.staff_edited and getattr(product, field_name) != value:
                changes[field_name] = value
        if "description_en" in changes and "short_description_en" not in state.staff_edited:
            changes["short_description_en"] = changes["description_en"][:SHORT_DESCRIPTION]
    with transaction.atomic():
        if changes:
            product_update(product=product, **changes)
        if not keep_prices:
            price_record(product=product, prices=prices, reason=reason)
        state_fields = {"last_seen_at": timezone.now(), "gone_since": None}
        if stock is not None:
            state_fields["stock_zeroed"] = stock == 0
        ImportedProduct.objects.filter(pk=state.pk).update(**state_fields)
    return sorted(changes)


# -- the diff ----------------------------------------------------------------------------


@dataclass
class Diff:
    run: object = None
    new: list = field(default_factory=list)  # ExternalProduct
    changed: list = field(default_factory=list)  # (Product, ExternalProduct, Prices)
    gone: list = field(default_factory=list)  # Product
    # the producer's price makes 0 EGP or too much: no apply takes it (a stock change alone may still be in `changed`);
    # or, after a crawl that read the whole site, it had no price the crawl could use (ExternalProduct None)
    refused: list = field(default_factory=list)  # (Product, ExternalProduct or None)
    gone_checked: bool = False  # False when the last crawl did not finish: nothing is called gone
    config: dict = field(default_factory=dict)


def _host(url):
    return urlsplit(url or "").netloc.lower().removeprefix("www.")


def _imported_products(base_url):
    host = _host(base_url)
    return [p for p in Product.objects.exclude(source_url="").order_by("pk") if _host(p.source_url) == host]


def diff_build(*, config=None):
    """The cached crawl (the last run) against the shop's imported products."""
    config = config or services.importer_config()
    items = list(ExternalProduct.objects.select_related("run").order_by("pk"))
    run = ImporterRun.objects.order_by("-created_at").first()
    diff = Diff(run=run, config=config)
    base_url = (items[0].run.base_url if items and items[0].run else None) or config["base_url"]
    shop = {p.source_url: p for p in _imported_products(base_url)}
    seen = set()
    for item in items:
        url = item.source_url[:500]
        seen.add(url)
        product = shop.get(url)
        if product is None:
            diff.new.append(item)
            continue
        prices = prices_for(item, config=config)
        state = ImportedProduct.objects.filter(product=product).first()
        stock = _stock_change(product, state or ImportedProduct(stock_zeroed=False), item.in_stock)
        repriced = prices.sellable and (product.price_amount, product.sale_price_amount) != (prices.price, prices.sale)
        if not prices.sellable:
            diff.refused.append((product, item))
        if repriced or stock is not None:
            diff.changed.append((product, item, prices))
    if run is not None and _crawl_complete(run) and items:
        diff.gone_checked = True
        unpriced = set(run.unpriced or ())
        diff.gone = [p for url, p in shop.items() if url not in seen and url not in unpriced and p.is_active]
        diff.refused += [(p, None) for url, p in shop.items() if url not in seen and url in unpriced]
    return diff


def _crawl_complete(run):
    """Whether `run` read the whole site: done, with every page it found read and none failed. Only then is
    a product it did not find gone; a crawl cut short (its page limit, a page that failed) proves nothing."""
    return run.status == RunStatus.DONE and run.complete


@dataclass
class ApplyResult:
    created: list = field(default_factory=list)
    updated: list = field(default_factory=list)
    deactivated: list = field(default_factory=list)
    errors: list = field(default_factory=list)  # why a ticked new product was not created


def diff_pricing(config):
    """The exchange rate and markup a preview's EGP prices were worked out at (sent back with its apply)."""
    return {"rate": config["exchange_rate"], "markup": config["markup"]}


def _pricing_check(config, *, rate, markup):
    """Refuse (409) an apply whose preview was priced at another rate or markup than today's: the exchange rate
    was refreshed (beat, every few hours) or the markup changed while staff read it. Applied, the products would
    get prices nobody was shown; the panel shows the preview again at the new prices instead."""
    now = diff_pricing(config)
    if rate is None and markup is None:  # an API client that sends no pricing is applied at today's, as before
        return
    if (rate is None or Decimal(rate) == now["rate"]) and (markup is None or Decimal(markup) == now["markup"]):
        return
    raise services.ImporterError(
        _("The exchange rate or markup changed since this preview (1 KES made %(old_rate)s EGP at a %(old_markup)s%% "
          "markup; now %(new_rate)s EGP at %(new_markup)s%%). Nothing was applied: the preview now shows the new "
          "prices; check them and apply again.")
        % {"old_rate": plain(rate if rate is not None else now["rate"]),
           "old_markup": plain(markup if markup is not None else now["markup"]),
           "new_rate": plain(now["rate"]), "new_markup": plain(now["markup"])},
        status=409, field="rate")


def _run_check(diff, *, run_id):
    """Refuse (409) an apply whose preview was built from another crawl than the latest: a crawl since (staff's
    in another tab, the schedule's, an operator's command) replaced the cached products, so the new products
    ticked no longer exist under their ids (skipped, unsaid) and the changed ones were read at other producer
    prices; a crawl since that failed or still runs proves no product gone any more. The panel shows the
    preview again, from the latest crawl, instead."""
    if run_id is None:  # an API client that sends no run is applied against the latest crawl, as before
        return
    if diff.run is not None and diff.run.pk == int(run_id):
        return
    raise services.ImporterError(
        _("The producer's site was crawled again since this preview. Nothing was applied: the preview now shows "
          "the latest crawl; check it and apply again."),
        status=409, field="runId")


def diff_apply(*, user=None, new=(), changed=(), gone=(), rate=None, markup=None, run_id=None):
    """Apply only the checked changes: `new` are cached product ids to create, `changed`
    and `gone` shop product ids to reprice or deactivate (never delete). `rate` and `markup`
    are the preview's (diff_pricing), `run_id` the crawl it was built from (Diff.run): an apply
    applies exactly the preview staff ticked from, or nothing (_pricing_check, _run_check)."""
    new, changed, gone = {int(i) for i in new}, {int(i) for i in changed}, {int(i) for i in gone}
    if not (new or changed or gone):
        raise services.ImporterError(_("Tick at least one change to apply."))
    config = services.importer_config()
    _pricing_check(config, rate=rate, markup=markup)
    diff = diff_build(config=config)
    _run_check(diff, run_id=run_id)
    result = ApplyResult()
    to_create = [item for item in diff.new if item.pk in new]
    if to_create:
        imported = services.external_products_import(external_products=to_create, user=user, config=config)
        result.created, result.errors = imported.created, imported.errors
    for product, item, _prices in diff.changed:
        if product.pk in changed:
            try:
                product_update_from_producer(product=product, item=item, config=config, reason=PriceReason.IMPORT)
            except Exception:  # this one is left whole and named; the others ticked are still applied
                result.errors.append(_failed(product))
                continue
            product.refresh_from_db()
            result.updated.append(product)
            _audit(user, "product_reprice", product)
    for product in diff.gone:
        if product.pk in gone:
            try:
                with transaction.atomic():
                    product_update(product=product, is_active=False)
                    state = import_state(product)
                    ImportedProduct.objects.filter(pk=state.pk).update(gone_since=timezone.now())
                    _audit(user, "product_deactivate_gone", product)
            except Exception:
                result.errors.append(_failed(product))
                continue
            result.deactivated.append(product)
    return result


def _failed(product):
    """Log why `product`'s change failed and say so to staff (the apply's toast)."""
    log.exception("importer: applying the change of product %s failed", product.pk)
    return (_("%(name)s was not updated: an error stopped the change; try again.")
            % {"name": isolate(product.title_en)})


def _audit(user, action, product):
    if user is None:
        return
    audit_record(actor=user, action=action, details=product.title_en, target=product)


# -- the scheduled import ------------------------------------------------------------------


@dataclass
class ScheduleSummary:
    run: object
    updated: list = field(default_factory=list)  # (product, old EGP, new EGP, changed fields)
    unchanged: int = 0
    new: list = field(default_factory=list)
    gone: list = field(default_factory=list)
    kept_edits: int = 0
    # (product, EGP on sale, EGP the producer's price makes, EGP staff last approved when it drifted from that)
    held: list = field(default_factory=list)
    kept_prices: int = 0
    # the producer's price makes 0 EGP or too much: kept, reported refused (never held for an approval no apply takes)
    refused: list = field(default_factory=list)  # (product, the producer's KES price)
    failed: list = field(default_factory=list)  # products whose update failed (left as they were)


def scheduled_update(*, run):
    """After a scheduled crawl: refresh imported products, then tell the Owner."""
    config = services.importer_config()
    diff = diff_build(config=config)
    # found with no price the crawl could use: kept as they are, reported refused (the 0 EGP ones come below)
    summary = ScheduleSummary(run=run, new=diff.new, gone=diff.gone,
                              refused=[(product, None) for product, item in diff.refused if item is None])
    by_url = {}
    for product in _imported_products(run.base_url):
        by_url[product.source_url] = product
    for item in ExternalProduct.objects.order_by("pk"):
        product = by_url.get(item.source_url[:500])
        if product is None:
            continue
        old = product.sale_price_amount if product.sale_price_amount is not None else product.price_amount
        state = import_state(product)
        prices = prices_for(item, config=config)
        held = prices_held(product, prices, state)
        try:
            changed = product_update_from_producer(product=product, item=item, config=config,
                                                   reason=PriceReason.SCHEDULE, texts=True, keep_prices=bool(held))
        except Exception:  # one product's write refused (a lock wait, a value): it is left whole, the rest go on
            log.exception("importer: scheduled update of product %s failed", product.pk)
            summary.failed.append(product)
            continue
        if any(f in state.staff_edited for f in PRODUCER_TEXT):
            summary.kept_edits += 1
        if held in ("jump", "drift"):  # a drift is told with the price staff approved, which it drifted from
            approved = _approved_prices(price_approved(product))[1] if held == "drift" else None
            summary.held.append((product, old, prices.current, approved))
        elif held == "refused":
            summary.refused.append((product, prices.kes))
        elif held:
            summary.kept_prices += 1
        if changed:
            product.refresh_from_db()
            new = product.sale_price_amount if product.sale_price_amount is not None else product.price_amount
            summary.updated.append((product, old, new, changed))
        else:
            summary.unchanged += 1
    summary_send(summary=summary)
    return summary


# -- the Owners told when the scheduled import stops working, and when it works again -------------------


def _scheduled_before(run):
    """The scheduled runs created before `run`."""
    return ImporterRun.objects.scheduled().filter(created_at__lt=run.created_at).exclude(pk=run.pk)


def _series(run):
    """The scheduled runs since the last one before `run` that worked: (that one or None, the failed ones)."""
    earlier = _scheduled_before(run)
    good = earlier.filter(status=RunStatus.DONE).order_by("-created_at").first()
    failed = earlier.filter(status=RunStatus.FAILED)
    return good, failed.filter(created_at__gt=good.created_at) if good is not None else failed


def _owners_told_claim(run):
    """Mark `run` as the one the Owners hear about; False when another process already did (a job delivered twice)."""
    return bool(ImporterRun.objects.filter(pk=run.pk, owners_told=False).update(owners_told=True))


def scheduled_failure_tell(*, run):
    """A scheduled crawl failed outright (the site down, timing out, 5xx, no products, far too few): e-mail the
    Owners, once for a series of failures (the tick tries again every hour), not once per failed run.
    Returns whether they were told now."""
    good, failed = _series(run)
    if failed.filter(owners_told=True).exists():  # this series' first failure was told
        return False
    with transaction.atomic():
        if not _owners_told_claim(run):
            return False
        _run_mail(template="failed", run=run, context={
            "when": run.finished_at or timezone.now(),
            "last_good": (good.finished_at or good.created_at) if good is not None else None})
    return True


def scheduled_dead_tell():
    """The Owners hear of a series of failures that no crawl task ended: a scheduled run whose worker died (killed,
    out of memory, a time limit) is stored failed by the sweep (importer.services.runs_end_dead), which mails
    nobody; when every scheduled run dies that way, this is the only telling. Returns whether they were told now."""
    last = ImporterRun.objects.scheduled().order_by("-created_at").first()
    if last is None or last.status != RunStatus.FAILED:
        return False
    return scheduled_failure_tell(run=last)  # once for the series; a run already told is not told again


def scheduled_recovery_tell(*, run):
    """The first scheduled crawl that worked after a series of failures the Owners were told of: tell them it
    works again (their usual summary follows). Returns whether they were told now."""
    _good, failed = _series(run)
    told = failed.filter(owners_told=True).order_by("created_at").first()
    if told is None:
        return False
    with transaction.atomic():
        if not _owners_told_claim(run):
            return False
        _run_mail(template="recovered", run=run, context={
            "when": run.finished_at or timezone.now(), "since": told.finished_at or told.created_at})
    return True


def _run_mail(*, template, run, context):
    """E-mail the Owners importer/email/<template>: `run` failed (and why), or works again."""
    _owners_mail(template=template, values=lambda language: {
        **context, "run": run, "reason": run_error(run, isolated=True) if run.status == RunStatus.FAILED else ""})


def _owners_mail(*, template, values):
    """E-mail every Owner importer/email/<template>(_subject).txt, each in their own language: `values(language)`,
    called with it active, gives the templates' values beside the store and the panel's address.

    Dates and times are the store's without anything here: every caller runs in a Celery job (shop.celery.
    StoreTimeTask makes the store's zone the current one)."""
    store = store_settings_get()
    for owner in _owners():
        language = owner.language if owner.language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
        with translation.override(language):
            # the panel's address in the Owner's language (/ar/… for Arabic): reversed with it active
            panel_url = settings.SITE_URL + reverse("backoffice:section", args=["external-products"])
            context = {"store": store, "panel_url": panel_url, **values(language)}
            subject = render_to_string(f"importer/email/{template}_subject.txt", context).strip()
            body = render_to_string(f"importer/email/{template}.txt", context)
        try:
            mail_queue(to=owner.email, subject=subject, text=body, language=language)
        except ValueError:  # an address the outbox refuses: the others still get theirs
            log.warning("importer: %s e-mail not sent to owner %s", template, owner.pk)


def _owners():
    return get_user_model().objects.filter(role=Role.OWNER, is_active=True).exclude(email="").order_by("pk")


def summary_send(*, summary):
    """E-mail every Owner the scheduled import's summary, each in their own language."""
    # "old → new" points the reading way: leftwards in Arabic
    _owners_mail(template="summary", values=lambda language: {
        "summary": summary, "arrow": "←" if language == "ar" else "→"})
