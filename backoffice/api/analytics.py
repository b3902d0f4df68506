"""Analytics section: sales figures for a period, wrapped in `data`."""

from decimal import Decimal

from django.http import HttpResponse
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.analytics import PERIODS, analytics_get
from backoffice.api.base import StaffApi
from backoffice.exports import analytics_csv
from shop.errors import ShopError
from shop.store_time import store_localdate

DEFAULT_PERIOD = "30d"


def _as_json(value):
    """Money as "123.45" strings, like every serializer's DecimalField."""
    if isinstance(value, dict):
        return {key: _as_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_json(item) for item in value]
    if isinstance(value, Decimal):
        return str(value)
    return value


class AnalyticsApi(StaffApi):
    area = "analytics"

    @extend_schema(
        parameters=[OpenApiParameter("period", str, enum=list(PERIODS), default=DEFAULT_PERIOD)],
        responses=inline_serializer("AnalyticsResponse", {"data": serializers.JSONField()}),
    )
    def get(self, request):
        return Response({"data": _as_json(analytics_get(period=_period(request)))})


def _period(request):
    period = request.query_params.get("period") or DEFAULT_PERIOD
    if period not in PERIODS:
        raise ShopError(_("Choose a period of 7d, 30d, 90d or 1y"), field="period")
    return period


class AnalyticsExportApi(StaffApi):
    """What the analytics section shows for a period, as CSV in the staff member's language."""

    area = "analytics"

    @extend_schema(parameters=[OpenApiParameter("period", str, enum=list(PERIODS), default=DEFAULT_PERIOD)],
                   responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request):
        period = _period(request)
        response = HttpResponse(analytics_csv(data=analytics_get(period=period)),
                                content_type="text/csv; charset=utf-8")
        filename = f"analytics-{period}-{store_localdate().isoformat()}.csv"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


urlpatterns = [
    path("admin/analytics", AnalyticsApi.as_view(), name="admin-analytics"),
    path("admin/analytics/export", AnalyticsExportApi.as_view(), name="admin-analytics-export"),
]
