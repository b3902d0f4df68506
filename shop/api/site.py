from decimal import Decimal

from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from shop.contact import contact_message_create
from shop.errors import ShopError
from shop.money import quantize
from shop.newsletter import SUBSCRIBE_ANSWER, newsletter_subscribe
from shop.rates import convert, rate_get
from shop.selectors import announcement_list_shown
from shop.site_url import site_url
from shop.store_settings import store_settings_get


class ExternalProductsSettingsSerializer(serializers.Serializer):
    enabled = serializers.BooleanField()
    base_url = serializers.CharField()
    refresh_interval = serializers.IntegerField()
    auto_import = serializers.BooleanField()
    show_kes_conversion = serializers.BooleanField()


class ShownSeoSerializer(serializers.Serializer):
    meta_title = serializers.CharField()
    meta_description = serializers.CharField()
    keywords = serializers.ListField(child=serializers.CharField())


class PublicSettingsSerializer(serializers.Serializer):
    """The public settings in the request's language (Arabic texts fall back to the English ones)."""

    language = serializers.SerializerMethodField()
    store_name = serializers.CharField(source="shown_name")
    store_email = serializers.EmailField()
    store_phone = serializers.CharField()
    store_description = serializers.CharField(source="shown_description")
    currency = serializers.CharField()
    timezone = serializers.CharField()
    shipping_rate = serializers.DecimalField(max_digits=12, decimal_places=2)
    free_shipping_threshold = serializers.DecimalField(max_digits=12, decimal_places=2)
    tax_rate = serializers.DecimalField(max_digits=5, decimal_places=4)
    prices_include_tax = serializers.BooleanField()
    maintenance_mode = serializers.BooleanField()
    disable_discovery = serializers.BooleanField()
    maintenance_message = serializers.CharField(source="shown_maintenance_message")
    social_media = serializers.JSONField()
    seo = serializers.SerializerMethodField()
    external_products = serializers.SerializerMethodField()

    def get_language(self, obj) -> str:
        return get_language()

    @extend_schema_field(ShownSeoSerializer)
    def get_seo(self, obj):
        return {"metaTitle": obj.shown_meta_title, "metaDescription": obj.shown_meta_description,
                "keywords": obj.shown_keywords}

    @extend_schema_field(ExternalProductsSettingsSerializer)
    def get_external_products(self, obj):
        return {
            "enabled": obj.external_enabled,
            "baseUrl": obj.importer_base_url,
            "refreshInterval": obj.external_refresh_interval,
            "autoImport": obj.external_auto_import,
            "showKesConversion": obj.show_kes_conversion,
        }


def _in_request_language(response):
    """A response whose words follow Accept-Language or the language cookie: caches must key on both."""
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


class SettingsApi(APIView):
    """The public store settings (no secrets, no staff-only values), in the language the request asks
    for (Accept-Language, or the language cookie)."""

    authentication_classes = []

    @extend_schema(responses=PublicSettingsSerializer)
    def get(self, request):
        return _in_request_language(Response(PublicSettingsSerializer(store_settings_get()).data))


# --- announcements, newsletter, contact ---------------------------------------

class AnnouncementOutputSerializer(serializers.Serializer):
    """An announcement as a page in the request's language shows it; `language` is its text's
    language ("en" on an Arabic request when staff chose to show the English text: isolate it)."""

    id = serializers.IntegerField(source="pk")
    title = serializers.CharField()
    content = serializers.CharField()
    link = serializers.CharField()
    link_label = serializers.CharField()
    language = serializers.CharField(source="lang")
    display_start_date = serializers.DateTimeField()
    display_end_date = serializers.DateTimeField()
    banner_color = serializers.CharField()
    background_color = serializers.CharField(source="banner_color")
    text_color = serializers.CharField()
    is_active = serializers.BooleanField(default=True)
    is_main = serializers.BooleanField()


class AnnouncementListApi(APIView):
    """Announcements active now, main first (the bar shows the main one, else a random one), in the
    request's language: Arabic requests get the Arabic text, or the English one for announcements
    staff chose to show in English, and none of those staff chose to hide on Arabic pages."""

    authentication_classes = []

    @extend_schema(responses=AnnouncementOutputSerializer(many=True))
    def get(self, request):
        shown = announcement_list_shown(language=get_language())
        return _in_request_language(Response(AnnouncementOutputSerializer(shown, many=True).data))


def _body(request):
    return request.data if isinstance(request.data, dict) else {}


class NewsletterApi(APIView):
    throttle_scope = "newsletter"
    authentication_classes = []

    class InputSerializer(serializers.Serializer):
        email = serializers.CharField()

    @extend_schema(request=InputSerializer, responses={200: dict, 201: dict})
    def post(self, request):
        newsletter_subscribe(email=_body(request).get("email"), language=get_language(), site_url=site_url(request))
        return Response({"success": True, "message": SUBSCRIBE_ANSWER}, status=201)


class ContactApi(APIView):
    throttle_scope = "contact"
    authentication_classes = []

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField()
        email = serializers.CharField()
        subject = serializers.CharField()
        message = serializers.CharField()

    @extend_schema(request=InputSerializer, responses={201: dict})
    def post(self, request):
        body = _body(request)
        saved = contact_message_create(
            name=body.get("name"), email=body.get("email"),
            subject=body.get("subject"), message=body.get("message"),
        )
        return Response(
            {"success": True, "id": saved.pk,
             "message": _("Thank you for your message! We'll get back to you soon.")},
            status=201,
        )


# --- exchange rates -----------------------------------------------------------

def _rate_or_error(from_currency, to_currency):
    from_currency = (from_currency or "").strip().upper()[:3]
    to_currency = (to_currency or "").strip().upper()[:3]
    rate = rate_get(from_currency, to_currency) if from_currency.isalpha() and to_currency.isalpha() else None
    if rate is None:
        raise ShopError(
            _("Exchange rate for %(from)s to %(to)s is not available. Please try again later.")
            % {"from": from_currency or "?", "to": to_currency or "?"},
            status=404,
        )
    return rate


def _rate_text(value):
    return f"{value.quantize(Decimal('0.000001'))}"


class ExchangeRateApi(APIView):
    """GET /api/exchange-rate?from=KES&to=EGP → {rate}."""

    authentication_classes = []

    @extend_schema(parameters=[OpenApiParameter("from", str), OpenApiParameter("to", str)], responses=dict)
    def get(self, request):
        rate = _rate_or_error(request.query_params.get("from", "KES"), request.query_params.get("to", "EGP"))
        return Response({
            "rate": _rate_text(rate.rate), "from": rate.from_currency, "to": rate.to_currency,
            "lastUpdated": rate.last_updated, "source": rate.source, "isFallback": rate.is_fallback,
        })


class KesToEgpRateApi(APIView):
    authentication_classes = []

    @extend_schema(responses=dict)
    def get(self, request):
        rate = _rate_or_error("KES", "EGP")
        return Response({
            "success": True, "rate": _rate_text(rate.rate),
            "timestamp": rate.last_updated or timezone.now(),
            "base": "KES", "target": "EGP", "source": rate.source,
        })


class KesToEgpConvertApi(APIView):
    authentication_classes = []

    @extend_schema(request=dict, responses=dict)
    def post(self, request):
        rate = _rate_or_error("KES", "EGP")
        amount = convert(_body(request).get("amount"), rate.rate)
        return Response({
            "success": True, "rate": _rate_text(rate.rate),
            "converted": {"amount": f"{quantize(amount)}", "currency": "EGP"},
        })
