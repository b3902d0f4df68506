"""Template helpers for product cards and pages: price, stock and stars come from catalog.pricing."""

from decimal import ROUND_HALF_UP, Decimal

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


def _rate_text(value: object, places: int) -> str:
    """A rate as the islands' formatRate shows it (static_src/islands/currency-rate.js): en-US, 2 to `places`
    decimals, half away from zero, so the server-rendered badge has the mounted one's width (CLS 0, issue 14)."""
    try:
        number = Decimal(str(value))
    except (ArithmeticError, TypeError, ValueError):
        return ""
    if not number.is_finite() or number <= 0:
        return ""
    text = f"{number.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP):,f}".rstrip("0")
    whole, _, decimals = text.partition(".")
    return f"{whole}.{decimals.ljust(2, '0')}"


@register.filter
def rate_text(rate: object) -> str:
    """1 KES = rate_text EGP."""
    return _rate_text(rate, 4)


@register.filter
def inverse_rate_text(rate: object) -> str:
    """1 EGP = inverse_rate_text KES."""
    return _rate_text(1 / Decimal(str(rate)), 2) if _rate_text(rate, 4) else ""
