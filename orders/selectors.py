"""Reads about orders that pages and the API share: who may see one, and its summary."""

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Q
from django.http import HttpRequest

from orders.models import Order, OrderStatus, Payment, PaymentStatus


def session_owns(request: HttpRequest, order: Order) -> bool:
    """Whether this visitor placed `order`: the signed-in customer, or the session that placed it."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and order.user_id == user.pk:
        return True
    session = getattr(request, "session", None)
    return session is not None and order.number in session.get("orders", [])


def order_summary(order: Order, payment: Payment | None = None) -> dict[str, Any]:
    """The order as the storefront islands read it (camelCase, money as text)."""
    return {
        "orderId": order.number, "total": f"{order.total_amount:.2f}", "email": order.email,
        "paymentId": payment.payment_id if payment else "", "paymentMethod": order.payment_method,
        "paymentStatus": order.payment_status, "status": order.status,
    }


def unpaid_orders_count(*, session_key: str = "", client_ip: str | None = None,
                        user: AbstractBaseUser | AnonymousUser | None = None) -> int:
    """Orders placed and still waiting for their payment by this session, address or customer."""
    who = Q(pk__in=[])
    if session_key:
        who |= Q(session_key=session_key)
    if client_ip:
        who |= Q(client_ip=client_ip)
    if user is not None and user.is_authenticated:
        who |= Q(user=user)
    return Order.objects.filter(who, status=OrderStatus.PENDING, payment_status=PaymentStatus.AWAITING).count()
