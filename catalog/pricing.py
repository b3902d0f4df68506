"""The price a shopper pays and how it is shown: the one place that decides it.

Modelled on Oscar's PurchaseInfo: callers ask `price_info(product)` and never
compare sale and list prices themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from django.db.models import F, Q

from shop.money import quantize

if TYPE_CHECKING:
    from catalog.models import Product


@dataclass(frozen=True)
class PriceInfo:
    price: Decimal  # what one unit costs now (EGP, VAT included by default)
    original_price: Decimal | None  # the list price when on sale, else None
    kes_price: Decimal | None  # the producer's price, for the KES display

    @property
    def on_sale(self) -> bool:
        return self.original_price is not None

    @property
    def save_amount(self) -> Decimal:
        return quantize(self.original_price - self.price) if self.original_price is not None else Decimal("0.00")

    @property
    def percent_off(self) -> int:
        """Whole percent off the list price, rounded down (never overstated)."""
        if not self.original_price:
            return 0
        return int((self.original_price - self.price) * 100 / self.original_price)


# The SQL twin of unit_price's test: the product is on sale now.
ON_SALE = Q(sale_price_amount__isnull=False, sale_price_amount__lt=F("price_amount"))


def unit_price(product: Product) -> Decimal:
    """What one unit of `product` costs now: the sale price if lower, else the price."""
    sale = product.sale_price_amount
    if sale is not None and sale < product.price_amount:
        return quantize(sale)
    return quantize(product.price_amount)


def price_info(product: Product) -> PriceInfo:
    price = unit_price(product)
    original = quantize(product.price_amount) if price < product.price_amount else None
    return PriceInfo(price=price, original_price=original, kes_price=product.kes_price_amount)


class Availability:
    """Stock status for badges and purchase checks (Oscar's availability)."""

    LOW_STOCK = 10

    @staticmethod
    def status(stock: int) -> str:
        if stock <= 0:
            return "out"
        return "low" if stock <= Availability.LOW_STOCK else "in"

    @staticmethod
    def stock_filter(status: str) -> Q:
        """The rule of status() as a query filter, so counts in SQL agree with the badges."""
        return {
            "out": Q(stock__lte=0),
            "low": Q(stock__gte=1, stock__lte=Availability.LOW_STOCK),
            "in": Q(stock__gt=Availability.LOW_STOCK),
        }[status]

    @staticmethod
    def purchase_problem(product: Product) -> str:
        """Why `product` cannot be put in a cart at all: "inactive", "out_of_stock", or ""."""
        if not product.is_active:
            return "inactive"
        if product.stock <= 0:
            return "out_of_stock"
        return ""

    @staticmethod
    def purchasable_quantity(product: Product, wanted: int) -> int:
        """How many of `wanted` units can be had: never more than the stock on hand."""
        return max(min(wanted, product.stock), 0)
