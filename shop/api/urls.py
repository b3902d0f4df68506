"""/api/: every app's API routes, the schema and its docs."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from shop.api import site
from shop.security import docs_view

urlpatterns = [
    # first: the cart's routes, which the islands call most (a route is found by trying each in turn)
    path("", include("orders.api_urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # the split view serves its start-up script as a file: no inline script under the CSP
    path("docs/", docs_view(SpectacularSwaggerSplitView.as_view(url_name="api:schema")), name="docs"),
    path("settings", site.SettingsApi.as_view(), name="settings"),
    path("announcements", site.AnnouncementListApi.as_view(), name="announcements"),
    path("newsletter", site.NewsletterApi.as_view(), name="newsletter"),
    path("contact", site.ContactApi.as_view(), name="contact"),
    path("exchange-rate", site.ExchangeRateApi.as_view(), name="exchange-rate"),
    path("exchange-rate/kes-to-egp", site.KesToEgpRateApi.as_view(), name="exchange-rate-kes-to-egp"),
    path("exchange-rate/convert/kes-to-egp", site.KesToEgpConvertApi.as_view(), name="exchange-rate-convert"),
    path("", include("catalog.api_urls")),
    path("", include("accounts.api_urls")),
    path("", include("backoffice.api_urls")),
    path("", include("importer.api_urls")),
]
