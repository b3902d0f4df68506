from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db.models.signals import post_delete, post_save, pre_delete

from accounts.user_cache import user_changed
from orders import checks  # noqa: F401  (registers the deploy checks)
from shop.logs import log_order
from shop.sessions import SESSION_PREFETCHES


def _cart_line_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    from orders.cart import cart_changed  # noqa: PLC0415

    try:
        # a line written or read through cart.lines has its cart already; else it is read now
        cart = instance.cart
    except ObjectDoesNotExist:  # its cart went first
        return
    cart_changed(cart)


class OrdersConfig(AppConfig):
    name = "orders"

    def ready(self) -> None:
        # models can only be imported once the app registry is ready
        from orders.models import Order, buyer_activity_refresh, buyers_rewrite  # noqa: PLC0415

        # the request's (or job's) log line names the order it wrote
        post_save.connect(lambda sender, instance, **kwargs: log_order(instance.number), sender=Order,
                          weak=False, dispatch_uid="orders-log-order")
        # a customer's orders decide what the storefront keeps for them (accounts.user_cache): the
        # products they may review, their last governorate. Items are written with their order.
        for signal in (post_save, post_delete):
            signal.connect(lambda sender, instance, **kwargs: user_changed([instance.user_id]), sender=Order,
                           weak=False, dispatch_uid=f"orders-user-cache-{signal is post_save}")
        # what each process keeps of a visitor's cart (orders.cart.cart_memo) goes with any change to it
        from orders.cart import cart_changed, guest_cart_token_keys  # noqa: PLC0415
        from orders.models import Cart, CartLine  # noqa: PLC0415

        if guest_cart_token_keys not in SESSION_PREFETCHES:  # a guest's cart token comes with their session
            SESSION_PREFETCHES.append(guest_cart_token_keys)

        for signal in (post_save, post_delete):
            signal.connect(lambda sender, instance, **kwargs: cart_changed(instance), sender=Cart,
                           weak=False, dispatch_uid=f"orders-cart-memo-{signal is post_save}")
            signal.connect(_cart_line_changed, sender=CartLine, weak=False,
                           dispatch_uid=f"orders-cart-line-memo-{signal is post_save}")

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
