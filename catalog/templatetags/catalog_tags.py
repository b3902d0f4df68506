"""Template helpers for product cards and pages: price, stock and stars come from catalog.pricing."""

from django import template

from catalog.models import Product
from catalog.pricing import Availability, PriceInfo, price_info

register = template.Library()


@register.simple_tag
def product_price(product: Product) -> PriceInfo:
    """`{% product_price product as info %}`: the PriceInfo to show."""
    return price_info(product)


@register.filter
def stock_status(product: Product) -> str:
    return Availability.status(product.stock)


@register.filter
def star_list(rating: float | int | None) -> list[bool]:
    """Five booleans, filled up to the whole-star floor of `rating`."""
    try:
        whole = int(float(rating or 0))
    except (TypeError, ValueError):
        whole = 0
    return [i < whole for i in range(5)]
