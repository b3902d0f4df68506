"""Admin API: PUT /api/admin/inventory/<id> (add | subtract | set), audited."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.api.base import StaffApi
from backoffice.api.products import AdminProductOutputSerializer
from backoffice.product_input import STOCK_MAX
from backoffice.products import StockAction, stock_adjust
from backoffice.selectors import stock_counts
from catalog.models import Product
from catalog.pricing import Availability
from catalog.stock_alerts import stock_alert_waiting_counts


class InventoryListApi(StaffApi):
    area = "products"

    @extend_schema(
        responses=inline_serializer("Inventory", {
            "summary": serializers.DictField(), "lowStock": AdminProductOutputSerializer(many=True),
            "products": AdminProductOutputSerializer(many=True)}),
        summary="Stock of every product, with the summary cards and the low-stock list",
    )
    def get(self, request):
        products = list(Product.objects.select_related("category").order_by("stock", "title_en"))
        waiting = stock_alert_waiting_counts()
        for product in products:
            product.waiting_alerts = waiting.get(product.pk, 0)
        low = [p for p in products if Availability.status(p.stock) != "in"]
        return Response({"summary": stock_counts(), "low_stock": AdminProductOutputSerializer(low, many=True).data,
                         "products": AdminProductOutputSerializer(products, many=True).data})


class InventoryUpdateApi(StaffApi):
    area = "products"

    class InventoryInputSerializer(serializers.Serializer):
        action = serializers.ChoiceField(choices=StockAction.ALL, error_messages={
            "invalid_choice": _("Action must be add, subtract or set")})
        stock = serializers.IntegerField(min_value=0, max_value=STOCK_MAX, error_messages={
            "invalid": _("Stock must be a whole number of 0 or more"),
            "max_value": _("Stock can be at most {max_value}"),
            "min_value": _("Stock must be a whole number of 0 or more")})

    @extend_schema(request=InventoryInputSerializer, responses=AdminProductOutputSerializer,
                   summary="Add to, subtract from or set a product's stock (never below 0)")
    def put(self, request, pk):
        product = get_object_or_404(Product.objects.select_related("category"), pk=pk)
        data = self.InventoryInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        stock_adjust(actor=request.user, product=product, action=data.validated_data["action"],
                     amount=data.validated_data["stock"])
        product.waiting_alerts = stock_alert_waiting_counts(product_ids=[product.pk]).get(product.pk, 0)
        return Response(AdminProductOutputSerializer(product).data)


urlpatterns = [
    path("admin/inventory", InventoryListApi.as_view(), name="admin-inventory-list"),
    path("admin/inventory/<id:pk>", InventoryUpdateApi.as_view(), name="admin-inventory")]
