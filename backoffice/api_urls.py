"""The admin API: one module per section under backoffice/api/, one include line each."""

from django.urls import include, path

urlpatterns = [
    path("", include("backoffice.api.orders")),
    path("", include("backoffice.api.analytics")),
    path("", include("backoffice.api.announcements")),
    path("", include("backoffice.api.coupons")),
    path("", include("backoffice.api.newsletter")),
    path("", include("backoffice.api.messages")),
    path("", include("backoffice.api.reviews")),
]
