"""The importer's EGP price: round(KES × rate × (1 + markup/100))."""

from decimal import Decimal

from shop.money import round_whole, to_decimal

# the EGP price columns hold 12 digits, 2 after the point: a price the KES column holds may convert to more (a
# large markup), which PostgreSQL refuses to write; such a price is refused, as one that makes 0 EGP
EGP_LIMIT = Decimal("10000000000")


def import_price(*, kes, rate, markup):
    """EGP shelf price for a KES price, rounded to whole pounds (DECISIONS.md)."""
    kes, rate, markup = to_decimal(kes), to_decimal(rate), to_decimal(markup, Decimal("0"))
    if kes is None or kes <= 0 or rate is None or rate <= 0:
        return Decimal("0")
    return round_whole(kes * rate * (1 + markup / Decimal("100")))


def plain(number):
    """A rate or markup as staff read it: without trailing zeros or an exponent (0.40000000 → 0.4, 100.00 → 100)."""
    return format(Decimal(number).normalize(), "f")
