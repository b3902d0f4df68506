"""Admin API: products (paged list, create, update, delete, Delete All), CSV, generators, images."""

import re

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiTypes,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response

from backoffice import product_csv
from backoffice.api.base import StaffApi
from backoffice.api.tables import PAGING_PARAMETERS, page_serializer, paginate
from backoffice.product_input import ProductInputSerializer
from backoffice.products import (
    category_suggest,
    image_upload,
    product_categorize,
    product_delete,
    product_delete_all,
    product_describe,
    product_save,
)
from backoffice.selectors import ARABIC_MISSING, PRODUCT_SORTS, product_admin_counts, product_admin_list
from catalog.models import Product
from catalog.pricing import Availability
from shop.errors import ShopError

MAX_BATCH = 5
STOCK_WARNING_BELOW = 10


class AdminProductOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    title = serializers.CharField(source="title_en")
    title_ar = serializers.CharField(allow_null=True)
    short_description = serializers.CharField(source="short_description_en", allow_null=True)
    short_description_ar = serializers.CharField(allow_null=True)
    description = serializers.CharField(source="description_en", allow_null=True)
    description_ar = serializers.CharField(allow_null=True)
    brewing_instructions = serializers.CharField(source="brewing_instructions_en", allow_null=True)
    brewing_instructions_ar = serializers.CharField(allow_null=True)
    price = serializers.DecimalField(source="price_amount", max_digits=12, decimal_places=2)
    sale_price = serializers.DecimalField(source="sale_price_amount", max_digits=12, decimal_places=2, allow_null=True)
    images = serializers.ListField(child=serializers.CharField())
    rating = serializers.DecimalField(max_digits=3, decimal_places=2)
    review_count = serializers.IntegerField()
    colors = serializers.ListField(child=serializers.CharField())
    is_new = serializers.BooleanField()
    is_active = serializers.BooleanField()
    is_featured = serializers.BooleanField()
    category = serializers.CharField(source="category.slug")
    category_name = serializers.CharField(source="category.name")
    tags = serializers.ListField(child=serializers.CharField())
    flavor_notes = serializers.ListField(child=serializers.CharField())
    ingredients = serializers.ListField(child=serializers.CharField())
    tags_ar = serializers.ListField(child=serializers.CharField())
    flavor_notes_ar = serializers.ListField(child=serializers.CharField())
    ingredients_ar = serializers.ListField(child=serializers.CharField())
    # the API names of fields with English text and no Arabic twin
    arabic_missing = serializers.ListField(child=serializers.CharField())
    # brought in by the importer (its Arabic title is for staff to write)
    is_imported = serializers.SerializerMethodField()
    stock = serializers.IntegerField()
    # out | low (10 or less) | in, and the table's red mark (below 10, spec 9)
    stock_status = serializers.SerializerMethodField()
    stock_warning = serializers.SerializerMethodField()
    waiting_alerts = serializers.SerializerMethodField()
    caffeine_level = serializers.CharField()
    source_url = serializers.CharField()  # set on imported products (their price history is shown)
    created_at = serializers.DateTimeField()


    def get_is_imported(self, product) -> bool:
        return bool(product.source_url)

    def get_stock_status(self, product) -> str:
        return Availability.status(product.stock)

    def get_stock_warning(self, product) -> bool:
        return product.stock < STOCK_WARNING_BELOW

    def get_waiting_alerts(self, product) -> int:
        """Shoppers waiting for a back-in-stock e-mail (confirmed, unsent); set by the inventory list."""
        return getattr(product, "waiting_alerts", 0)


def _products():
    return Product.objects.select_related("category").order_by("-created_at", "-pk")


_SLUG = re.compile(r"[-\w]{1,60}")
LIST_PARAMETERS = [
    *PAGING_PARAMETERS,
    OpenApiParameter("category", str, description="a category's slug"),
    OpenApiParameter("arabic", str, enum=list(ARABIC_MISSING),
                     description="only products missing Arabic text: the title, any field, an imported one's title"),
    OpenApiParameter("sort", str, enum=[f"{sign}{key}" for key in PRODUCT_SORTS for sign in ("", "-")],
                     description="a column, descending with a leading '-'; newest first without"),
]


def _listed(request):
    """The products the table's search, filters and sort (query parameters) select."""
    params = request.query_params
    category = params.get("category", "")
    products = product_admin_list(search=params.get("search", ""), category=category,
                                  arabic=params.get("arabic", ""), sort=params.get("sort", ""))
    return products if not category or _SLUG.fullmatch(category) else products.none()


class AdminProductCounts(serializers.Serializer):
    all = serializers.IntegerField()
    arabic_title = serializers.IntegerField()
    arabic_any = serializers.IntegerField()
    arabic_imported = serializers.IntegerField()


class AdminProductPageSerializer(page_serializer("AdminProductPageBase", AdminProductOutputSerializer)):
    counts = AdminProductCounts(help_text="every product, and those missing Arabic text (whatever the filters)")


class ProductListApi(StaffApi):
    area = "products"

    def get_permissions(self):
        # Delete All is its own right (DECISIONS: Owner only)
        if self.request.method == "DELETE":
            self.area = "delete_all_products"
        return super().get_permissions()

    @extend_schema(parameters=LIST_PARAMETERS, responses=AdminProductPageSerializer,
                   summary="Products, paged: searched, filtered and sorted on the server")
    def get(self, request):
        page = paginate(request, _listed(request), lambda rows: AdminProductOutputSerializer(rows, many=True).data)
        return Response({**page, "counts": product_admin_counts()})

    @extend_schema(request=ProductInputSerializer, responses={201: AdminProductOutputSerializer},
                   summary="Create a product")
    def post(self, request):
        data = ProductInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        product = product_save(actor=request.user, data=data.model_fields())
        return Response(AdminProductOutputSerializer(_products().get(pk=product.pk)).data, status=201)

    @extend_schema(responses=inline_serializer("DeleteAllOutput", {"deleted": serializers.IntegerField()}),
                   summary="Delete every product (Owner only)")
    def delete(self, request):
        return Response({"deleted": product_delete_all(actor=request.user)})


class ProductIdsApi(StaffApi):
    """Every product's id (or those the filters select): what Auto Categorize walks in batches."""

    area = "products"

    @extend_schema(parameters=LIST_PARAMETERS[2:],
                   responses=inline_serializer("AdminProductIds", {"ids": serializers.ListField(
                       child=serializers.IntegerField())}),
                   summary="The ids of the products the filters select, in the table's order")
    def get(self, request):
        return Response({"ids": list(_listed(request).values_list("pk", flat=True))})


class ProductDetailApi(StaffApi):
    area = "products"

    @extend_schema(request=ProductInputSerializer, responses=AdminProductOutputSerializer,
                   summary="Update a product (fields not sent stay as they are)")
    def put(self, request, pk):
        product = get_object_or_404(Product, pk=pk)
        data = ProductInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        product_save(actor=request.user, product=product, data=data.model_fields())
        return Response(AdminProductOutputSerializer(_products().get(pk=pk)).data)

    @extend_schema(responses={204: None}, summary="Delete a product")
    def delete(self, request, pk):
        product_delete(actor=request.user, product=get_object_or_404(Product, pk=pk))
        return Response(status=204)


# Apply one rule-based service (`rule(actor=, product=)`) to one product; answer it as saved.
class _ProductRuleApi(StaffApi):
    area = "products"
    area_actions = {"POST": "edit"}
    rule = None

    def post(self, request, pk):
        product = get_object_or_404(Product.objects.select_related("category"), pk=pk)
        type(self).rule(actor=request.user, product=product)
        return Response(AdminProductOutputSerializer(_products().get(pk=pk)).data)


@extend_schema_view(post=extend_schema(request=None, responses=AdminProductOutputSerializer,
                                       summary="Categorise one product by rule"))
class ProductCategorizeApi(_ProductRuleApi):
    """AI categorize for one product (the spec's rule-based generator)."""

    rule = staticmethod(product_categorize)


@extend_schema_view(post=extend_schema(request=None, responses=AdminProductOutputSerializer,
                                       summary="Write a description by rule"))
class ProductDescribeApi(_ProductRuleApi):
    rule = staticmethod(product_describe)


class ProductBulkCategorizeApi(StaffApi):
    """Auto Categorize: the dashboard sends the products in batches of five."""

    area = "products"
    area_actions = {"POST": "edit"}

    class BulkCategorizeInputSerializer(serializers.Serializer):
        ids = serializers.ListField(child=serializers.IntegerField(), min_length=1, max_length=MAX_BATCH,
                                    error_messages={"min_length": _("No products to categorize")})

    @extend_schema(request=BulkCategorizeInputSerializer, responses=AdminProductOutputSerializer(many=True),
                   summary=f"Categorise up to {MAX_BATCH} products by rule")
    def post(self, request):
        data = self.BulkCategorizeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ids = data.validated_data["ids"]
        for product in Product.objects.select_related("category").filter(pk__in=ids):
            product_categorize(actor=request.user, product=product)
        return Response(AdminProductOutputSerializer(_products().filter(pk__in=ids), many=True).data)


class CategorySuggestApi(StaffApi):
    """The form's Auto Categorize: a suggestion for unsaved form values."""

    area = "products"
    area_actions = {"POST": "view"}

    class SuggestInputSerializer(serializers.Serializer):
        title = serializers.CharField(required=False, allow_blank=True, default="")
        description = serializers.CharField(required=False, allow_blank=True, default="")
        price = serializers.DecimalField(max_digits=12, decimal_places=2, required=False, allow_null=True)

    @extend_schema(request=SuggestInputSerializer,
                   responses=inline_serializer("CategorySuggestion", {"category": serializers.CharField(),
                                                                      "tags": serializers.ListField()}),
                   summary="Suggest a category for form values")
    def post(self, request):
        data = self.SuggestInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        category, tags = category_suggest(**data.validated_data)
        return Response({"category": category, "tags": tags})


class ProductExportApi(StaffApi):
    area = "products"

    @extend_schema(parameters=LIST_PARAMETERS[2:], responses={(200, "text/csv"): OpenApiTypes.STR},
                   summary="The products the list's search, filters and sort select (every one without), as CSV")
    def get(self, request):
        response = HttpResponse(product_csv.products_export(products=_listed(request)),
                                content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="products.csv"'
        return response


class ProductImportApi(StaffApi):
    area = "products"
    area_actions = {"POST": "create"}
    parser_classes = [MultiPartParser]

    @extend_schema(
        request={"multipart/form-data": inline_serializer("ProductImportInput", {"file": serializers.FileField()})},
        responses=inline_serializer("ProductImportOutput", {
            "created": serializers.IntegerField(), "updated": serializers.IntegerField(),
            "unchanged": serializers.IntegerField(), "errors": serializers.ListField()}),
        summary="Create or update products from a CSV export",
    )
    def post(self, request):
        upload = request.FILES.get("file")
        if upload is None:
            raise ShopError(_("Please choose a CSV file"), field="file")
        return Response(product_csv.product_csv_import(actor=request.user, upload=upload))


class ProductImageUploadApi(StaffApi):
    area = "products"
    area_actions = {"POST": "edit"}
    parser_classes = [MultiPartParser]

    @extend_schema(
        request={"multipart/form-data": inline_serializer("ImageUploadInput", {"image": serializers.ImageField()})},
        responses=inline_serializer("ImageUploadOutput", {"url": serializers.CharField()}),
        summary="Upload a product image into media",
    )
    def post(self, request):
        upload = request.FILES.get("image")
        if upload is None:
            raise ShopError(_("Please choose an image"), field="image")
        return Response({"url": image_upload(actor=request.user, upload=upload)}, status=201)


urlpatterns = [
    path("admin/products", ProductListApi.as_view(), name="admin-products"),
    path("admin/products/ids", ProductIdsApi.as_view(), name="admin-products-ids"),
    path("admin/products/export", ProductExportApi.as_view(), name="admin-products-export"),
    path("admin/products/import", ProductImportApi.as_view(), name="admin-products-import"),
    path("admin/products/categorize", ProductBulkCategorizeApi.as_view(), name="admin-products-categorize"),
    path("admin/products/suggest-category", CategorySuggestApi.as_view(), name="admin-products-suggest"),
    path("admin/products/images", ProductImageUploadApi.as_view(), name="admin-products-images"),
    path("admin/products/<id:pk>", ProductDetailApi.as_view(), name="admin-product"),
    path("admin/products/<id:pk>/categorize", ProductCategorizeApi.as_view(), name="admin-product-categorize"),
    path("admin/products/<id:pk>/describe", ProductDescribeApi.as_view(), name="admin-product-describe"),
]
