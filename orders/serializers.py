"""What the orders API and the cart and checkout islands read (output only).

Keys are snake_case here; the renderer (and `island_props` for server-rendered
props) writes them in camelCase.
"""

from datetime import date, datetime
from typing import Any

from rest_framework import serializers

from orders.calculations import TotalsLine
from orders.summary import CartSummary
from shop.api.money import MoneyField
from shop.money import money_text
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


def _line_output(line: TotalsLine) -> dict[str, Any]:
    product = line.product
    sale = product.sale_price_amount
    return {
        "id": product.pk, "product_id": product.pk, "slug": product.slug, "title": product.title,
        "image": safe_url((product.images or [""])[0]), "price": money_text(product.price_amount),
        "sale_price": None if sale is None else money_text(sale), "unit_price": money_text(line.unit_price),
        "quantity": line.quantity, "line_total": money_text(line.line_total), "stock": product.stock,
    }


def cart_output(summary: CartSummary) -> dict[str, Any]:
    """The cart as the API and the islands read it (`orders.api.CartSchema`): its lines, totals and delivery.

    A plain function rather than a serializer: every cart write answers with it, and DRF's fields
    took longer than the totals themselves (issue 14). Money is text with two places, as MoneyField
    writes it.
    """
    totals = summary.totals
    return {
        "items": [_line_output(line) for line in totals.lines],
        "item_count": totals.item_count,
        "subtotal": money_text(totals.subtotal),
        "discount": money_text(totals.discount),
        "coupon_code": totals.coupon_code,
        "shipping": money_text(totals.shipping),
        "cod_fee": money_text(totals.cod_fee),
        "tax": money_text(totals.tax),
        "tax_rate": str(totals.tax_rate),
        "prices_include_tax": totals.prices_include_tax,
        "total": money_text(totals.total),
        "free_shipping_threshold": money_text(totals.free_shipping_threshold),
        "free_shipping_remaining": money_text(totals.free_shipping_remaining),
        "governorate": totals.governorate,
        "delivery": summary.delivery,
        "cod_available": summary.cod_available,
    }


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
    invoice_url = serializers.CharField(allow_null=True)
    # while a kiosk payment is pending: the reference to pay with at an Aman or Masary outlet, else ""
    kiosk_reference = serializers.CharField()
