"""Order totals: the one path for cart, checkout, e-mail and API.

Prices come from catalog.pricing.unit_price, shipping and VAT from the store
settings, rounding from shop.money. Nothing here trusts a browser.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from catalog.models import Product
from catalog.pricing import unit_price
from orders.delivery import zone_for
from orders.models import Coupon
from orders.places import governorate_stored
from shop.models import StoreSettings
from shop.money import allocate, quantize
from shop.store_settings import store_settings_get

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class TotalsLine:
    product: Product
    quantity: int
    unit_price: Decimal
    line_total: Decimal


@dataclass(frozen=True)
class Totals:
    lines: list[TotalsLine] = field(default_factory=list)
    item_count: int = 0
    subtotal: Decimal = ZERO
    discount: Decimal = ZERO
    shipping: Decimal = ZERO
    cod_fee: Decimal = ZERO
    tax: Decimal = ZERO
    total: Decimal = ZERO
    prices_include_tax: bool = True
    tax_rate: Decimal = ZERO
    free_shipping_threshold: Decimal = ZERO
    # how much more to spend for free shipping; 0 once reached
    free_shipping_remaining: Decimal = ZERO
    coupon_code: str = ""
    # the governorate the shipping was computed for ("" for the default row)
    governorate: str = ""


def coupon_discount(coupon: Coupon | None, subtotal: Decimal) -> Decimal:
    """The discount `coupon` gives on `subtotal`, never more than the subtotal."""
    if coupon is None:
        return ZERO
    if coupon.type == "percentage":
        amount = subtotal * min(coupon.value, Decimal("100")) / Decimal("100")
    else:
        amount = coupon.value
    return quantize(min(amount, subtotal))


def cod_limit_exceeded(*, total: Decimal, store: StoreSettings) -> Decimal | None:
    """The store's cash-on-delivery limit (`cod_max_total`) when a cash-on-delivery order of `total` (its COD
    fee included) is over it, else None: the one rule for placing it, offering it and the summary."""
    if store.cod_max_total is None or total <= quantize(store.cod_max_total):
        return None
    return quantize(store.cod_max_total)


def line_discounts(*, discount: Decimal, line_totals: list[Decimal]) -> list[Decimal]:
    """Each line's share of an order's coupon `discount`, in proportion to its line total, in whole
    piasters adding up to `discount` exactly (a discount names no product; sales per product count
    what each line sold for after its share)."""
    return [quantize(share) for share in allocate(discount, line_totals)]


def order_totals(*, lines: Iterable[tuple[Product, int]], coupon: Coupon | None = None,
                 payment_method: str | None = None, store: StoreSettings | None = None,
                 governorate: str = "") -> Totals:
    """Compute the totals of `lines` [(product, quantity)].

    Shipping is free when the subtotal (before discount) reaches the
    threshold; below it the rate is the delivery governorate's
    (`orders.delivery`, the default row for none or outside Egypt). VAT is
    included in the prices by default ("Includes VAT"), or added on top when
    the store says prices exclude it. The COD fee applies only to cash on
    delivery.
    """
    store = store or store_settings_get()
    zone = zone_for(governorate=governorate, store=store)
    rows = []
    for product, quantity in lines:
        price = unit_price(product)
        rows.append(TotalsLine(product, int(quantity), price, quantize(price * int(quantity))))
    subtotal = quantize(sum((r.line_total for r in rows), ZERO))
    item_count = sum(r.quantity for r in rows)
    discount = coupon_discount(coupon, subtotal)
    threshold = quantize(store.free_shipping_threshold)
    if not rows or subtotal >= threshold:
        shipping = ZERO
    else:
        shipping = zone.rate
    remaining = quantize(threshold - subtotal) if rows and subtotal < threshold else ZERO
    cod_fee = quantize(store.cod_fee) if payment_method == "cod" and rows else ZERO
    # Egyptian VAT follows the goods onto what is charged with them: delivery and the COD fee are taxed too
    taxable = subtotal - discount + shipping + cod_fee
    rate = Decimal(store.tax_rate)
    if store.prices_include_tax:
        tax = quantize(taxable * rate / (1 + rate))
        total = quantize(taxable)
    else:
        tax = quantize(taxable * rate)
        total = quantize(taxable + tax)
    return Totals(
        lines=rows, item_count=item_count, subtotal=subtotal, discount=discount,
        shipping=shipping, cod_fee=cod_fee, tax=tax, total=total,
        prices_include_tax=store.prices_include_tax, tax_rate=rate,
        free_shipping_threshold=threshold, free_shipping_remaining=remaining,
        coupon_code=coupon.code if coupon else "", governorate=governorate_stored(governorate),
    )

