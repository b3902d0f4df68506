from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from shop.store_settings import store_settings_get


class PublicSettingsSerializer(serializers.Serializer):
    store_name = serializers.CharField()
    store_email = serializers.EmailField()
    store_phone = serializers.CharField()
    store_description = serializers.CharField()
    currency = serializers.CharField()
    timezone = serializers.CharField()
    shipping_rate = serializers.DecimalField(max_digits=12, decimal_places=2)
    free_shipping_threshold = serializers.DecimalField(max_digits=12, decimal_places=2)
    tax_rate = serializers.DecimalField(max_digits=5, decimal_places=4)
    prices_include_tax = serializers.BooleanField()
    maintenance_mode = serializers.BooleanField()
    disable_discovery = serializers.BooleanField()
    social_media = serializers.JSONField()
    seo = serializers.JSONField()
    external_products = serializers.SerializerMethodField()

    def get_external_products(self, obj):
        return {
            "enabled": obj.external_enabled,
            "baseUrl": obj.external_base_url,
            "refreshInterval": obj.external_refresh_interval,
            "autoImport": obj.external_auto_import,
            "showKesConversion": obj.show_kes_conversion,
        }


class SettingsApi(APIView):
    """The public store settings (no secrets, no staff-only values)."""

    authentication_classes = []

    @extend_schema(responses=PublicSettingsSerializer)
    def get(self, request):
        return Response(PublicSettingsSerializer(store_settings_get()).data)
