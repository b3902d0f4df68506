"""Money: Decimal with two places, and how EGP and KES are written.

The only rounding code in the shop. Everything else calls `quantize`.
"""

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

CENTS = Decimal("0.01")


def to_decimal(value: object, default: Decimal | None = None) -> Decimal | None:
    """Read a number from user input or JSON as Decimal, never via float."""
    if isinstance(value, Decimal):
        return value
    if value is None or isinstance(value, bool):
        return default
    try:
        result = Decimal(str(value).strip().replace(",", ""))
    except (InvalidOperation, ValueError):
        return default
    return result if result.is_finite() else default


def quantize(amount: Decimal | int | str) -> Decimal:
    """Round to piasters, half up (the way a shop rounds)."""
    return Decimal(amount).quantize(CENTS, rounding=ROUND_HALF_UP)


def round_whole(amount: Decimal | int | str) -> Decimal:
    """Round to whole pounds, half up (importer prices)."""
    return Decimal(amount).quantize(Decimal("1"), rounding=ROUND_HALF_UP)


def allocate(amount: Decimal, weights: list[Decimal]) -> list[Decimal]:
    """Share `amount` (whole piasters) across `weights` in proportion, in whole piasters that add up to
    `amount` exactly: each share rounded down, the piasters left over going one each to the largest
    remainders (the earliest weight first on a tie). Equal shares when every weight is 0."""
    cents = int(quantize(amount) * 100)
    total = sum(weights, Decimal("0"))
    if not weights:
        return []
    if total == 0:
        weights, total = [Decimal("1")] * len(weights), Decimal(len(weights))
    exact = [Decimal(cents) * weight / total for weight in weights]
    shares = [int(part) for part in exact]  # towards zero: down, amounts and weights being positive
    by_remainder = sorted(range(len(weights)), key=lambda n: (-(exact[n] - shares[n]), n))
    for n in by_remainder[:cents - sum(shares)]:
        shares[n] += 1
    return [Decimal(share) / 100 for share in shares]


def to_minor_units(amount: Decimal | int | str) -> int:
    """EGP to piasters as an int, for payment providers."""
    return int(quantize(amount) * 100)


def _grouped(amount: Decimal, places: int) -> str:
    return f"{amount:,.{places}f}"


def format_egp(amount: Decimal | int | str, language: str = "en") -> str:
    """`E£1,234.50` in English, `1,234.50 ج.م` in Arabic; below zero `-E£50.00`, `-50.00 ج.م`.

    The minus sign follows a left-to-right mark (as CLDR writes Arabic with Latin digits): without it,
    right-to-left text moves it to the number's right ("50.00-"). static_src/lib/money.js writes the same."""
    value = quantize(amount)
    minus = "\u200e-" if value < 0 else ""
    text = _grouped(abs(value), 2)
    return f"{minus}{text}\u00a0ج.م" if language == "ar" else f"{minus}E£{text}"


def format_kes(amount: Decimal | int | str, language: str = "en") -> str:
    """`KSh 1,234` in English, `1,234 شلن` in Arabic (whole shillings)."""
    text = _grouped(round_whole(amount), 0)
    if language == "ar":
        return f"{text}\u00a0شلن"
    return f"KSh\u00a0{text}"


def money_text(amount: Decimal | int | str) -> str:
    """`1234.50`: money as plain text with two places (CSV, JSON-LD, stored settings).

    The API writes money with `shop.api.money.MoneyField`, which gives the same text.
    """
    return f"{quantize(amount):.2f}"
