from django.apps import AppConfig
from django.db.models.signals import post_migrate

from catalog.signals import stock_changed
from orders.signals import sales_written


class BackofficeConfig(AppConfig):
    name = "backoffice"

    def ready(self):
        # the alerts read models: only importable once the app registry is ready
        from backoffice.alerts import _on_stock_changed  # noqa: PLC0415
        from backoffice.analytics import sales_cache_expire, sales_cache_reset  # noqa: PLC0415

        stock_changed.connect(_on_stock_changed, dispatch_uid="backoffice-stock-alerts")
        # the analytics section's cached months: stale once an order of theirs is written,
        # all of them after a migrate (a restore runs one)
        sales_written.connect(sales_cache_expire, dispatch_uid="backoffice-sales-cache")
        post_migrate.connect(sales_cache_reset, sender=self, dispatch_uid="backoffice-sales-cache-reset")
