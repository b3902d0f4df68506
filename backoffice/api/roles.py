"""Admin API: GET /api/admin/roles (any staff); /api/admin/users/admin and sign-in lockouts (Owner only)."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from accounts.lockout import lockouts_active
from accounts.models import Role, User
from accounts.roles import AREAS, MATRIX, permissions_for
from backoffice.api.base import StaffApi
from backoffice.sections import ROLE_LABELS
from backoffice.staff import (
    ASSIGNABLE_ROLES,
    sign_in_unlock,
    staff_create,
    staff_delete,
    staff_update,
)
from backoffice.two_step import two_step_enabled, with_two_step


class StaffOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.EmailField()
    role = serializers.CharField()
    role_label = serializers.SerializerMethodField()
    is_active = serializers.BooleanField()
    is_owner = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField(source="date_joined")
    last_login = serializers.DateTimeField(allow_null=True)
    two_step = serializers.SerializerMethodField()

    def get_two_step(self, user) -> bool:
        on = getattr(user, "two_step_on", None)  # the list's annotation (with_two_step), else one query
        return two_step_enabled(user) if on is None else on

    def get_role_label(self, user) -> str:
        return str(ROLE_LABELS.get(user.staff_role, user.staff_role))

    def get_is_owner(self, user) -> bool:
        return user.role == Role.OWNER or user.is_superuser


class StaffInputSerializer(serializers.Serializer):
    username = serializers.RegexField(r"^[\w.@+-]+$", max_length=150, error_messages={
        "required": _("Username is required"), "blank": _("Username is required"),
        "invalid": _("Letters, digits and @/./+/-/_ only")})
    email = serializers.EmailField(error_messages={
        "required": _("Email is required"), "blank": _("Email is required"),
        "invalid": _("Please enter a valid email address")})
    password = serializers.CharField(required=False, allow_blank=True, default="", trim_whitespace=False,
                                     write_only=True)
    role = serializers.CharField(required=False, default=Role.SUPPORT)
    is_active = serializers.BooleanField(required=False, default=True)


def _staff():
    return with_two_step(User.objects.filter(is_staff=True)).order_by("date_joined", "pk")


class RolesApi(StaffApi):
    area = None  # any staff member may read the matrix

    @extend_schema(
        responses=inline_serializer("RolesOutput", {
            "roles": serializers.ListField(), "permissions": serializers.DictField(),
            "areas": serializers.ListField(), "assignableRoles": serializers.ListField()}),
        summary="The roles and each role's permissions per area",
    )
    def get(self, request):
        return Response({
            "roles": [{"value": value, "label": str(ROLE_LABELS[value])} for value, _label in Role.choices],
            "permissions": {role: permissions_for(role) for role in MATRIX},
            "areas": [{"key": key, "label": str(label)} for key, label in AREAS.items()],
            "assignable_roles": [str(r) for r in ASSIGNABLE_ROLES],
        })


class StaffListApi(StaffApi):
    area = "system"

    @extend_schema(responses=StaffOutputSerializer(many=True), summary="Staff users (Owner only)")
    def get(self, request):
        return Response(StaffOutputSerializer(_staff(), many=True).data)

    @extend_schema(request=StaffInputSerializer, responses={201: StaffOutputSerializer},
                   summary="Create a staff user (Owner only)")
    def post(self, request):
        data = StaffInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = staff_create(actor=request.user, **data.validated_data)
        return Response(StaffOutputSerializer(user).data, status=201)


class StaffDetailApi(StaffApi):
    area = "system"

    @extend_schema(request=StaffInputSerializer, responses=StaffOutputSerializer,
                   summary="Edit a staff user; an empty password keeps the current one (Owner only)")
    def put(self, request, pk):
        user = get_object_or_404(_staff(), pk=pk)
        data = StaffInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        staff_update(actor=request.user, user=user, **data.validated_data)  # partial: no defaults
        return Response(StaffOutputSerializer(user).data)

    @extend_schema(responses={204: None}, summary="Delete a staff user (Owner only)")
    def delete(self, request, pk):
        staff_delete(actor=request.user, user=get_object_or_404(_staff(), pk=pk))
        return Response(status=204)


class LockoutOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    ip_address = serializers.CharField(allow_null=True)
    failures = serializers.IntegerField(source="failures_since_start")
    last_attempt_at = serializers.DateTimeField(source="attempt_time")


class LockoutListApi(StaffApi):
    area = "system"

    @extend_schema(responses=LockoutOutputSerializer(many=True),
                   summary="Accounts locked out of signing in from an address (Owner only)")
    def get(self, request):

        return Response(LockoutOutputSerializer(lockouts_active()[:200], many=True).data)


class LockoutUnlockApi(StaffApi):
    area = "system"
    area_actions = {"POST": "edit"}

    @extend_schema(
        request=inline_serializer("LockoutUnlockInput", {"username": serializers.CharField()}),
        responses=inline_serializer("LockoutUnlockOutput", {"success": serializers.BooleanField(),
                                                            "cleared": serializers.IntegerField()}),
        summary="Let an account sign in again from every address (Owner only)",
    )
    def post(self, request):
        username = request.data.get("username") if isinstance(request.data, dict) else None
        cleared = sign_in_unlock(actor=request.user, username=username if isinstance(username, str) else "")
        return Response({"success": True, "cleared": cleared})


urlpatterns = [
    path("admin/lockouts", LockoutListApi.as_view(), name="admin-lockouts"),
    path("admin/lockouts/unlock", LockoutUnlockApi.as_view(), name="admin-lockouts-unlock"),
    path("admin/roles", RolesApi.as_view(), name="admin-roles"),
    path("admin/users/admin", StaffListApi.as_view(), name="admin-staff"),
    path("admin/users/admin/<id:pk>", StaffDetailApi.as_view(), name="admin-staff-user"),
]
