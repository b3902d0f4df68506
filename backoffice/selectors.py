"""Reads shared by the dashboard's sections (constant query counts)."""

from decimal import Decimal

from django.db.models import Count, DecimalField, Q, Sum, Value
from django.db.models.functions import Coalesce

from accounts.models import User
from catalog.models import Product
from catalog.pricing import Availability
from orders.models import Order, OrderStatus, PaymentStatus
from shop.models import ContactMessage, ContactMessageStatus

# Orders that brought money in: paid online or cash on delivery, not cancelled, not test orders.
REAL_ORDER = (Q(payment_status__in=[PaymentStatus.PAID, PaymentStatus.COD]) & ~Q(status=OrderStatus.CANCELLED)
              & Q(is_test=False))
_MONEY = DecimalField(max_digits=14, decimal_places=2)


def customer_list():
    """Customers with their order count and money spent on real orders."""
    real = Q(orders__payment_status__in=[PaymentStatus.PAID, PaymentStatus.COD]) & ~Q(
        orders__status=OrderStatus.CANCELLED) & Q(orders__is_test=False)
    return (
        User.objects.filter(is_staff=False)
        .annotate(
            total_orders=Count("orders", filter=real),
            total_spent=Coalesce(Sum("orders__total_amount", filter=real), Value(Decimal("0")), output_field=_MONEY),
        )
        .order_by("-date_joined", "-pk")
    )


def dashboard_stats():
    """The overview's numbers (spec 3 'Dashboard stats'), counts only."""
    orders = Order.objects.aggregate(
        total=Count("pk"),
        pending=Count("pk", filter=Q(status=OrderStatus.PENDING)),
        revenue=Coalesce(Sum("total_amount", filter=REAL_ORDER), Value(Decimal("0")), output_field=_MONEY),
        attention=Count("pk", filter=Q(needs_attention=True)),
    )
    products = Product.objects.aggregate(
        total=Count("pk"), low=Count("pk", filter=Q(stock__lte=Availability.LOW_STOCK)),
    )
    return {
        "total_products": products["total"],
        "total_orders": orders["total"],
        "pending_orders": orders["pending"],
        "total_revenue": orders["revenue"],
        "total_customers": User.objects.filter(is_staff=False).count(),
        "low_stock_products": products["low"],
        "unread_messages": ContactMessage.objects.filter(status=ContactMessageStatus.NEW).count(),
        # money captured on cancelled orders: refund or restore each
        "attention_orders": orders["attention"],
    }


def low_stock_products(*, limit=5):
    """The products with the least stock (10 or less), titles in the active language."""
    return list(Product.objects.filter(stock__lte=Availability.LOW_STOCK).order_by("stock", "title_en")
                .only("id", "title_en", "title_ar", "stock")[:limit])
