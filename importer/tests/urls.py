"""The site's URLs plus the importer's stand-alone panel page (until the dashboard mounts it)."""

from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path

from shop.urls import handler404, handler500, urlpatterns as site_urlpatterns  # noqa: F401

urlpatterns = [*site_urlpatterns, *i18n_patterns(path("", include("importer.urls")), prefix_default_language=False)]
