"""Admin API: GET and PUT /api/admin/settings (every Store settings field)."""

from decimal import Decimal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings as django_settings
from django.db import transaction
from django.urls import path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.api.base import StaffApi
from backoffice.audit import audit_record
from importer.services import ImporterError, base_url_check
from shop.store_settings import store_settings_get, store_settings_update
from shop.validation import URL_MAX


class SocialSerializer(serializers.Serializer):
    facebook = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
    instagram = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
    twitter = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class SeoSerializer(serializers.Serializer):
    meta_title = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    meta_description = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")
    keywords = serializers.ListField(child=serializers.CharField(max_length=80), required=False, default=list,
                                     max_length=50)


class ExternalSerializer(serializers.Serializer):
    enabled = serializers.BooleanField(required=False)
    # empty, or the IMPORTER_BASE_URL setting itself: follow the setting (README, importer)
    base_url = serializers.CharField(max_length=URL_MAX, required=False, allow_blank=True)
    refresh_interval = serializers.IntegerField(min_value=1, max_value=24 * 30, required=False)
    auto_import = serializers.BooleanField(required=False)
    show_kes_conversion = serializers.BooleanField(required=False)

    def validate_base_url(self, value):
        value = value.strip()
        if not value or value.rstrip("/") == django_settings.IMPORTER_BASE_URL.rstrip("/"):
            return ""
        try:
            base_url_check(value)
        except ImporterError as exc:
            raise serializers.ValidationError(exc.message) from None
        return value


_MONEY = {"max_digits": 12, "decimal_places": 2, "min_value": Decimal("0")}


class SettingsSerializer(serializers.Serializer):
    store_name = serializers.CharField(max_length=120)
    store_email = serializers.EmailField()
    store_phone = serializers.CharField(max_length=40, allow_blank=True)
    store_description = serializers.CharField(allow_blank=True, max_length=2000)
    currency = serializers.CharField(max_length=3)
    timezone = serializers.CharField(max_length=64)
    shipping_rate = serializers.DecimalField(**_MONEY)
    free_shipping_threshold = serializers.DecimalField(**_MONEY)
    tax_rate = serializers.DecimalField(max_digits=5, decimal_places=4, min_value=Decimal("0"), max_value=Decimal("1"))
    prices_include_tax = serializers.BooleanField()
    order_notifications = serializers.BooleanField()
    maintenance_mode = serializers.BooleanField()
    disable_discovery = serializers.BooleanField()
    cod_enabled = serializers.BooleanField()
    cod_fee = serializers.DecimalField(**_MONEY)
    cod_max_total = serializers.DecimalField(**_MONEY, allow_null=True)
    importer_markup = serializers.DecimalField(max_digits=6, decimal_places=2, min_value=Decimal("0"))
    # caps a real shopper never meets (orders.cart, orders.checkout)
    max_quantity_per_line = serializers.IntegerField(min_value=1, max_value=10_000)
    max_quantity_per_order = serializers.IntegerField(min_value=1, max_value=10_000)
    max_unpaid_orders = serializers.IntegerField(min_value=1, max_value=100)
    social_media = SocialSerializer()
    seo = SeoSerializer()
    external_products = ExternalSerializer()


    def validate_timezone(self, value):
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise serializers.ValidationError(_("Unknown time zone")) from None
        return value


_EXTERNAL = {"enabled": "external_enabled", "base_url": "external_base_url",
             "refresh_interval": "external_refresh_interval", "auto_import": "external_auto_import",
             "show_kes_conversion": "show_kes_conversion"}


def settings_data(store):
    seo = store.seo or {}
    return {
        **{name: getattr(store, name) for name in SettingsSerializer().fields
           if name not in ("social_media", "seo", "external_products")},
        "social_media": {k: (store.social_media or {}).get(k, "") for k in ("facebook", "instagram", "twitter")},
        "seo": {"meta_title": seo.get("metaTitle", ""), "meta_description": seo.get("metaDescription", ""),
                "keywords": seo.get("keywords", [])},
        "external_products": {**{key: getattr(store, field) for key, field in _EXTERNAL.items()},
                              "base_url": store.importer_base_url},
    }


def _model_fields(validated):
    fields = dict(validated)
    if "social_media" in fields:
        fields["social_media"] = dict(fields["social_media"])
    if "seo" in fields:
        seo = fields.pop("seo")
        fields["seo"] = {"metaTitle": seo.get("meta_title", ""), "metaDescription": seo.get("meta_description", ""),
                         "keywords": [k.strip() for k in seo.get("keywords", []) if k.strip()]}
    for key, value in (fields.pop("external_products", None) or {}).items():
        fields[_EXTERNAL[key]] = value
    if "currency" in fields:
        fields["currency"] = fields["currency"].upper()
    return fields


class SettingsApi(StaffApi):
    area = "settings"

    @extend_schema(responses=SettingsSerializer, summary="Every store setting")
    def get(self, request):
        return Response(SettingsSerializer(settings_data(store_settings_get())).data)

    @extend_schema(request=SettingsSerializer, responses=SettingsSerializer,
                   summary="Change store settings (send all, or only the fields that change)")
    def put(self, request):
        data = SettingsSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        fields = _model_fields(data.validated_data)
        # a Django ValidationError from the model's full_clean answers 400 naming its field
        with transaction.atomic():
            store = store_settings_update(**fields)
            audit_record(actor=request.user, action="settings.update", details=", ".join(sorted(fields)))
        return Response(SettingsSerializer(settings_data(store)).data)


urlpatterns = [path("admin/settings", SettingsApi.as_view(), name="admin-settings")]
