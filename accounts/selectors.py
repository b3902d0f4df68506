"""Account reads shared by the /account page and the API."""

from django.db.models import QuerySet

from accounts.models import User
from orders.models import Order


def customer_order_list(*, user: User) -> QuerySet[Order]:
    """The customer's own orders, newest first, with their items (two queries)."""
    return Order.objects.filter(user=user).prefetch_related("items").order_by("-created_at")
