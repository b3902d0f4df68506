"""Reads about orders that pages and the API share: who may see one, and its summary."""

from django.db.models import Q

from orders.models import Order, OrderStatus, PaymentStatus


def session_owns(request, order):
    """Whether this visitor placed `order`: the signed-in customer, or the session that placed it."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and order.user_id == user.pk:
        return True
    session = getattr(request, "session", None)
    return session is not None and order.number in session.get("orders", [])


def order_summary(order, payment=None):
    """The order as the storefront islands read it (camelCase, money as text)."""
    return {
        "orderId": order.number, "total": f"{order.total_amount:.2f}", "email": order.email,
        "paymentId": payment.payment_id if payment else "", "paymentMethod": order.payment_method,
        "paymentStatus": order.payment_status, "status": order.status,
    }


def unpaid_orders_count(*, session_key="", client_ip=None, user=None):
    """Orders placed and still waiting for their payment by this session, address or customer."""
    who = Q(pk__in=[])
    if session_key:
        who |= Q(session_key=session_key)
    if client_ip:
        who |= Q(client_ip=client_ip)
    if user is not None and user.is_authenticated:
        who |= Q(user=user)
    return Order.objects.filter(who, status=OrderStatus.PENDING, payment_status=PaymentStatus.AWAITING).count()
