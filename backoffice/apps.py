from django.apps import AppConfig

from catalog.signals import stock_changed


class BackofficeConfig(AppConfig):
    name = "backoffice"

    def ready(self):
        # the alerts read models: only importable once the app registry is ready
        from backoffice.alerts import _on_stock_changed  # noqa: PLC0415

        stock_changed.connect(_on_stock_changed, dispatch_uid="backoffice-stock-alerts")
