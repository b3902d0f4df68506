from django.apps import AppConfig


class OrdersConfig(AppConfig):
    name = "orders"

    def ready(self):
        from orders import checks  # noqa: F401, PLC0415 (registers the deploy checks)
