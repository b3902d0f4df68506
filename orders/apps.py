from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_delete, post_save, pre_delete

from orders import checks  # noqa: F401  (registers the deploy checks)
from shop.logs import log_order


class OrdersConfig(AppConfig):
    name = "orders"

    def ready(self) -> None:
        # models can only be imported once the app registry is ready
        from orders.models import Order, buyer_activity_refresh, buyers_rewrite  # noqa: PLC0415

        # the request's (or job's) log line names the order it wrote
        post_save.connect(lambda sender, instance, **kwargs: log_order(instance.number), sender=Order,
                          weak=False, dispatch_uid="orders-log-order")

        # the customer directory's buyers (Order.buyer_key, BuyerActivity) follow a deleted order, an
        # account's e-mail change, and an account's deletion (its orders fall back to the typed e-mails)
        def order_deleted(sender: Any, instance: Order, **kwargs: Any) -> None:
            buyer_activity_refresh([instance.buyer_key])

        def account_saved(sender: Any, instance: Any, update_fields: Any = None, raw: bool = False,
                          **kwargs: Any) -> None:
            if not raw and (update_fields is None or "email" in update_fields):
                before = dict(Order.objects.filter(user_id=instance.pk).values_list("pk", "buyer_key"))
                buyers_rewrite(before, before.values())

        def account_deleting(sender: Any, instance: Any, **kwargs: Any) -> None:
            instance._orders_before = dict(Order.objects.filter(user_id=instance.pk).values_list("pk", "buyer_key"))

        def account_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
            before = getattr(instance, "_orders_before", {})
            buyers_rewrite(before, before.values())

        post_delete.connect(order_deleted, sender=Order, weak=False, dispatch_uid="orders-buyer-order-deleted")
        post_save.connect(account_saved, sender=settings.AUTH_USER_MODEL, weak=False,
                          dispatch_uid="orders-buyer-account-saved")
        pre_delete.connect(account_deleting, sender=settings.AUTH_USER_MODEL, weak=False,
                           dispatch_uid="orders-buyer-account-deleting")
        post_delete.connect(account_deleted, sender=settings.AUTH_USER_MODEL, weak=False,
                            dispatch_uid="orders-buyer-account-deleted")
