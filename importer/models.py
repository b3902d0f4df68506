import copy
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_noop

# longer than any job may run (CELERY_TASK_TIME_LIMIT, 50 minutes): a run running since longer, or queued
# since longer (run_crawl no longer starts it), is one whose worker died; it no longer blocks a new one
STALE_AFTER = timedelta(hours=1)
DEAD_ERROR = gettext_noop(  # stored in English, shown in the reader's language (importer.selectors.run_error)
    "The crawl's worker stopped before it finished (or it waited too long in the queue); start it again.")
QUEUE_ERROR = gettext_noop("The job queue is unavailable; please try again.")  # stored in English, as DEAD_ERROR
# the errors the shop itself stores, in English: shown translated (any other stored error is the site's own words)
SHOP_ERRORS = (DEAD_ERROR, QUEUE_ERROR)


class RunStatus(models.TextChoices):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


class RunFailure(models.TextChoices):
    """Why a crawl that ran to its end failed: the panel and the Owner's e-mail say it in their language."""

    UNREACHABLE = "unreachable"  # every page it asked for failed (the site down, timing out, answering 5xx)
    NO_PRODUCTS = "no_products"  # pages answered, no product in them (a maintenance page, a changed layout)
    TOO_FEW = "too_few"  # far fewer products than the last good crawl of the site (importer.services.SHRINK_*)


class RunQuerySet(models.QuerySet["ImporterRun"]):
    def scheduled(self) -> "RunQuerySet":
        """The runs the auto-import started: neither staff (started_by) nor an operator's command (by_command)."""
        return self.filter(started_by=None, by_command=False)


class ImporterRun(models.Model):
    """One crawl of the producer site, with live progress for the panel."""

    status = models.CharField(max_length=10, choices=RunStatus.choices, default=RunStatus.QUEUED)
    base_url = models.URLField(max_length=500)
    max_pages = models.PositiveIntegerField(default=20)
    pages_planned = models.PositiveIntegerField(default=0)
    pages_fetched = models.PositiveIntegerField(default=0)
    products_found = models.PositiveIntegerField(default=0)
    errors = models.JSONField(default=list, blank=True)
    error = models.TextField(blank=True)
    cancel_requested = models.BooleanField(default=False)
    # the crawl read every page it found, none failing: only then is a product it did not find gone
    complete = models.BooleanField(default=False)
    # product pages the crawl found with no price it could use (none, 0, negative, too large, not KES): on the
    # site, so never gone; an imported one keeps its price and is reported refused. The database default
    # lets a process of the release before (its INSERT names no such column) still start runs.
    unpriced = models.JSONField(default=list, blank=True, db_default=[])
    # the columns below have database defaults so that a process of the release before can still start runs
    failure = models.CharField(max_length=20, choices=RunFailure.choices, blank=True, default="", db_default="")
    # a TOO_FEW run: how many products the last good crawl found, which it was held to
    products_before = models.PositiveIntegerField(null=True, blank=True)
    # staff confirmed the producer really lists fewer products now: this run is not held to the last good one
    accept_fewer = models.BooleanField(default=False, db_default=False)
    # a scheduled run whose failure (the first of a series) or recovery the Owners were e-mailed about
    owners_told = models.BooleanField(default=False, db_default=False)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    # started by an operator's `manage.py import_products`: by nobody, yet not scheduled (never told to the Owners)
    by_command = models.BooleanField(default=False, db_default=False)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = RunQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def is_dead(self, now: datetime | None = None) -> bool:
        """Whether its worker died (STALE_AFTER): what importer.services._dead asks the database."""
        cutoff = (now or timezone.now()) - STALE_AFTER
        if self.status == RunStatus.RUNNING:
            return self.started_at is not None and self.started_at < cutoff
        return self.status == RunStatus.QUEUED and self.created_at < cutoff

    def as_seen(self, now: datetime | None = None) -> "ImporterRun":
        """The run as staff see it: a dead run as the failed run importer.services.runs_end_dead will store
        (ended when it became dead), before that sweep runs; reading it writes nothing."""
        if not self.is_dead(now):
            return self
        seen = copy.copy(self)
        seen.status, seen.error = RunStatus.FAILED, DEAD_ERROR
        seen.finished_at = (self.started_at if self.status == RunStatus.RUNNING else self.created_at) + STALE_AFTER
        return seen


class ExternalProduct(models.Model):
    """A product found on the producer's site: the cache the panel previews."""

    run = models.ForeignKey(ImporterRun, on_delete=models.SET_NULL, null=True, related_name="products")
    name = models.CharField(max_length=200)
    price = models.DecimalField(max_digits=12, decimal_places=2)
    original_price = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    currency = models.CharField(max_length=3, default="KES")
    image = models.URLField(max_length=1000, blank=True)
    description = models.TextField(blank=True)
    source = models.CharField(max_length=200, blank=True)
    source_url = models.URLField(max_length=1000, unique=True)
    category = models.CharField(max_length=60, blank=True)
    in_stock = models.BooleanField(default=True)  # False when the producer marks it out of stock
    fetched_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class PriceReason(models.TextChoices):
    IMPORT = "import"  # staff imported or applied a preview
    SCHEDULE = "schedule"  # the scheduled import (autoImport)


class ImportedProduct(models.Model):
    """What the importer keeps about a shop product it brought in from the producer.

    `staff_edited` names the content fields staff changed in the dashboard
    (title_en, description_en…): a scheduled import never writes those.
    """

    product = models.OneToOneField("catalog.Product", on_delete=models.CASCADE, related_name="import_state")
    staff_edited = models.JSONField(default=list, blank=True)
    # the import set stock to 0 because the producer showed it out of stock
    stock_zeroed = models.BooleanField(default=False)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    gone_since = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"import state of product {self.product_id}"


class PriceRecord(models.Model):
    """One price an import gave an imported product: KES, rate and markup in, EGP out."""

    product = models.ForeignKey("catalog.Product", on_delete=models.CASCADE, related_name="import_prices")
    kes = models.DecimalField(max_digits=12, decimal_places=2)
    kes_original = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    rate = models.DecimalField(max_digits=18, decimal_places=8)
    markup = models.DecimalField(max_digits=7, decimal_places=2)
    egp = models.DecimalField(max_digits=12, decimal_places=2)  # the shop price (the list price on a sale)
    sale_egp = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    reason = models.CharField(max_length=10, choices=PriceReason.choices, default=PriceReason.IMPORT)
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-recorded_at", "-pk"]
        indexes = [models.Index(fields=["product", "-recorded_at"], name="importer_price_product_idx")]
