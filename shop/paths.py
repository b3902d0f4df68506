"""The language prefix of a site path: the one place that knows `/ar/shop` is `/shop` in Arabic."""

from django.conf import settings
from django.urls import reverse
from django.utils.translation import get_language


def localized_path(path: str, language: str | None = None) -> str:
    """`path` (always starting with "/") as served in `language` (default: the active one).

    English, the default language, has no prefix: `/shop`, `/ar/shop`, `/ar/`.
    """
    language = language or get_language() or settings.LANGUAGE_CODE
    if language == settings.LANGUAGE_CODE:
        return path
    return f"/{language}/" if path == "/" else f"/{language}{path}"


# stands for the slug in `island_urls()["product"]`; islands put the product's slug in its place
PRODUCT_SLUG = "__slug__"


def island_urls() -> dict[str, str]:
    """The storefront pages islands link to, in the active language (the islands' `urls` prop)."""
    return {
        "home": reverse("shop:home"), "shop": reverse("catalog:shop"), "contact": reverse("shop:contact"),
        "cart": reverse("orders:cart"), "checkout": reverse("orders:checkout"),
        "product": reverse("catalog:product-detail", args=[PRODUCT_SLUG]),
    }
