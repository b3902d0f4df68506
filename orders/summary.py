"""The cart's summary: its totals and when its parcel arrives (cart page, checkout, cart API).

Apart from `orders.cart` because `orders.delivery` reads the governorates from
`orders.checkout`, which uses the cart.
"""

from dataclasses import dataclass

from django.utils.translation import get_language

from catalog.models import Product
from orders.calculations import Totals, cod_limit_exceeded, order_totals
from orders.cart import cart_lines
from orders.delivery import delivery_estimate
from orders.models import Cart, Coupon
from shop.models import StoreSettings
from shop.store_settings import store_settings_get


@dataclass(frozen=True)
class CartSummary:
    """The cart's totals, and when and how its parcel arrives (`orders.serializers.cart_output`)."""

    totals: Totals
    # "Arrives Sun 29 Nov – Tue 1 Dec", once the governorate is known
    delivery: str
    cod_available: bool


def cart_summary(cart: Cart | None, *, payment_method: str | None = None, coupon: Coupon | None = None,
                 governorate: str = "", lines: list[tuple[Product, int]] | None = None,
                 abroad: bool = False) -> CartSummary:
    """The cart and its totals as the islands, the API and the pages see them.

    With a governorate (the shopper's last one, or the one just chosen) the
    shipping is that governorate's and `delivery` says when the parcel arrives.
    `lines`: the cart's lines when the caller has just read them (a cart write's
    CartChange, cart_lines_for_request), else they are read from `cart`.
    `abroad`: an address outside Egypt, where cash on delivery is not offered.
    """
    store = store_settings_get()
    lines = cart_lines(cart) if lines is None else lines
    totals = order_totals(lines=lines, coupon=coupon, payment_method=payment_method, governorate=governorate,
                          store=store)
    estimate = delivery_estimate(governorate=totals.governorate, store=store, language=get_language())
    return CartSummary(totals=totals, delivery=estimate["text"] if totals.governorate else "",
                       cod_available=estimate["cod"] and not abroad and _cod_within_limit(
                           totals, payment_method=payment_method, lines=lines, coupon=coupon,
                           governorate=governorate, store=store))


def _cod_within_limit(totals: Totals, *, payment_method: str | None, lines: list[tuple[Product, int]],
                      coupon: Coupon | None, governorate: str, store: StoreSettings) -> bool:
    """Whether the cart paid on delivery stays within the store's COD limit, as order_place requires: its
    total with the COD fee (`totals` are for `payment_method`; for another method they are computed again)."""
    if store.cod_max_total is None:
        return True
    if payment_method != "cod":
        totals = order_totals(lines=lines, coupon=coupon, payment_method="cod", governorate=governorate, store=store)
    return cod_limit_exceeded(total=totals.total, store=store) is None
