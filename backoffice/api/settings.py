"""Admin API: GET and PUT /api/admin/settings (every Store settings field)."""

from decimal import Decimal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings as django_settings
from django.urls import path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.api.base import StaffApi
from backoffice.store import store_settings_change
from importer.services import ImporterError, base_url_check
from orders.delivery import shipping_table
from shop.store_settings import store_settings_get
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
    tax_registration_number = serializers.CharField(max_length=40, allow_blank=True, required=False)
    # Arabic twins (empty: Arabic pages show the English text)
    store_name_ar = serializers.CharField(max_length=120, allow_blank=True, required=False)
    store_description_ar = serializers.CharField(allow_blank=True, max_length=2000, required=False)
    maintenance_message = serializers.CharField(allow_blank=True, max_length=2000, required=False)
    maintenance_message_ar = serializers.CharField(allow_blank=True, max_length=2000, required=False)
    currency = serializers.CharField(max_length=3)
    timezone = serializers.CharField(max_length=64)
    shipping_rate = serializers.DecimalField(**_MONEY)
    free_shipping_threshold = serializers.DecimalField(**_MONEY)
    # VAT as stored (a fraction, 0.1400) and as staff type it (a percentage, 14.00);
    # a PUT may send either, the percentage wins when both come.
    tax_rate = serializers.DecimalField(max_digits=5, decimal_places=4, min_value=Decimal("0"), max_value=Decimal("1"))
    tax_rate_percent = serializers.DecimalField(max_digits=5, decimal_places=2, min_value=Decimal("0"),
                                                max_value=Decimal("100"), required=False)
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
    seo_ar = SeoSerializer(required=False)
    external_products = ExternalSerializer()
    # delivery by governorate (orders/delivery.py): the default row's days, the table of the 27
    # (rate, minDays, maxDays, cod), weekdays without deliveries (Monday 0 … Sunday 6) and holidays
    delivery_min_days = serializers.IntegerField(min_value=0, max_value=60)
    delivery_max_days = serializers.IntegerField(min_value=0, max_value=60)
    shipping_zones = serializers.ListField(child=serializers.DictField(), max_length=27)
    delivery_days_off = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=6), max_length=7)
    delivery_holidays = serializers.ListField(child=serializers.CharField(max_length=10), max_length=366)
    # click-to-chat number (digits with the country code); empty hides the WhatsApp links
    whatsapp_number = serializers.CharField(max_length=32, allow_blank=True)


    def validate_timezone(self, value):
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise serializers.ValidationError(_("Unknown time zone")) from None
        return value


_EXTERNAL = {"enabled": "external_enabled", "base_url": "external_base_url",
             "refresh_interval": "external_refresh_interval", "auto_import": "external_auto_import",
             "show_kes_conversion": "show_kes_conversion"}


def _seo_out(seo):
    return {"meta_title": seo.get("metaTitle", ""), "meta_description": seo.get("metaDescription", ""),
            "keywords": seo.get("keywords", [])}


def _seo_in(seo):
    # only the keys sent: the rest of the group keeps its stored value (backoffice.store)
    stored = {"metaTitle": seo.get("meta_title"), "metaDescription": seo.get("meta_description"),
              "keywords": None if "keywords" not in seo else [k.strip() for k in seo["keywords"] if k.strip()]}
    return {key: value for key, value in stored.items() if value is not None}


def settings_data(store):
    seo = store.seo or {}
    return {
        **{name: getattr(store, name) for name in SettingsSerializer().fields
           if name not in ("social_media", "seo", "seo_ar", "external_products", "tax_rate_percent", "shipping_zones")},
        "shipping_zones": shipping_table(store),
        "tax_rate_percent": store.tax_rate * 100,
        "social_media": {k: (store.social_media or {}).get(k, "") for k in ("facebook", "instagram", "twitter")},
        "seo": _seo_out(seo),
        "seo_ar": _seo_out(store.seo_ar or {}),
        "external_products": {**{key: getattr(store, field) for key, field in _EXTERNAL.items()},
                              "base_url": store.importer_base_url},
    }


def _model_fields(validated):
    fields = dict(validated)
    if "social_media" in fields:
        fields["social_media"] = dict(fields["social_media"])
    for name in ("seo", "seo_ar"):
        if name in fields:
            fields[name] = _seo_in(fields[name])
    for key, value in (fields.pop("external_products", None) or {}).items():
        fields[_EXTERNAL[key]] = value
    if "tax_rate_percent" in fields:
        fields["tax_rate"] = fields.pop("tax_rate_percent") / 100
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
        store = store_settings_change(actor=request.user, fields=_model_fields(data.validated_data))
        return Response(SettingsSerializer(settings_data(store)).data)


urlpatterns = [path("admin/settings", SettingsApi.as_view(), name="admin-settings")]
