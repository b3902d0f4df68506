"""What the shop remembers about an imported product: the content fields staff
edited (a scheduled import never overwrites them) and its import price history.

A leaf of the importer: importer.services (the first import) and importer.sync
(the scheduled update) both write these records, and neither imports the other for them.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from catalog.models import Product
from importer.models import ExternalProduct, ImportedProduct, PriceReason, PriceRecord
from importer.pricing import EGP_LIMIT, import_price

# content fields staff may edit in the dashboard; a scheduled import never writes an edited one
CONTENT_FIELDS = ("title_en", "title_ar", "description_en", "description_ar",
                  "short_description_en", "short_description_ar")
# prices staff may set on an imported product; a scheduled import keeps a set one (the preview still offers it)
PRICE_FIELDS = ("price_amount", "sale_price_amount")
HISTORY_SHOWN = 50


# -- staff edits ------------------------------------------------------------------


def import_state(product: Product, *, created: bool = False) -> ImportedProduct:
    """The product's import record. One made for a product imported before edits were
    tracked counts every content field as edited (nobody can tell any more)."""
    state = ImportedProduct.objects.filter(product=product).first()
    if state is None:
        state = ImportedProduct.objects.create(
            product=product, staff_edited=[] if created else list(CONTENT_FIELDS))
    return state


def staff_edits_record(*, product: Product, fields: Iterable[str]) -> None:
    """Remember that staff changed these content or price fields of an imported product."""
    edited = sorted(set(fields) & {*CONTENT_FIELDS, *PRICE_FIELDS})
    if not product.source_url or not edited:
        return
    state = import_state(product)
    merged = sorted(set(state.staff_edited) | set(edited))
    if merged != state.staff_edited:
        ImportedProduct.objects.filter(pk=state.pk).update(staff_edited=merged)


def staff_stock_record(*, product: Product) -> None:
    """Staff set an imported product's stock: the 0 a scheduled import set is no longer the import's, so the
    producer's being back in stock restocks it no more (a shelf staff filled and customers emptied stays 0)."""
    if product.source_url:
        ImportedProduct.objects.filter(product=product, stock_zeroed=True).update(stock_zeroed=False)


# -- prices -----------------------------------------------------------------------


@dataclass(frozen=True)
class Prices:
    price: object  # EGP shop price (the list price on a sale)
    sale: object  # EGP sale price or None
    kes: object
    kes_original: object
    rate: object
    markup: object

    @property
    def current(self) -> Any:
        return self.sale if self.sale is not None else self.price

    @property
    def sellable(self) -> bool:
        """Whether the price on sale is above 0 EGP (a producer's price of a few cents rounds to nothing) and
        the list price below EGP_LIMIT (a price column holds no more)."""
        return bool(self.current > 0 and self.price < EGP_LIMIT)


def prices_for(item: ExternalProduct, *, config: dict[str, Any]) -> Prices:
    """What an external product costs in the shop: round(KES × rate × (1 + markup/100))."""
    current = import_price(kes=item.price, rate=config["exchange_rate"], markup=config["markup"])
    original = None
    if item.original_price and item.original_price > item.price:
        original = import_price(kes=item.original_price, rate=config["exchange_rate"], markup=config["markup"])
    return Prices(price=original or current, sale=current if original else None, kes=item.price,
                  kes_original=item.original_price if original else None,
                  rate=config["exchange_rate"], markup=config["markup"])


def price_record(*, product: Product, prices: Prices, reason: str) -> PriceRecord:
    """Add a history row when KES, rate, markup or the EGP prices differ from the last one."""
    last = PriceRecord.objects.filter(product=product).first()
    row = {"kes": prices.kes, "kes_original": prices.kes_original, "rate": prices.rate,
           "markup": prices.markup, "egp": prices.price, "sale_egp": prices.sale}
    if last is not None and all(_same(getattr(last, k), v) for k, v in row.items()):
        return last
    return PriceRecord.objects.create(product=product, reason=reason, **row)


def _same(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) < 1e-6 if isinstance(a, float) else a == b


def price_approved(product: Product) -> PriceRecord | None:
    """The prices staff last approved for an imported product: its newest history row an import wrote (its first
    import, an applied preview, an operator's import command), never a scheduled one. A product whose history
    has none (imported before the history was kept) has its first recorded prices; one with no history, None."""
    rows = PriceRecord.objects.filter(product=product)
    return rows.filter(reason=PriceReason.IMPORT).first() or rows.order_by("recorded_at", "pk").first()


def price_history(*, product: Product) -> list[PriceRecord]:
    """The product's import prices, newest first (the product dialog's table)."""
    return list(PriceRecord.objects.filter(product=product)[:HISTORY_SHOWN])
