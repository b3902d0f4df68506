from django.apps import AppConfig


class BackofficeConfig(AppConfig):
    name = "backoffice"

    def ready(self):
        from backoffice.alerts import _on_stock_changed
        from catalog.signals import stock_changed

        stock_changed.connect(_on_stock_changed, dispatch_uid="backoffice-stock-alerts")
