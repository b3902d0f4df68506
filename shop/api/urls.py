"""/api/: every app's API routes, the schema and its docs."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from shop.api import site

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("settings", site.SettingsApi.as_view(), name="settings"),
    path("", include("catalog.api_urls")),
    path("", include("orders.api_urls")),
    path("", include("accounts.api_urls")),
    path("", include("backoffice.api_urls")),
    path("", include("importer.api_urls")),
]
