"""Two-step sign-in of the staff member signed in (any staff member, for their own account), and the
Owner's reset of another's: thin views over backoffice.two_step."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.cache import add_never_cache_headers
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from accounts.models import User
from backoffice.api.base import StaffApi
from backoffice.two_step import (
    enrolment_confirm,
    enrolment_start,
    recovery_codes_left,
    two_step_disable,
    two_step_enabled,
    two_step_reset,
)

_StatusSerializer = inline_serializer("TwoStepStatus", {
    "enabled": serializers.BooleanField(), "recoveryCodesLeft": serializers.IntegerField()})


def _never_cached(response):
    """The answer holds a secret (the app's key, the recovery codes): no browser or proxy keeps it."""
    add_never_cache_headers(response)
    return response


def _status(user):
    return {"enabled": two_step_enabled(user), "recovery_codes_left": recovery_codes_left(user)}


class TwoStepApi(StaffApi):
    area = None  # any staff member, for their own account

    @extend_schema(responses=_StatusSerializer, summary="Whether two-step sign-in is on for me")
    def get(self, request):
        return Response(_status(request.user))


class _PasswordAndCodeSerializer(serializers.Serializer):
    """Turning two-step sign-in on or off: the current password (a session alone may not) and a code."""

    class Meta:
        ref_name = "TwoStepPasswordAndCodeInput"

    code = serializers.CharField(required=False, allow_blank=True, default="", max_length=64)
    password = serializers.CharField(required=False, allow_blank=True, default="", trim_whitespace=False,
                                     max_length=4096)


class TwoStepSetupApi(StaffApi):
    area = None

    @extend_schema(request=None, responses=inline_serializer("TwoStepSetupOutput", {
        "secret": serializers.CharField(), "uri": serializers.CharField(), "qrSvg": serializers.CharField()}),
        summary="Start turning two-step sign-in on: a new secret and its QR code")
    def post(self, request):
        return _never_cached(Response(enrolment_start(user=request.user)))


class TwoStepConfirmApi(StaffApi):
    area = None
    throttle_scope = "sign_in"

    InputSerializer = _PasswordAndCodeSerializer

    @extend_schema(request=InputSerializer, responses=inline_serializer("TwoStepConfirmOutput", {
        "enabled": serializers.BooleanField(), "recoveryCodes": serializers.ListField()}),
        summary="Turn two-step sign-in on with a code from the app and the current password; answers the "
                "recovery codes once")
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        codes = enrolment_confirm(user=request.user, code=data.validated_data["code"],
                                  password=data.validated_data["password"], request=request._request,
                                  token=request.auth)
        return _never_cached(Response({"enabled": True, "recovery_codes": codes}))


class TwoStepDisableApi(StaffApi):
    area = None
    throttle_scope = "sign_in"

    InputSerializer = _PasswordAndCodeSerializer

    @extend_schema(request=InputSerializer, responses=_StatusSerializer,
                   summary="Turn my two-step sign-in off (current password and a code)")
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        two_step_disable(request=request._request, user=request.user, password=data.validated_data["password"],
                         code=data.validated_data["code"])
        return Response(_status(request.user))


class TwoStepResetApi(StaffApi):
    area = "system"
    area_actions = {"POST": "edit"}

    @extend_schema(request=None, responses=inline_serializer("TwoStepResetOutput", {
        "success": serializers.BooleanField()}),
        summary="Take another staff member's two-step sign-in off, e.g. a lost phone (Owner only)")
    def post(self, request, pk):
        user = get_object_or_404(User.objects.filter(is_staff=True), pk=pk)
        two_step_reset(actor=request.user, user=user)
        return Response({"success": True})


urlpatterns = [
    path("admin/two-step", TwoStepApi.as_view(), name="admin-two-step"),
    path("admin/two-step/setup", TwoStepSetupApi.as_view(), name="admin-two-step-setup"),
    path("admin/two-step/confirm", TwoStepConfirmApi.as_view(), name="admin-two-step-confirm"),
    path("admin/two-step/disable", TwoStepDisableApi.as_view(), name="admin-two-step-disable"),
    path("admin/users/admin/<id:pk>/two-step/reset", TwoStepResetApi.as_view(), name="admin-two-step-reset"),
]
