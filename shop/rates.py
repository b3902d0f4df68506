"""KES↔EGP exchange rates: the stored ExchangeRate row is the truth.

This module is the one the storefront and importer read. The importer issue
adds the provider chain that refreshes the row (`rates_refresh`).
"""

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.conf import settings
from django.core.cache import cache

from shop.models import ExchangeRate
from shop.money import to_decimal

CACHE_SECONDS = 6 * 60 * 60


@dataclass(frozen=True)
class Rate:
    from_currency: str
    to_currency: str
    rate: Decimal
    last_updated: datetime | None
    source: str
    is_fallback: bool  # no stored rate: the configured fallback is in use


def _cache_key(from_currency, to_currency):
    return f"rate:{from_currency}:{to_currency}"


def rate_get(from_currency="KES", to_currency="EGP"):
    """Return the rate for a pair; EGP→KES is the inverse of KES→EGP."""
    from_currency, to_currency = from_currency.upper(), to_currency.upper()
    if from_currency == to_currency:
        return Rate(from_currency, to_currency, Decimal("1"), None, "identity", False)
    if (from_currency, to_currency) == ("EGP", "KES"):
        base = rate_get("KES", "EGP")
        return Rate("EGP", "KES", Decimal("1") / base.rate, base.last_updated, base.source, base.is_fallback)
    key = _cache_key(from_currency, to_currency)
    found = cache.get(key)
    if found is not None:
        return found
    row = ExchangeRate.objects.filter(from_currency=from_currency, to_currency=to_currency).first()
    if row is not None:
        found = Rate(from_currency, to_currency, row.rate, row.last_updated, row.source, False)
        cache.set(key, found, CACHE_SECONDS)
        return found
    if (from_currency, to_currency) == ("KES", "EGP"):
        return Rate("KES", "EGP", Decimal(settings.EXCHANGE_RATE_FALLBACK), None, "fallback", True)
    return None


def rate_forget(from_currency="KES", to_currency="EGP"):
    """Drop the cached copy after the row changes."""
    cache.delete(_cache_key(from_currency.upper(), to_currency.upper()))


def convert(amount, rate):
    """Apply the spec's conversion rules: a bad amount gives 0, a bad rate the amount."""
    value = to_decimal(amount)
    if value is None or value <= 0:
        return Decimal("0")
    factor = to_decimal(rate)
    if factor is None or factor <= 0:
        return value
    return value * factor
