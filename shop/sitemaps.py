"""/sitemap.xml through Django's sitemaps framework: every page in English and Arabic with hreflang."""

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.sitemaps import Sitemap

from catalog.models import Product
from shop.paths import localized_path


class _ShopSitemap(Sitemap):
    i18n = True
    alternates = True
    x_default = True

    # SITE_URL, when set, is the public address (see shop.site_url), not the request's host
    def get_protocol(self, protocol=None):
        return urlsplit(settings.SITE_URL).scheme if settings.SITE_URL else super().get_protocol(protocol)

    def get_domain(self, site=None):
        return urlsplit(settings.SITE_URL).netloc if settings.SITE_URL else super().get_domain(site)

    def location(self, item):
        return localized_path(self.path(item))  # the framework activates each language in turn


class PageSitemap(_ShopSitemap):
    PATHS = ("/", "/shop", "/sale", "/explore", "/about", "/contact", "/terms", "/privacy")

    def items(self):
        return list(self.PATHS)

    def path(self, item):
        return item


class ProductSitemap(_ShopSitemap):
    def items(self):
        return Product.objects.filter(is_active=True).order_by("pk").only("slug", "updated_at")

    def path(self, product):
        return f"/product/{product.slug}"

    def lastmod(self, product):
        return product.updated_at


SITEMAPS = {"pages": PageSitemap, "products": ProductSitemap}
