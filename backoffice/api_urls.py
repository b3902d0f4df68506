"""The admin API: one module per section under backoffice/api/, one include line each."""

from django.urls import include, path

urlpatterns = [
    path("", include("backoffice.api.auth")),
    path("", include("backoffice.api.overview")),
    path("", include("backoffice.api.emails")),
    path("", include("backoffice.api.products")),
    path("", include("backoffice.api.inventory")),
    path("", include("backoffice.api.customers")),
    path("", include("backoffice.api.settings")),
    path("", include("backoffice.api.roles")),
    path("", include("backoffice.api.two_step")),
    path("", include("backoffice.api.storage")),
    path("", include("backoffice.api.database")),
    path("", include("backoffice.api.orders")),
    path("", include("backoffice.api.analytics")),
    path("", include("backoffice.api.announcements")),
    path("", include("backoffice.api.coupons")),
    path("", include("backoffice.api.newsletter")),
    path("", include("backoffice.api.messages")),
    path("", include("backoffice.api.reviews")),
]
