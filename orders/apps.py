from django.apps import AppConfig
from django.db.models.signals import post_save

from orders import checks  # noqa: F401  (registers the deploy checks)
from shop.logs import log_order


class OrdersConfig(AppConfig):
    name = "orders"

    def ready(self) -> None:
        # models can only be imported once the app registry is ready
        from orders.models import Order  # noqa: PLC0415

        # the request's (or job's) log line names the order it wrote
        post_save.connect(lambda sender, instance, **kwargs: log_order(instance.number), sender=Order,
                          weak=False, dispatch_uid="orders-log-order")
