from django.urls import path

from accounts import api, api_addresses

urlpatterns = [
    path("auth/login", api.AuthLoginApi.as_view(), name="auth-login"),
    path("auth/register", api.AuthRegisterApi.as_view(), name="auth-register"),
    path("auth/forgot-password", api.AuthForgotPasswordApi.as_view(), name="auth-forgot-password"),
    path("auth/reset-password", api.AuthResetPasswordApi.as_view(), name="auth-reset-password"),
    path("auth/logout", api.AuthLogoutApi.as_view(), name="auth-logout"),
    path("auth/me", api.AuthMeApi.as_view(), name="auth-me"),
    path("account/addresses", api_addresses.AddressListApi.as_view(), name="account-addresses"),
    path("account/addresses/<id:address_id>", api_addresses.AddressDetailApi.as_view(), name="account-address"),
]
