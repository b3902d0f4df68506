"""Public catalogue API: products and reviews (spec section 7)."""

from typing import Any, overload
from urllib.parse import urlencode

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.models import Product
from catalog.selectors import product_get, product_list, review_list_approved
from catalog.serializers import ProductOutputSerializer, ReviewOutputSerializer
from catalog.services import review_create
from catalog.stock_alerts import stock_alert_request
from catalog.suggest import Entry, suggest
from shop.errors import ShopError
from shop.money import format_egp
from shop.site_url import site_url
from shop.templatetags.shop_tags import safe_url

MAX_LIMIT = 200


@overload
def _int_param(value: object, default: int, *, low: int = 0, high: int | None = None) -> int: ...


@overload
def _int_param(value: object, default: None, *, low: int = 0, high: int | None = None) -> int | None: ...


def _int_param(value: object, default: int | None, *, low: int = 0, high: int | None = None) -> int | None:
    try:
        number = int(str(value).strip()[:10])
    except (TypeError, ValueError):
        return default
    number = max(number, low)
    return min(number, high) if high is not None else number


class ProductListApi(APIView):
    """All active products, optionally filtered, sorted and paged."""

    authentication_classes = []

    @extend_schema(
        parameters=[
            OpenApiParameter("category", str), OpenApiParameter("search", str),
            OpenApiParameter("price", str), OpenApiParameter("sort", str),
            OpenApiParameter("limit", int), OpenApiParameter("offset", int),
        ],
        responses=ProductOutputSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        params = request.query_params
        products = product_list(
            category=params.get("category"), search=params.get("search"),
            price=params.get("price"), sort=params.get("sort"),
        )
        offset = _int_param(params.get("offset"), 0)
        limit = _int_param(params.get("limit"), None, low=1, high=MAX_LIMIT) if "limit" in params else None
        page = products[offset: offset + limit] if limit else products[offset:]
        return Response(ProductOutputSerializer(page, many=True).data)


class ProductDetailApi(APIView):
    authentication_classes = []

    @extend_schema(responses=ProductOutputSerializer)
    def get(self, request: Request, slug: str) -> Response:
        product = product_get(slug=slug)
        if product is None:
            raise ShopError(_("Product not found"), status=404)
        return Response(ProductOutputSerializer(product).data)


class ReviewApi(APIView):
    """GET the approved reviews of a product; POST a review as the signed-in customer."""

    throttle_scope = "review"

    class InputSerializer(serializers.Serializer[Any]):
        product_id = serializers.IntegerField(required=False)
        rating = serializers.JSONField(required=False)
        title = serializers.JSONField(required=False)
        comment = serializers.JSONField(required=False)

    @extend_schema(parameters=[OpenApiParameter("productId", int, required=True)],
                   responses=ReviewOutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        product_id = _int_param(request.query_params.get("productId"), None, low=1)
        if product_id is None:
            raise ShopError(_("No product id provided"), field="productId")
        reviews = review_list_approved(product=product_id).select_related("product")
        return Response(ReviewOutputSerializer(reviews, many=True).data)

    @extend_schema(request=InputSerializer, responses={201: ReviewOutputSerializer})
    def post(self, request: Request) -> Response:
        user = request.user
        if not user.is_authenticated:
            raise ShopError(_("Please login to submit a review"), status=401)
        data = request.data if isinstance(request.data, dict) else {}
        product_id = _int_param(data.get("product_id"), None, low=1)
        product = Product.objects.filter(pk=product_id, is_active=True).first() if product_id else None
        if product is None:
            raise ShopError(_("Product not found"), field="productId", status=404)
        review = review_create(
            user=user, product=product, rating=data.get("rating"),
            title=data.get("title"), comment=data.get("comment"),
        )
        return Response(
            {
                "message": _("Review submitted successfully! It will be visible after approval."),
                "review": ReviewOutputSerializer(review).data,
            },
            status=201,
        )


class StockAlertApi(APIView):
    """Notify me when an out-of-stock product is back: one confirmation e-mail first (double opt-in)."""

    throttle_scope = "stock_alert"

    class InputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "StockAlertInput"

        email = serializers.CharField(required=False, allow_blank=True, default="")

    @extend_schema(request=InputSerializer, responses=inline_serializer("StockAlertAnswer", {
        "message": serializers.CharField()}), summary="Ask for one e-mail when the product is back in stock")
    def post(self, request: Request, product_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        stock_alert_request(product_id=product_id, email=data.validated_data["email"], language=get_language(),
                            base_url=site_url(request))
        return Response({"message": _("Almost done: we sent you an e-mail. Open its link to confirm the alert.")},
                        status=202)
class SearchSuggestApi(APIView):
    """Products and categories for what the shopper has typed (from the 2nd character)."""

    authentication_classes = []

    @extend_schema(
        parameters=[OpenApiParameter("q", str), OpenApiParameter("lang", str, enum=["en", "ar"])],
        responses=inline_serializer("SearchSuggestions", {
            "query": serializers.CharField(),
            "products": serializers.ListField(child=serializers.DictField()),
            "categories": serializers.ListField(child=serializers.DictField()),
            "allUrl": serializers.CharField(),
        }),
    )
    def get(self, request: Request) -> Response:
        query = request.query_params.get("q", "")
        query = query.replace("\x00", "")[:100] if isinstance(query, str) else ""
        language = request.query_params.get("lang")
        language = language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
        products, categories = suggest(query)

        def title(entry: Entry) -> str:
            return (entry.title_ar if language == "ar" and entry.title_ar else entry.title_en)

        with translation.override(language):
            product_urls = [reverse("catalog:product-detail", args=[p.slug]) for p in products]
            shop_url = reverse("catalog:shop")
        body = {
            "query": query,
            "products": [{
                "title": title(p), "url": url,
                "price": format_egp(p.shown_price, language),
                "image": safe_url(p.image),
            } for p, url in zip(products, product_urls)],
            "categories": [{"title": title(c), "url": f"{shop_url}?category={c.slug}"} for c in categories],
            "allUrl": f"{shop_url}?{urlencode({'search': query.strip()})}",
        }
        response = Response(body)
        response["Cache-Control"] = "public, max-age=60"
        return response
