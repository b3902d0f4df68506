from django.urls import path

from importer import api

urlpatterns = [
    path("admin/scrape", api.ScrapeApi.as_view(), name="admin-scrape"),
    path("admin/scrape/status", api.ScrapeStatusApi.as_view(), name="admin-scrape-status"),
    path("admin/scrape/cache", api.ScrapeCacheApi.as_view(), name="admin-scrape-cache"),
    path("admin/scrape/cancel", api.ScrapeCancelApi.as_view(), name="admin-scrape-cancel"),
    path("admin/scrape/import", api.ScrapeImportApi.as_view(), name="admin-scrape-import"),
    path("admin/scrape/preview", api.ScrapePreviewApi.as_view(), name="admin-scrape-preview"),
    path("admin/scrape/apply", api.ScrapeApplyApi.as_view(), name="admin-scrape-apply"),
    path("admin/scrape/products/<id:pk>/prices", api.ProductPriceHistoryApi.as_view(),
         name="admin-scrape-product-prices"),
]
