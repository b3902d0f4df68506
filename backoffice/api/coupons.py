"""Coupons section: list, create, and deactivate (or reactivate)."""

from decimal import Decimal

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.api.base import StaffApi
from backoffice.api.fields import DayOrDateTimeField
from backoffice.api.tables import PAGING_PARAMETERS, page_serializer, paginate, search_filter
from backoffice.marketing import (
    CODE_LENGTH,
    GENERATE_MAX,
    PREFIX_MAX,
    coupon_create,
    coupon_set_active,
    coupons_generate,
)
from backoffice.selectors import coupon_orders
from orders.models import Coupon, CouponType


class CouponSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()
    type = serializers.CharField()
    value = serializers.DecimalField(max_digits=12, decimal_places=2)
    minimum_order = serializers.DecimalField(source="minimum_order_amount", max_digits=12, decimal_places=2)
    expiry_date = serializers.DateTimeField(allow_null=True)
    usage_limit = serializers.IntegerField(allow_null=True)
    used_count = serializers.IntegerField()
    is_active = serializers.BooleanField()
    is_expired = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()

    def get_is_expired(self, coupon) -> bool:
        return bool(coupon.expiry_date and coupon.expiry_date < timezone.now())


class CouponListApi(StaffApi):
    area = "coupons"

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "CouponListInput"

        code = serializers.RegexField(
            r"^[A-Za-z0-9_-]+$", max_length=40,
            error_messages={"invalid": _("Use letters, digits, - and _ only")},
        )
        type = serializers.ChoiceField(choices=CouponType.values)
        value = serializers.DecimalField(max_digits=12, decimal_places=2, min_value=Decimal("0.01"))
        minimum_order = serializers.DecimalField(
            max_digits=12, decimal_places=2, min_value=Decimal("0"), required=False, default=Decimal("0")
        )
        expiry_date = DayOrDateTimeField(required=False, allow_null=True, end_of_day=True, default=None)
        usage_limit = serializers.IntegerField(min_value=0, required=False, allow_null=True, default=None)
        is_active = serializers.BooleanField(required=False, default=True)

        def validate_code(self, code):
            return code.strip().upper()

    @extend_schema(parameters=[OpenApiParameter("search", str)], responses=CouponSerializer(many=True))
    def get(self, request):
        coupons = search_filter(Coupon.objects.order_by("-created_at", "-pk"),
                                request.query_params.get("search"), ["code"])
        return Response(CouponSerializer(coupons, many=True).data)

    @extend_schema(request=InputSerializer, responses={201: CouponSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        fields["minimum_order_amount"] = fields.pop("minimum_order")
        coupon = coupon_create(actor=request.user, **fields)
        return Response(CouponSerializer(coupon).data, status=201)


class CouponDetailApi(StaffApi):
    area = "coupons"

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "CouponDetailInput"

        is_active = serializers.BooleanField()

    @extend_schema(request=InputSerializer, responses=CouponSerializer)
    def put(self, request, coupon_id):
        coupon = get_object_or_404(Coupon, pk=coupon_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        coupon = coupon_set_active(actor=request.user, coupon=coupon, is_active=data.validated_data["is_active"])
        return Response(CouponSerializer(coupon).data)


class CouponGenerateApi(StaffApi):
    """Create many coupons at once: the same discount, random readable codes after a prefix."""

    area = "coupons"

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "CouponGenerateInput"

        prefix = serializers.CharField(max_length=PREFIX_MAX, required=False, allow_blank=True, default="",
                                       trim_whitespace=True)
        count = serializers.IntegerField(min_value=1, max_value=GENERATE_MAX)
        type = serializers.ChoiceField(choices=CouponType.values)
        value = serializers.DecimalField(max_digits=12, decimal_places=2, min_value=Decimal("0.01"))
        minimum_order = serializers.DecimalField(
            max_digits=12, decimal_places=2, min_value=Decimal("0"), required=False, default=Decimal("0")
        )
        expiry_date = DayOrDateTimeField(required=False, allow_null=True, end_of_day=True, default=None)
        # one use per code unless told: a generated code is usually handed to one customer
        usage_limit = serializers.IntegerField(min_value=0, required=False, allow_null=True, default=1)
        is_active = serializers.BooleanField(required=False, default=True)

    @extend_schema(request=InputSerializer, responses={201: CouponSerializer(many=True)})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        fields["minimum_order_amount"] = fields.pop("minimum_order")
        coupons = coupons_generate(actor=request.user, length=CODE_LENGTH, **fields)
        return Response(CouponSerializer(coupons, many=True).data, status=201)


class CouponOrderSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.CharField()
    created_at = serializers.DateTimeField()
    customer_name = serializers.CharField()
    email = serializers.EmailField()
    status = serializers.CharField()
    payment_status = serializers.CharField()
    discount = serializers.DecimalField(source="discount_amount", max_digits=12, decimal_places=2)
    total = serializers.DecimalField(source="total_amount", max_digits=12, decimal_places=2)


class CouponOrdersApi(StaffApi):
    """The orders that used one coupon, newest first, paged."""

    area = "coupons"

    @extend_schema(parameters=PAGING_PARAMETERS, responses=page_serializer("CouponOrderPage", CouponOrderSerializer))
    def get(self, request, coupon_id):
        coupon = get_object_or_404(Coupon, pk=coupon_id)
        return Response(paginate(request, coupon_orders(coupon=coupon),
                                 lambda rows: CouponOrderSerializer(rows, many=True).data))


urlpatterns = [
    path("admin/coupons", CouponListApi.as_view(), name="admin-coupons"),
    path("admin/coupons/<id:coupon_id>", CouponDetailApi.as_view(), name="admin-coupon-detail"),
    path("admin/coupons/generate", CouponGenerateApi.as_view(), name="admin-coupons-generate"),
    path("admin/coupons/<id:coupon_id>/orders", CouponOrdersApi.as_view(), name="admin-coupon-orders"),
]
