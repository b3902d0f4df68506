"""Admin API: GET /api/admin/system/info and POST /api/admin/database/init (Owner only)."""

from django.db import transaction
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.api.base import StaffApi
from backoffice.database import database_init, system_info


class SystemInfoApi(StaffApi):
    area = "system"

    @extend_schema(responses=inline_serializer("SystemInfo", {
        "database": serializers.DictField(), "email": serializers.DictField(), "cache": serializers.CharField()}),
        summary="Database and e-mail configuration (read only)")
    def get(self, request):
        return Response(system_info())


class DatabaseInitApi(StaffApi):
    area = "system"
    area_actions = {"POST": "edit"}

    @extend_schema(request=None, responses=inline_serializer("DatabaseInit", {
        "success": serializers.BooleanField(), "status": serializers.CharField(),
        "message": serializers.CharField(), "csvPath": serializers.CharField(allow_null=True),
        "steps": serializers.ListField()}),
        summary="Apply pending migrations and default data (idempotent)")
    def post(self, request):
        result = database_init(actor=request.user)
        result["message"] = {
            "success": _("Database initialized successfully"),
            "partial": _("Automatic initialization failed. Manual setup required."),
            "error": _("Failed to initialize database. Please check your database connection."),
        }[result["status"]]
        return Response(result, status=200 if result["status"] != "error" else 500)


urlpatterns = [
    path("admin/system/info", SystemInfoApi.as_view(), name="admin-system-info"),
    # migrations cannot run inside the request's transaction
    path("admin/database/init", transaction.non_atomic_requests(DatabaseInitApi.as_view()),
         name="admin-database-init"),
]
