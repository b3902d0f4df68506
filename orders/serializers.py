"""What the orders API and the cart and checkout islands read (output only).

Keys are snake_case here; the renderer (and `island_props` for server-rendered
props) writes them in camelCase.
"""

from datetime import date, datetime
from typing import Any

from rest_framework import serializers

from orders.calculations import TotalsLine
from shop.api.money import MoneyField
from shop.validation import safe_url


class AddressInputSerializer(serializers.Serializer[Any]):
    """A delivery address as checkout and the saved-address API take it (validated again by their services)."""

    street = serializers.CharField(required=False, allow_blank=True, default="")
    building = serializers.CharField(required=False, allow_blank=True, default="")
    apartment = serializers.CharField(required=False, allow_blank=True, default="")
    floor = serializers.CharField(required=False, allow_blank=True, default="")
    city = serializers.CharField(required=False, allow_blank=True, default="")
    state = serializers.CharField(required=False, allow_blank=True, default="")
    postal_code = serializers.CharField(required=False, allow_blank=True, default="")
    country = serializers.CharField(required=False, allow_blank=True, default="EGY")


class CartLineOutputSerializer(serializers.Serializer[Any]):
    """One `TotalsLine` of the cart."""

    id = serializers.IntegerField(source="product.pk")
    product_id = serializers.IntegerField(source="product.pk")
    slug = serializers.CharField(source="product.slug")
    title = serializers.CharField(source="product.title")
    image = serializers.SerializerMethodField()
    price = MoneyField(source="product.price_amount")
    sale_price = MoneyField(source="product.sale_price_amount", allow_null=True)
    unit_price = MoneyField()
    quantity = serializers.IntegerField()
    line_total = MoneyField()
    stock = serializers.IntegerField(source="product.stock")

    def get_image(self, line: TotalsLine) -> str:
        return safe_url((line.product.images or [""])[0])


class CartOutputSerializer(serializers.Serializer[Any]):
    """A `CartSummary`: the cart, its totals and its delivery."""

    items = CartLineOutputSerializer(many=True, source="totals.lines")
    item_count = serializers.IntegerField(source="totals.item_count")
    subtotal = MoneyField(source="totals.subtotal")
    discount = MoneyField(source="totals.discount")
    coupon_code = serializers.CharField(source="totals.coupon_code")
    shipping = MoneyField(source="totals.shipping")
    cod_fee = MoneyField(source="totals.cod_fee")
    tax = MoneyField(source="totals.tax")
    tax_rate = serializers.CharField(source="totals.tax_rate")
    prices_include_tax = serializers.BooleanField(source="totals.prices_include_tax")
    total = MoneyField(source="totals.total")
    free_shipping_threshold = MoneyField(source="totals.free_shipping_threshold")
    free_shipping_remaining = MoneyField(source="totals.free_shipping_remaining")
    governorate = serializers.CharField(source="totals.governorate")
    delivery = serializers.CharField()
    cod_available = serializers.BooleanField()


# Bound once: DRF deep-copies every declared field (here 26, with the lines') for each new
# serializer, which cost more than the cart answer itself. to_representation keeps no state.
_CART_OUTPUT = CartOutputSerializer()


def cart_output(summary: Any) -> dict[str, Any]:
    """CartOutputSerializer(summary).data, without building the serializer again (a `CartSummary`)."""
    data: dict[str, Any] = _CART_OUTPUT.to_representation(summary)
    return data


class OrderSummaryOutputSerializer(serializers.Serializer[Any]):
    """An order as the storefront islands read it after checkout and payment (`orders.selectors.OrderSummary`)."""

    order_id = serializers.CharField()
    total = MoneyField()
    email = serializers.CharField()
    payment_id = serializers.CharField()
    payment_method = serializers.CharField()
    payment_status = serializers.CharField()
    status = serializers.CharField()


class _IsoTimeField(serializers.Field[Any, Any, str, Any]):
    """A datetime or date as Python's isoformat (the tracking page's wire format since it was written)."""

    def to_representation(self, value: date | datetime) -> str:
        return value.isoformat()


class TrackingStepOutputSerializer(serializers.Serializer[Any]):
    status = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label (DRF pops it)
    at = _IsoTimeField()
    day = serializers.CharField()


class TrackingItemOutputSerializer(serializers.Serializer[Any]):
    title = serializers.CharField(source="product_title")
    quantity = serializers.IntegerField()
    unit_price = MoneyField(source="unit_price_amount")
    line_total = MoneyField(source="line_total_amount")


class MaskedAddressOutputSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    street = serializers.CharField()
    city = serializers.CharField()
    governorate = serializers.CharField()
    country = serializers.CharField()
    phone = serializers.CharField()


class TrackingDeliveryOutputSerializer(serializers.Serializer[Any]):
    earliest = _IsoTimeField()
    latest = _IsoTimeField()
    text = serializers.CharField()


class ShipmentOutputSerializer(serializers.Serializer[Any]):
    tracking_number = serializers.CharField()
    courier = serializers.CharField()
    note = serializers.CharField()


class TrackingOutputSerializer(serializers.Serializer[Any]):
    """An `orders.tracking.Tracking`: the order as the tracking page and API show it."""

    number = serializers.CharField(source="order.number")
    status = serializers.CharField(source="order.status")
    status_label = serializers.CharField()
    payment_status = serializers.CharField(source="order.payment_status")
    payment_label = serializers.CharField()
    placed_at = _IsoTimeField(source="order.created_at")
    history = TrackingStepOutputSerializer(many=True)
    items = TrackingItemOutputSerializer(many=True)
    subtotal = MoneyField(source="order.subtotal_amount")
    discount = MoneyField(source="order.discount_amount")
    coupon_code = serializers.CharField(source="order.coupon_code")
    shipping = MoneyField(source="order.shipping_amount")
    cod_fee = MoneyField(source="order.cod_fee_amount")
    tax = MoneyField(source="order.tax_amount")
    prices_include_tax = serializers.BooleanField(source="order.prices_include_tax")
    total = MoneyField(source="order.total_amount")
    address = MaskedAddressOutputSerializer()
    delivery = TrackingDeliveryOutputSerializer(allow_null=True)
    shipment = ShipmentOutputSerializer(allow_null=True)
    invoice_url = serializers.CharField()
