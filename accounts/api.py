"""/api/auth/*: the same services as the pages, for API clients and islands."""

from django.utils.cache import add_never_cache_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import (
    schema,  # noqa: F401  (registers the bearer scheme)
    services,
)
from accounts.lockout import lockout_message
from accounts.models import AuthToken
from shop.errors import ShopError
from shop.site_url import site_url

_MessageSerializer = inline_serializer("AuthMessage", {"message": serializers.CharField()})


class UserOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    email = serializers.EmailField()
    phone = serializers.CharField()
    is_active = serializers.BooleanField()
    subscribe_newsletter = serializers.BooleanField()
    language = serializers.CharField()
    created_at = serializers.DateTimeField(source="date_joined")


class AuthLoginApi(APIView):
    """Check e-mail and password; answer a bearer token that lives like the session would."""

    authentication_classes = []
    throttle_scope = "sign_in"

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "AuthLoginInput"

        email = serializers.CharField(required=False, allow_blank=True, default="")
        password = serializers.CharField(required=False, allow_blank=True, default="", trim_whitespace=False)
        remember_me = serializers.BooleanField(required=False, default=False)

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "AuthLoginOutput"

        token = serializers.CharField()
        expires_at = serializers.DateTimeField()
        message = serializers.CharField()
        user = UserOutputSerializer()

    @extend_schema(request=InputSerializer, responses={200: OutputSerializer, 400: _MessageSerializer,
                                                       429: _MessageSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        email, password = data.validated_data["email"].strip(), data.validated_data["password"]
        if not email:
            raise ShopError(_("Email is required"), field="email")
        if not password:
            raise ShopError(_("Password is required"), field="password")
        # the Django request, so django-axes counts the attempt and flags a lockout
        user = services.customer_authenticate(request=request._request, email=email, password=password)
        if user is None:
            if getattr(request._request, "axes_locked_out", False):
                raise ShopError(lockout_message(), status=status.HTTP_429_TOO_MANY_REQUESTS)
            raise ShopError(_("Login failed. Please try again."), status=status.HTTP_401_UNAUTHORIZED)
        remember_me = data.validated_data["remember_me"]
        token, key = services.token_issue(user=user, remember_me=remember_me)
        body = {"token": key, "expires_at": token.expires_at, "message": _("Login successful"), "user": user}
        response = Response(self.OutputSerializer(body).data)
        add_never_cache_headers(response)  # it holds the bearer token: no browser or proxy keeps it
        return response


class AuthRegisterApi(APIView):
    throttle_scope = "register"
    authentication_classes = []

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "AuthRegisterInput"

        first_name = serializers.CharField(required=False, allow_blank=True, default="")
        last_name = serializers.CharField(required=False, allow_blank=True, default="")
        email = serializers.CharField(required=False, allow_blank=True, default="")
        phone = serializers.CharField(required=False, allow_blank=True, default="")
        password = serializers.CharField(required=False, allow_blank=True, default="", trim_whitespace=False)
        subscribe_newsletter = serializers.BooleanField(required=False, default=True)

    @extend_schema(request=InputSerializer, responses={201: _MessageSerializer, 400: _MessageSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.customer_create(**data.validated_data, language=get_language() or "en",
                                        site_url=site_url(request))
        body = {"message": _("Account created successfully! Please sign in to continue."),
                "user": UserOutputSerializer(user).data}
        return Response(body, status=status.HTTP_201_CREATED)


class AuthForgotPasswordApi(APIView):
    """Send a reset link if the address has an account; the answer is the same either way."""

    throttle_scope = "password_reset"

    authentication_classes = []

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "AuthForgotPasswordInput"

        email = serializers.CharField(required=False, allow_blank=True, default="")

    @extend_schema(request=InputSerializer, responses={200: _MessageSerializer, 400: _MessageSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.password_reset_request(email=data.validated_data["email"], base_url=site_url(request))
        return Response({"message": _("Password reset instructions sent to your email!")})


class AuthResetPasswordApi(APIView):
    throttle_scope = "password_reset"
    authentication_classes = []

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "AuthResetPasswordInput"

        token = serializers.CharField(required=False, allow_blank=True, default="")
        password = serializers.CharField(required=False, allow_blank=True, default="", trim_whitespace=False)
        confirm_password = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)

    @extend_schema(request=InputSerializer, responses={200: _MessageSerializer, 400: _MessageSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.password_reset_complete(
            token=data.validated_data["token"], password=data.validated_data["password"],
            confirm=data.validated_data.get("confirm_password"),
        )
        return Response({"message": _("Password reset successful!")})


class AuthLogoutApi(APIView):
    """Revoke the bearer token used (and end the session, if there is one)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: _MessageSerializer})
    def post(self, request):
        token = request.auth if isinstance(request.auth, AuthToken) else None
        services.customer_sign_out(request=request._request, token=token)
        return Response({"message": _("You have been signed out")})


class AuthMeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: UserOutputSerializer})
    def get(self, request):
        response = Response(UserOutputSerializer(request.user).data)
        add_never_cache_headers(response)  # their name, e-mail and phone, as /account (never cached) shows them
        return response


