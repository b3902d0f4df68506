"""Admin API: /api/admin/storage/status | refresh | clear | config (Owner only)."""

from django.urls import path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.api.base import StaffApi
from backoffice.storage import INTERVALS, storage_clear, storage_configure, storage_refresh, storage_status

StorageStatus = inline_serializer("StorageStatus", {
    "enabled": serializers.BooleanField(), "refreshInterval": serializers.IntegerField(),
    "databaseAvailable": serializers.BooleanField(), "intervals": serializers.ListField(),
    "cacheStatus": serializers.ListField(),
})


class StorageStatusApi(StaffApi):
    area = "system"

    @extend_schema(responses=StorageStatus, summary="Cache status per table")
    def get(self, request):
        return Response(storage_status())


class StorageRefreshApi(StaffApi):
    area = "system"

    @extend_schema(request=None, responses=StorageStatus, summary="Refresh every table's snapshot")
    def post(self, request):
        return Response(storage_refresh(actor=request.user))


class StorageClearApi(StaffApi):
    area = "system"

    @extend_schema(request=None, responses=StorageStatus, summary="Drop every table's snapshot")
    def post(self, request):
        return Response(storage_clear(actor=request.user))


class StorageConfigApi(StaffApi):
    area = "system"

    class StorageConfigInputSerializer(serializers.Serializer):
        enabled = serializers.BooleanField()
        refresh_interval = serializers.ChoiceField(choices=INTERVALS, required=False, error_messages={
            "invalid_choice": _("Refresh interval must be 1, 5, 10, 15, 30 or 60 minutes")})

    @extend_schema(request=StorageConfigInputSerializer, responses=StorageStatus,
                   summary="Enable caching and set its interval")
    def put(self, request):
        data = self.StorageConfigInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(storage_configure(actor=request.user, **data.validated_data))


urlpatterns = [
    path("admin/storage/status", StorageStatusApi.as_view(), name="admin-storage-status"),
    path("admin/storage/refresh", StorageRefreshApi.as_view(), name="admin-storage-refresh"),
    path("admin/storage/clear", StorageClearApi.as_view(), name="admin-storage-clear"),
    path("admin/storage/config", StorageConfigApi.as_view(), name="admin-storage-config"),
]
