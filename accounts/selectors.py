"""Account reads shared by the /account page and the API."""

from django.db.models import QuerySet

from accounts.models import User
from orders.models import Order


def customer_order_list(*, user: User) -> QuerySet[Order]:
    """The customer's own orders, newest first, with their items (two queries).

    Orders placed in the same instant keep one order (the later row first), so a page of them
    neither repeats nor skips one."""
    return Order.objects.filter(user=user).prefetch_related("items").order_by("-created_at", "-pk")
