"""The importer's EGP price: round(KES × rate × (1 + markup/100))."""

from decimal import Decimal

from shop.money import round_whole, to_decimal


def import_price(*, kes, rate, markup):
    """EGP shelf price for a KES price, rounded to whole pounds (DECISIONS.md)."""
    kes, rate, markup = to_decimal(kes), to_decimal(rate), to_decimal(markup, Decimal("0"))
    if kes is None or kes <= 0 or rate is None or rate <= 0:
        return Decimal("0")
    return round_whole(kes * rate * (1 + markup / Decimal("100")))
