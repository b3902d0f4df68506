"""Reorder: put a past order's lines back in the cart, saying which could not be."""

from dataclasses import dataclass, field

from django.http import HttpRequest
from django.utils.translation import gettext as _
from rest_framework.request import Request

from orders import cart as carts
from orders.cart import CartError
from orders.models import Order


@dataclass
class ReorderResult:
    added: list[str] = field(default_factory=list)  # titles put back at the quantity bought
    reduced: list[str] = field(default_factory=list)  # titles put back, fewer than bought (stock or caps)
    unavailable: list[str] = field(default_factory=list)  # titles no longer sold or out of stock

    def messages(self) -> list[tuple[str, str]]:
        """What to tell the shopper: one line per group that is not empty."""
        lines = []
        if self.added or self.reduced:
            added = ", ".join(self.added + self.reduced)
            lines.append(("success", _("Added to your cart: %(items)s") % {"items": added}))
        if self.reduced:
            lines.append(("warning", _("Fewer than before, as that is all we have: %(items)s")
                          % {"items": ", ".join(self.reduced)}))
        if self.unavailable:
            lines.append(("error", _("No longer available: %(items)s") % {"items": ", ".join(self.unavailable)}))
        return lines


def order_reorder(*, request: HttpRequest | Request, order: Order) -> ReorderResult:
    """Add each still-available line of `order` to the visitor's cart, at most what stock and caps allow."""
    owner = carts.cart_owner(request, create=True)
    quantities = {product.pk: quantity for product, quantity in carts.cart_lines_for_request(request)}
    result = ReorderResult()
    for item in order.items.select_related("product").order_by("pk"):
        product = item.product
        title = product.title if product is not None else item.product_title
        if product is None or not product.is_active:
            result.unavailable.append(title)
            continue
        before = quantities.get(product.pk, 0)
        try:
            change = carts.cart_line_add(owner=owner, product_id=product.pk, quantity=item.quantity)
        except CartError:
            result.unavailable.append(title)
            continue
        quantities = {each.pk: quantity for each, quantity in change.lines}
        (result.added if quantities[product.pk] - before >= item.quantity else result.reduced).append(title)
    return result
