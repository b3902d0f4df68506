"""Stock reservation: conditional UPDATEs in primary-key order, never below zero.

Modelled on Saleor's allocate_stocks: every line is tried, and one error lists
every product that is short, so the customer sees the whole picture at once.
"""

from collections.abc import Iterable

from django.db.models import F
from django.utils.translation import gettext as _

from catalog.cache import catalog_changed_now_and_on_commit
from catalog.models import Product


class InsufficientStock(Exception):
    """One or more products cannot cover the quantities asked for."""

    def __init__(self, products: Iterable[Product]) -> None:
        self.products = list(products)
        names = ", ".join(p.title for p in self.products)
        self.message = _("Not enough stock for: %(products)s") % {"products": names}
        super().__init__(self.message)


def _merged(lines: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    quantities: dict[int, int] = {}
    for product_id, quantity in lines:
        quantities[product_id] = quantities.get(product_id, 0) + int(quantity)
    return sorted(quantities.items())  # pk order: concurrent reservations lock alike


def stock_reserve(*, lines: Iterable[tuple[int, int]]) -> None:
    """Take `lines` [(product_id, quantity)] out of stock, or raise InsufficientStock.

    Call inside the caller's transaction: on error the caller rolls back the
    lines already taken. Each UPDATE only matches while enough stock is left,
    so two checkouts racing for the last unit cannot both win (the row lock
    PostgreSQL takes for the UPDATE re-checks the condition).
    """
    short = []
    for product_id, quantity in _merged(lines):
        taken = Product.objects.filter(pk=product_id, is_active=True, stock__gte=quantity).update(
            stock=F("stock") - quantity
        )
        if not taken:
            short.append(product_id)
    if short:
        raise InsufficientStock(Product.objects.filter(pk__in=short).order_by("pk"))
    catalog_changed_now_and_on_commit()  # stock badges on cached pages


def stock_release(*, lines: Iterable[tuple[int, int]]) -> None:
    """Put `lines` [(product_id, quantity)] back into stock."""
    for product_id, quantity in _merged(lines):
        Product.objects.filter(pk=product_id).update(stock=F("stock") + quantity)
    catalog_changed_now_and_on_commit()
