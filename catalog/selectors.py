"""Catalogue reads shared by pages and the API. Each returns a queryset whose
evaluation costs a constant number of queries, whatever the catalogue size."""

import re
from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import Case, Count, DecimalField, F, Q, QuerySet, When

from catalog.models import Category, Product, Review
from catalog.pricing import ON_SALE
from catalog.search import search_terms
from catalog.suggest import fuzzy_product_ids

if TYPE_CHECKING:  # django-stubs' type of an annotated row (a development dependency)
    from django_stubs_ext import WithAnnotations

ALL_CATEGORIES = {"", "all", "entire-range"}  # no category filter
_SLUG = re.compile(r"[-\w]{1,200}")
UNKNOWN_CATEGORY = "-unknown-"  # matches no category: 'No products found'

# DECISIONS "Contract details": the shop's URL values.
PRICE_RANGES = {
    "under-100": (None, Decimal("100"), False),  # below 100
    "100-200": (Decimal("100"), Decimal("200"), True),  # inclusive
    "200-300": (Decimal("200"), Decimal("300"), True),  # inclusive
    "over-300": (Decimal("300"), None, False),  # above 300
}
SORTS = {
    "featured": ("-is_featured", "-created_at", "-pk"),
    "newest": ("-created_at", "-pk"),
    "price-asc": ("shown_price", "pk"),
    "price-desc": ("-shown_price", "-pk"),
    "top-rated": ("-rating", "-review_count", "-pk"),
}
DEFAULT_SORT = "featured"


def _with_shown_price(queryset: QuerySet[Product]) -> QuerySet[Product]:
    """Annotate the price a shopper pays (catalog.pricing.unit_price, in SQL)."""
    return queryset.annotate(
        shown_price=Case(
            When(ON_SALE, then=F("sale_price_amount")),
            default=F("price_amount"),
            output_field=DecimalField(max_digits=12, decimal_places=2),
        )
    )


def clean_filters(*, category: object = None, search: object = None, price: object = None,
                  sort: object = None) -> dict[str, Any]:
    """Drop values the shop does not know, so bad input is ignored, never an error."""
    category = (category or "").strip()[:60] if isinstance(category, str) else ""
    if category in ALL_CATEGORIES:
        category = ""
    elif not _SLUG.fullmatch(category):
        category = UNKNOWN_CATEGORY
    search = search.replace("\x00", "").strip()[:100] if isinstance(search, str) else ""
    return {
        "category": category,
        "search": search,
        "price": price if price in PRICE_RANGES else "",
        "sort": sort if sort in SORTS else DEFAULT_SORT,
    }


def _search_filter(search: str) -> Q:
    condition = Q()
    for term in search_terms(search):
        # search_text is stored normalised; the raw title match covers rows
        # written before it was filled
        condition &= Q(search_text__contains=term) | Q(title__icontains=term)
    return condition


def product_list(*, category: object = None, search: object = None, price: object = None,
                 sort: object = None) -> QuerySet[Product]:
    """Active products matching the shop's filters, in the chosen order.

    Unknown filter values are ignored; an unknown category slug matches
    nothing (the shop shows 'No products found').
    """
    filters = clean_filters(category=category, search=search, price=price, sort=sort)
    queryset = _with_shown_price(Product.objects.filter(is_active=True).select_related("category"))
    if filters["category"]:
        queryset = queryset.filter(category__slug=filters["category"])
    if filters["search"]:
        exact = queryset.filter(_search_filter(filters["search"]))
        # nothing spelled that way: the forgiving search (typos, Arabic plurals and category words)
        queryset = exact if exact.exists() else queryset.filter(pk__in=fuzzy_product_ids(filters["search"]))
    if filters["price"]:
        low, high, inclusive = PRICE_RANGES[filters["price"]]
        if low is not None:
            queryset = queryset.filter(**{"shown_price__gte" if inclusive else "shown_price__gt": low})
        if high is not None:
            queryset = queryset.filter(**{"shown_price__lte" if inclusive else "shown_price__lt": high})
    return queryset.order_by(*SORTS[filters["sort"]])


def product_get(*, slug: str) -> Product | None:
    """The active product with this slug, or None."""
    if not isinstance(slug, str) or not _SLUG.fullmatch(slug):
        return None
    return Product.objects.filter(is_active=True, slug=slug).select_related("category").first()


class ProductCount(TypedDict):
    product_count: int


def category_list_with_counts() -> "QuerySet[WithAnnotations[Category, ProductCount]]":
    """Categories with the number of active products in each (one query)."""
    return Category.objects.annotate(
        product_count=Count("products", filter=Q(products__is_active=True))
    ).order_by("position", "slug")


def category_pictures(*, categories: Iterable[Category]) -> dict[int, str]:
    """{category id: the picture of its first active product that has one} (featured first), for tiles."""
    wanted = {category.pk for category in categories}
    pictures = {}
    products = (Product.objects.filter(is_active=True, category_id__in=wanted).exclude(images=[])
                .order_by("-is_featured", "pk").values_list("category_id", "images"))
    for category_id, images in products:
        if category_id not in pictures and images and isinstance(images[0], str):
            pictures[category_id] = images[0]
    return pictures


def product_related(*, product: Product, limit: int = 4) -> list[Product]:
    """Up to `limit` active products in the same category or sharing a tag."""
    candidates = (
        Product.objects.filter(is_active=True)
        .exclude(pk=product.pk)
        .select_related("category")
        .order_by("-is_featured", "-rating", "-pk")
    )
    same_category = list(candidates.filter(category_id=product.category_id)[:limit])
    if len(same_category) >= limit or not product.tags:
        return same_category
    tags = set(product.tags)
    # tags are a JSON list; filter a bounded window in Python (portable across databases)
    seen = {p.pk for p in same_category}
    for other in candidates.exclude(category_id=product.category_id)[:200]:
        if other.pk not in seen and tags.intersection(other.tags or []):
            same_category.append(other)
            if len(same_category) >= limit:
                break
    return same_category


def review_list_approved(*, product: Product | int) -> QuerySet[Review]:
    """Approved reviews of a product, newest first."""
    return Review.objects.filter(product=product, is_approved=True).order_by("-created_at", "-pk")


def featured_products(*, limit: int = 3) -> QuerySet[Product]:
    return (
        Product.objects.filter(is_active=True, is_featured=True)
        .select_related("category")
        .order_by("-created_at", "-pk")[:limit]
    )
