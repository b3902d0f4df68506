from django.apps import AppConfig


class OrdersConfig(AppConfig):
    name = "orders"

    def ready(self):
        from django.db.models.signals import post_save

        from orders import checks  # noqa: F401, PLC0415 (registers the deploy checks)
        from orders.models import Order
        from shop.logs import log_order

        # the request's (or job's) log line names the order it wrote
        post_save.connect(lambda sender, instance, **kwargs: log_order(instance.number), sender=Order,
                          weak=False, dispatch_uid="orders-log-order")
