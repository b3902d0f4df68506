"""Admin API: POST /api/admin/emails/<id>/retry resends an e-mail the outbox gave up on."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.api.base import StaffApi
from backoffice.outbox import MAIL_AREA, failed_email_retry
from shop.models import OutboundEmail, OutboundEmailStatus
from shop.outbox import LAPSED_ERROR


class FailedEmailSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    to = serializers.EmailField()
    subject = serializers.CharField()
    language = serializers.CharField()
    status = serializers.CharField()
    attempts = serializers.IntegerField()
    last_error = serializers.CharField()  # as stored: the mail server's own words, a detail for whoever fixes it
    reason = serializers.SerializerMethodField()  # why it failed in the reader's language, when the shop knows

    def get_reason(self, email) -> str:
        return _(LAPSED_ERROR) if email.last_error == LAPSED_ERROR else ""
    last_attempt_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class FailedEmailRetryApi(StaffApi):
    area = MAIL_AREA
    area_actions = {"POST": "edit"}

    @extend_schema(request=None, responses=FailedEmailSerializer, summary="Send a failed e-mail again")
    def post(self, request, email_id):
        email = get_object_or_404(OutboundEmail, pk=email_id, status=OutboundEmailStatus.FAILED)
        failed_email_retry(actor=request.user, email=email)
        return Response(FailedEmailSerializer(email).data)


urlpatterns = [
    path("admin/emails/<id:email_id>/retry", FailedEmailRetryApi.as_view(), name="admin-email-retry"),
]
