from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from catalog.pricing import Availability
from catalog.signals import stock_changed


class Category(models.Model):
    """A product category; `name` has an Arabic twin through modeltranslation."""

    if TYPE_CHECKING:  # the language columns django-modeltranslation adds at start-up (catalog/translation.py)
        name_en: str
        name_ar: str
        picture: str  # set on the explore page's tiles (catalog.views.explore)
    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=120)
    # the rule-based categoriser's words for this category
    keywords = models.JSONField(default=list, blank=True)
    position = models.PositiveSmallIntegerField(default=0)
    # `entire-range` lists every product and is never assigned
    is_assignable = models.BooleanField(default=True)

    class Meta:
        ordering = ["position", "slug"]
        verbose_name_plural = "categories"

    def __str__(self) -> str:
        return self.name


class CaffeineLevel(models.TextChoices):
    NONE = "none", _("None")
    LOW = "low", _("Low")
    MEDIUM = "medium", _("Medium")
    HIGH = "high", _("High")


class StockLevel(models.TextChoices):
    """Availability.status() values, remembered for the stock alerts (backoffice.alerts)."""

    IN = "in", _("In Stock")
    LOW = "low", _("Low Stock")
    OUT = "out", _("Out of Stock")


class ProductQuerySet(models.QuerySet["Product"]):
    def update(self, **kwargs: Any) -> int:
        """Every UPDATE that sets stock reports the products it touched (signals.stock_changed):
        the one place stock alerts hear about sales, cancellations and staff corrections."""
        if "stock" not in kwargs:
            return super().update(**kwargs)
        product_ids = list(self.values_list("pk", flat=True))
        count = super().update(**kwargs)
        if count:
            _stock_changed(product_ids)
        return count


def _stock_changed(product_ids: list[int]) -> None:
    stock_changed.send(sender=Product, product_ids=product_ids)


class Product(models.Model):
    objects = ProductQuerySet.as_manager()
    if TYPE_CHECKING:  # the language columns django-modeltranslation adds at start-up (catalog/translation.py)
        title_en: str
        title_ar: str
        short_description_en: str
        short_description_ar: str
        description_en: str
        description_ar: str
        brewing_instructions_en: str
        brewing_instructions_ar: str

    slug = models.SlugField(max_length=200, unique=True)
    title = models.CharField(max_length=200)
    short_description = models.CharField(max_length=300, blank=True)
    description = models.TextField(blank=True)
    brewing_instructions = models.TextField(blank=True)
    price_amount = models.DecimalField(
        max_digits=12, decimal_places=2, validators=[MinValueValidator(Decimal("0"))]
    )
    sale_price_amount = models.DecimalField(
        max_digits=12, decimal_places=2, null=True, blank=True,
        validators=[MinValueValidator(Decimal("0"))],
    )
    # the producer's price, shown beside the EGP price when enabled
    kes_price_amount = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    images = models.JSONField(default=list, blank=True)  # list of URLs
    category = models.ForeignKey(Category, on_delete=models.PROTECT, related_name="products")
    tags = models.JSONField(default=list, blank=True)
    flavor_notes = models.JSONField(default=list, blank=True)
    ingredients = models.JSONField(default=list, blank=True)
    # Arabic twins of the lists shoppers read (empty: the English words, isolated)
    tags_ar = models.JSONField(default=list, blank=True)
    flavor_notes_ar = models.JSONField(default=list, blank=True)
    ingredients_ar = models.JSONField(default=list, blank=True)
    colors = models.JSONField(default=list, blank=True)
    caffeine_level = models.CharField(
        max_length=10, choices=CaffeineLevel.choices, default=CaffeineLevel.MEDIUM
    )
    stock = models.IntegerField(default=0)
    # the stock level the last alert check saw; an alert goes out when stock falls past it
    stock_alert_level = models.CharField(max_length=3, choices=StockLevel.choices, default=StockLevel.IN,
                                         editable=False)
    rating = models.DecimalField(max_digits=3, decimal_places=2, default=Decimal("0"))
    review_count = models.PositiveIntegerField(default=0)
    is_new = models.BooleanField(default=False)
    is_active = models.BooleanField(default=True)
    is_featured = models.BooleanField(default=False)
    brand = models.CharField(max_length=80, default="Kericho Gold", blank=True)
    # where an imported product came from; re-imports match on it
    source_url = models.URLField(max_length=500, blank=True, db_index=True)
    # normalised title/description/tags text in both languages for search
    search_text = models.TextField(blank=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-is_featured", "-created_at"]
        constraints = [
            models.CheckConstraint(condition=models.Q(stock__gte=0), name="product_stock_not_negative"),
            models.CheckConstraint(condition=models.Q(price_amount__gte=0), name="product_price_not_negative"),
        ]
        indexes = [
            models.Index(fields=["is_active", "category"]),
            # the dashboard's products table, newest first, pages by this index instead of sorting them all
            models.Index(fields=["created_at", "id"], name="product_newest"),
        ]

    def __str__(self) -> str:
        return self.title

    def save(self, *args: Any, **kwargs: Any) -> None:
        adding = self._state.adding
        if adding:  # a new product starts at its own level: nothing has crossed yet
            self.stock_alert_level = Availability.status(self.stock)
        super().save(*args, **kwargs)
        update_fields = kwargs.get("update_fields")
        if not adding and (update_fields is None or "stock" in update_fields):
            _stock_changed([self.pk])
    def _list_in_language(self, name: str) -> list[str]:
        if get_language() == "ar":
            return getattr(self, f"{name}_ar") or getattr(self, name) or []
        return getattr(self, name) or []

    @property
    def shown_flavor_notes(self) -> list[str]:
        """Flavour notes in the page's language (Arabic falls back to English)."""
        return self._list_in_language("flavor_notes")

    @property
    def shown_ingredients(self) -> list[str]:
        return self._list_in_language("ingredients")

    @property
    def shown_tags(self) -> list[str]:
        return self._list_in_language("tags")

    @property
    def arabic_missing(self) -> list[str]:
        """The fields that have English text and no Arabic twin (the dashboard marks them)."""
        pairs = [("title", self.title_en, self.title_ar),
                 ("shortDescription", self.short_description_en, self.short_description_ar),
                 ("description", self.description_en, self.description_ar),
                 ("brewingInstructions", self.brewing_instructions_en, self.brewing_instructions_ar),
                 ("tags", self.tags, self.tags_ar), ("flavorNotes", self.flavor_notes, self.flavor_notes_ar),
                 ("ingredients", self.ingredients, self.ingredients_ar)]
        return [name for name, english, arabic in pairs if english and not arabic]


class Review(models.Model):
    product = models.ForeignKey(Product, on_delete=models.CASCADE, related_name="reviews")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="reviews"
    )
    user_name = models.CharField(max_length=150)
    user_email = models.EmailField()
    rating = models.PositiveSmallIntegerField(
        default=5, validators=[MinValueValidator(1), MaxValueValidator(5)]
    )
    title = models.CharField(max_length=200)
    comment = models.TextField(max_length=5000)
    is_verified = models.BooleanField(default=False)
    is_approved = models.BooleanField(default=False)
    # rejected by staff: kept (not deleted) and never shown; approving clears it
    is_rejected = models.BooleanField(default=False)
    admin_response = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rating__gte=1, rating__lte=5), name="review_rating_1_to_5"
            )
        ]

    @property
    def status(self) -> str:
        """pending | approved | rejected"""
        return "approved" if self.is_approved else "rejected" if self.is_rejected else "pending"

    def __str__(self) -> str:
        return f"{self.rating}★ {self.title}"


class StockAlert(models.Model):
    """Someone who asked to hear once when an out-of-stock product is back (double opt-in).

    Pending until the e-mailed link is confirmed; sent once (`notified_at`) when
    the stock returns, then done. Asking again after that starts a new round.
    """

    product = models.ForeignKey(Product, on_delete=models.CASCADE, related_name="stock_alerts")
    email = models.EmailField()
    language = models.CharField(max_length=8, default="en")
    token = models.CharField(max_length=64, unique=True)
    # the shop's address as the visitor reached it, for the links in the later e-mail (SITE_URL wins)
    base_url = models.CharField(max_length=500, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    notified_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["product", "email"], name="stock_alert_once_per_product_email"),
        ]
        indexes = [models.Index(fields=["product", "confirmed_at", "notified_at"], name="stock_alert_waiting")]

    def __str__(self) -> str:
        return f"{self.email} → {self.product_id}"
