"""POST /api/admin/login, POST /api/admin/logout, GET /api/admin/verify."""

from django.urls import path
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import csrf_enforce
from accounts.roles import permissions_for
from backoffice.api.base import StaffApi
from backoffice.auth import staff_sign_in, staff_sign_out
from shop.errors import ShopError


class AdminLoginApi(APIView):
    authentication_classes = []  # a fresh sign-in; its CSRF token is checked all the same (csrf_enforce)
    permission_classes = []
    throttle_scope = "sign_in"

    class AdminLoginInputSerializer(serializers.Serializer):
        username = serializers.CharField(required=False, allow_blank=True, default="")
        password = serializers.CharField(required=False, allow_blank=True, default="", trim_whitespace=False)
        # with two-step sign-in on: the app's code or a recovery code (a 401 naming the field `code` asks for it)
        code = serializers.CharField(required=False, allow_blank=True, default="", max_length=64)

    class AdminLoginOutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        role = serializers.CharField()
        session_token = serializers.CharField()

    @extend_schema(request=AdminLoginInputSerializer, responses=AdminLoginOutputSerializer, summary="Staff sign in")
    def post(self, request):
        csrf_enforce(request)
        data = self.AdminLoginInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        username, password = data.validated_data["username"], data.validated_data["password"]
        if not username.strip():
            raise ShopError(_("Username is required"), field="username")
        if not password:
            raise ShopError(_("Password is required"), field="password")
        user, key = staff_sign_in(request=request._request, username=username, password=password,
                                  code=data.validated_data["code"])
        if user is None:
            raise ShopError(_("Invalid username or password"), status=401)
        response = Response(self.AdminLoginOutputSerializer({"username": user.username,
                                                             "role": user.staff_role, "session_token": key}).data)
        add_never_cache_headers(response)  # it holds the bearer token: no browser or proxy keeps it
        return response


class AdminLogoutApi(APIView):
    permission_classes = []

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "AdminLogoutInput"

        session_token = serializers.CharField(required=False, allow_blank=True, max_length=200)

    @extend_schema(
        request=InputSerializer,
        responses=inline_serializer("AdminLogoutOutput", {"success": serializers.BooleanField()}),
        summary="Staff sign out",
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        staff_sign_out(request=request._request, token_key=data.validated_data.get("session_token") or None)
        if getattr(request, "auth", None) is not None and hasattr(request.auth, "delete"):
            request.auth.delete()
        return Response({"success": True})


class AdminVerifyApi(StaffApi):
    area = None  # any staff member

    @extend_schema(
        responses=inline_serializer("AdminVerifyOutput", {
            "valid": serializers.BooleanField(), "username": serializers.CharField(),
            "role": serializers.CharField(), "permissions": serializers.DictField(),
        }),
        summary="Check the staff credentials in use",
    )
    def get(self, request):
        user = request.user
        return Response({"valid": True, "username": user.username, "role": user.staff_role,
                         "permissions": permissions_for(user.staff_role)})


urlpatterns = [
    path("admin/login", AdminLoginApi.as_view(), name="admin-login"),
    path("admin/logout", AdminLogoutApi.as_view(), name="admin-logout"),
    path("admin/verify", AdminVerifyApi.as_view(), name="admin-verify"),
]
