from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path, re_path

from orders.payments.views import paymob_callback
from shop import views
from shop.security import media

handler400 = "shop.views.bad_request"
handler403 = "shop.views.permission_denied"
handler404 = "shop.views.page_not_found"
handler500 = "shop.views.server_error"

urlpatterns = [
    # first: the API, which the islands call on every cart change (a route is found by trying each in turn)
    path("api/", include(("shop.api.urls", "api"), namespace="api")),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon),
    path("robots.txt", views.robots_txt, name="robots-txt"),
    path("sitemap.xml", views.sitemap_xml, name="sitemap-xml"),
    path("lang/<str:language>/", views.set_language, name="set-language"),
    # Paymob's server-to-server callback: no language prefix, no CSRF, raw body
    path("payment/callback/paymob", paymob_callback, name="payment-callback-paymob"),
    path("django-admin/", admin.site.urls),
    # Uploaded and imported product images. A shop this size serves them
    # itself (see shop.security.media for the headers a proxy must copy);
    # put a CDN or the web server in front at scale.
    re_path(r"^media/(?P<path>.*)$", media),
]

urlpatterns += i18n_patterns(
    path("", include("shop.site_urls")),
    path("", include("catalog.urls")),
    path("", include("orders.urls")),
    path("", include("accounts.urls")),
    path("", include("backoffice.urls")),
    prefix_default_language=False,
)
