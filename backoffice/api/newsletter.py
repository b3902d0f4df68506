"""Newsletter section: the subscriber list and its CSV export."""

from django.db.models import Q
from django.http import StreamingHttpResponse
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiTypes, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.api.base import StaffApi
from backoffice.api.tables import PAGING_PARAMETERS, page_serializer, paginate, search_filter
from backoffice.exports import subscribers_csv
from shop.errors import ShopError
from shop.models import NewsletterSubscriber
from shop.store_time import store_localdate

# the subscriber's status (NewsletterSubscriber.status) as a filter: only "active" addresses are mailed
STATUSES = {
    "active": Q(is_active=True, confirmed_at__isnull=False),
    "pending": Q(is_active=True, confirmed_at__isnull=True),
    "unsubscribed": Q(is_active=False),
}
# The subscriber list is marketing data: it sits with coupons and announcements.
AREA = "coupons"


class SubscriberSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    email = serializers.EmailField()
    is_active = serializers.BooleanField()
    status = serializers.ChoiceField(choices=list(STATUSES))
    language = serializers.CharField()
    created_at = serializers.DateTimeField()


def _subscribers(request):
    subscribers = search_filter(NewsletterSubscriber.objects.order_by("-created_at", "-pk"),
                                request.query_params.get("search"), ["email"])
    status = request.query_params.get("status") or "all"
    if status != "all":
        if status not in STATUSES:
            raise ShopError(_("Unknown subscriber status"), field="status")
        subscribers = subscribers.filter(STATUSES[status])
    return subscribers


STATUS_PARAMETER = OpenApiParameter("status", str, enum=["all", *STATUSES])


class SubscriberListApi(StaffApi):
    area = AREA

    class OutputSerializer(page_serializer("SubscriberPage", SubscriberSerializer)):
        class Meta:
            ref_name = "SubscriberListOutput"

        active_count = serializers.IntegerField()

    @extend_schema(parameters=[*PAGING_PARAMETERS, STATUS_PARAMETER], responses=OutputSerializer)
    def get(self, request):
        page = paginate(request, _subscribers(request), lambda rows: SubscriberSerializer(rows, many=True).data)
        page["active_count"] = NewsletterSubscriber.objects.filter(STATUSES["active"]).count()
        return Response(page)


class SubscriberExportApi(StaffApi):
    """Every listed subscriber's e-mail as CSV: the "export" right (Owner, Manager), not "view"."""

    area = AREA
    area_actions = {"GET": "export"}

    @extend_schema(parameters=[OpenApiParameter("search", str), STATUS_PARAMETER],
                   responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request):
        rows = subscribers_csv(subscribers=_subscribers(request))
        response = StreamingHttpResponse(rows, content_type="text/csv; charset=utf-8")
        filename = f"newsletter-subscribers-{store_localdate().isoformat()}.csv"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


urlpatterns = [
    path("admin/newsletter", SubscriberListApi.as_view(), name="admin-newsletter"),
    path("admin/newsletter/export", SubscriberExportApi.as_view(), name="admin-newsletter-export"),
]
