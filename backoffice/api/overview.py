"""Admin API: GET /api/admin/dashboard (an unwrapped stats object, DECISIONS.md)."""

from django.urls import path
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from accounts.roles import has_permission
from backoffice.alerts import daily_summary_opt
from backoffice.api.base import StaffApi
from backoffice.api.emails import FailedEmailSerializer
from backoffice.audit import audit_entry_data, audit_recent
from backoffice.outbox import MAIL_AREA
from backoffice.selectors import dashboard_stats, low_stock_products
from importer.models import ImporterRun
from shop import health
from shop.api.money import MoneyField
from shop.outbox import outbox_failed_count, outbox_failed_list
from shop.rates import rate_status
from shop.tasks import failed_job_label, failed_jobs_recent

FAILED_JOB_DAYS = 7
_money = MoneyField()


class FailedJobSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.SerializerMethodField()  # what the job does, in the reader's language
    task = serializers.CharField()
    error = serializers.CharField()
    failed_at = serializers.DateTimeField()

    def get_label(self, job) -> str:
        return failed_job_label(job.task)


def _system_status():

    worker_ok, worker_seen = health.worker_seen_recently()
    rate = rate_status("KES", "EGP")
    run = ImporterRun.objects.order_by("-created_at").first()
    run = run.as_seen() if run else None  # a crawl whose worker died: failed
    return {
        "database": {"ok": health.database_ok()},
        "broker": {"ok": health.broker_ok(), "kind": health.broker_description()},
        "worker": {"ok": worker_ok, "last_seen": worker_seen},
        # the fallback rate (no provider has answered yet) or a failed last
        # refresh is shown as a problem, with the reason
        "exchange_rate": {
            "ok": rate.ok,
            "rate": str(rate.rate.normalize()),
            "source": rate.source,
            "last_updated": rate.last_updated,
            "last_error": rate.last_error,
            "is_fallback": rate.is_fallback,
            # a service's answer that moved too far from the stored rate, refused (shop.rates.RATE_MAX_DAILY_MOVE)
            "refused_rate": str(rate.refused_rate) if rate.refused_rate is not None else None,
            "refused_percent": rate.refused_percent,
        },
        "last_import": {
            "status": run.status if run else None,
            "finished_at": (run.finished_at or run.created_at) if run else None,
            "products_found": run.products_found if run else 0,
        },
    }


class DashboardApi(StaffApi):
    area = "overview"

    @extend_schema(
        responses=inline_serializer("DashboardStats", {
            "totalProducts": serializers.IntegerField(), "totalOrders": serializers.IntegerField(),
            "pendingOrders": serializers.IntegerField(), "totalRevenue": serializers.DecimalField(14, 2),
            "totalCustomers": serializers.IntegerField(), "lowStockProducts": serializers.IntegerField(),
            "outOfStockProducts": serializers.IntegerField(),
            "unreadMessages": serializers.IntegerField(), "attentionOrders": serializers.IntegerField(),
            "recentActivity": serializers.ListField(),
            "lowStockList": serializers.ListField(), "systemStatus": serializers.DictField(),
            # only for roles that may see mail (MAIL_AREA): absent for the others
            "failedEmails": serializers.IntegerField(required=False),
            "failedEmailList": FailedEmailSerializer(many=True, required=False),
            "capturedOnCancelled": serializers.DecimalField(14, 2),
            "failedJobs": serializers.IntegerField(required=False),
            "failedJobList": FailedJobSerializer(many=True, required=False),
            "dailySummary": serializers.BooleanField(),
        }),
        summary="Overview: stats, alerts, system status and recent activity",
    )
    def get(self, request):
        stats = dashboard_stats()
        stats["total_revenue"] = _money.to_representation(stats["total_revenue"])
        stats["captured_on_cancelled"] = _money.to_representation(stats["captured_on_cancelled"])
        data = {
            **stats,
            "recent_activity": [audit_entry_data(e) for e in audit_recent(limit=10, viewer=request.user)],
            "low_stock_list": [{"id": p.pk, "title": p.title, "stock": p.stock} for p in low_stock_products()],
            "system_status": _system_status(),
            "daily_summary": request.user.daily_summary,
        }
        if has_permission(request.user, MAIL_AREA, "view"):
            data["failed_emails"] = outbox_failed_count()
            data["failed_email_list"] = FailedEmailSerializer(outbox_failed_list(limit=10), many=True).data
            count, jobs = failed_jobs_recent(days=FAILED_JOB_DAYS, limit=10)
            data["failed_jobs"] = count
            data["failed_job_list"] = FailedJobSerializer(jobs, many=True).data
        return Response(data)


class DailySummaryApi(StaffApi):
    """The signed-in staff member's own daily summary e-mail: on or off."""

    area = None  # any staff member, for themself

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "DailySummaryInput"

        enabled = serializers.BooleanField()

    @extend_schema(request=InputSerializer,
                   responses=inline_serializer("DailySummary", {"enabled": serializers.BooleanField()}))
    def put(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = daily_summary_opt(user=request.user, enabled=data.validated_data["enabled"])
        return Response({"enabled": user.daily_summary})


urlpatterns = [
    path("admin/dashboard", DashboardApi.as_view(), name="admin-dashboard"),
    path("admin/me/daily-summary", DailySummaryApi.as_view(), name="admin-daily-summary"),
]
