from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Category(models.Model):
    """A product category; `name` has an Arabic twin through modeltranslation."""

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

    def __str__(self):
        return self.name


class CaffeineLevel(models.TextChoices):
    NONE = "none", _("None")
    LOW = "low", _("Low")
    MEDIUM = "medium", _("Medium")
    HIGH = "high", _("High")


class Product(models.Model):
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
    colors = models.JSONField(default=list, blank=True)
    caffeine_level = models.CharField(
        max_length=10, choices=CaffeineLevel.choices, default=CaffeineLevel.MEDIUM
    )
    stock = models.IntegerField(default=0)
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
        indexes = [models.Index(fields=["is_active", "category"])]

    def __str__(self):
        return self.title


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
    def status(self):
        """pending | approved | rejected"""
        return "approved" if self.is_approved else "rejected" if self.is_rejected else "pending"

    def __str__(self):
        return f"{self.rating}★ {self.title}"
