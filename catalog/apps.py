from django.apps import AppConfig

from catalog.signals import stock_changed


class CatalogConfig(AppConfig):
    name = "catalog"

    def ready(self) -> None:
        # imported here: the receiver reaches shop.tasks and its models, which load after the registry
        from catalog.stock_events import on_stock_changed  # noqa: PLC0415

        stock_changed.connect(on_stock_changed, dispatch_uid="catalog-back-in-stock")
