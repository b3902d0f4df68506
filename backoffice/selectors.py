"""Reads shared by the dashboard's sections (constant query counts)."""

from decimal import Decimal
from typing import Any

from django.db.models import Count, DecimalField, Max, OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce, Lower

from accounts.models import User
from catalog.models import Product
from catalog.pricing import Availability
from orders.models import Coupon, Order, OrderStatus, PaymentStatus
from shop.models import ContactMessage, ContactMessageStatus

# Orders that brought money in: paid online or cash on delivery, not cancelled, not test orders.
REAL_ORDER = (Q(payment_status__in=[PaymentStatus.PAID, PaymentStatus.COD]) & ~Q(status=OrderStatus.CANCELLED)
              & Q(is_test=False))
_MONEY = DecimalField(max_digits=14, decimal_places=2)


def customer_list() -> QuerySet[User]:
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


def dashboard_stats() -> dict[str, Any]:
    """The overview's numbers (spec 3 'Dashboard stats'), counts only."""
    orders = Order.objects.aggregate(
        total=Count("pk"),
        pending=Count("pk", filter=Q(status=OrderStatus.PENDING)),
        revenue=Coalesce(Sum("total_amount", filter=REAL_ORDER), Value(Decimal("0")), output_field=_MONEY),
        attention=Count("pk", filter=Q(needs_attention=True)),
        # paid, then cancelled, and not refunded yet: money to give back (or an order to restore)
        captured_on_cancelled=Coalesce(
            Sum("total_amount", filter=Q(status=OrderStatus.CANCELLED, payment_status=PaymentStatus.PAID,
                                         is_test=False)),
            Value(Decimal("0")), output_field=_MONEY),
    )
    stock = stock_counts()
    return {
        "total_products": stock["total_products"],
        "total_orders": orders["total"],
        "pending_orders": orders["pending"],
        "total_revenue": orders["revenue"],
        "total_customers": User.objects.filter(is_staff=False).count(),
        "low_stock_products": stock["low_stock"],
        "out_of_stock_products": stock["out_of_stock"],
        "unread_messages": ContactMessage.objects.filter(status=ContactMessageStatus.NEW).count(),
        # money captured on cancelled orders: refund or restore each
        "attention_orders": orders["attention"],
        "captured_on_cancelled": orders["captured_on_cancelled"],
    }


def stock_counts() -> dict[str, Any]:
    """Products in stock, low (1 to 10 left) and out (0): the one rule the overview and inventory share."""
    return Product.objects.aggregate(
        total_products=Count("pk"),
        total_units=Coalesce(Sum("stock"), 0),
        in_stock=Count("pk", filter=Availability.stock_filter("in")),
        low_stock=Count("pk", filter=Availability.stock_filter("low")),
        out_of_stock=Count("pk", filter=Availability.stock_filter("out")),
    )


def low_stock_products(*, limit: int = 5) -> list[Product]:
    """The products with the least stock (out or low), titles in the active language."""
    return list(Product.objects.filter(stock__lte=Availability.LOW_STOCK).order_by("stock", "title_en")
                .only("id", "title_en", "title_ar", "stock")[:limit])


def customers_by_email(*, search: str = "", kind: str = "") -> QuerySet[Order, dict[str, Any]]:
    """Everyone who bought or registered, one row per e-mail: guests and accounts alike.

    Orders group under their account's e-mail (or the e-mail typed at checkout
    for guests); accounts with no order yet are added. Rows carry email,
    first_name, last_name, phone, user_id (None for guests), total_orders and
    total_spent (real orders only, as on the overview) and last_activity (the
    latest order, or sign-up), newest first. `kind` is "guest", "registered" or "".
    """
    key = Coalesce(Lower("user__email"), Lower("email"))
    orders = Order.objects.annotate(key=key)
    text = (search or "").strip()
    if text:
        orders = orders.filter(Q(key__icontains=text) | Q(first_name__icontains=text)
                               | Q(last_name__icontains=text) | Q(phone__icontains=text))
    # not empty, as the unique index on the lower-cased e-mail says: so each buyer's lookup can use it
    account = (User.objects.filter(is_staff=False).exclude(email="").annotate(k=Lower("email"))
               .filter(k=OuterRef("key")).order_by("pk").values("pk")[:1])
    buyers = (
        orders.values("key").annotate(
            first=Max("first_name"), last=Max("last_name"), tel=Max("phone"), user_id=Subquery(account),
            total_orders=Count("pk", filter=REAL_ORDER),
            total_spent=Coalesce(Sum("total_amount", filter=REAL_ORDER), Value(Decimal("0")), output_field=_MONEY),
            last_activity=Max("created_at"),
        ).values_list("key", "first", "last", "tel", "user_id", "total_orders", "total_spent", "last_activity")
        .order_by()
    )
    accounts = User.objects.filter(is_staff=False).annotate(key=Lower("email")).exclude(
        key__in=Order.objects.annotate(key=key).values("key"))
    if text:
        accounts = accounts.filter(Q(email__icontains=text) | Q(first_name__icontains=text)
                                   | Q(last_name__icontains=text) | Q(phone__icontains=text))
    without_orders = accounts.annotate(
        zero=Value(0), nothing=Value(Decimal("0"), output_field=_MONEY),
    ).values_list("key", "first_name", "last_name", "phone", "pk", "zero", "nothing", "date_joined").order_by()
    if kind == "guest":
        return buyers.filter(user_id__isnull=True).order_by("-last_activity", "key")
    if kind == "registered":
        buyers = buyers.filter(user_id__isnull=False)
    return buyers.union(without_orders, all=True).order_by("-last_activity", "key")


def coupon_orders(*, coupon: Coupon) -> QuerySet[Order]:
    """The orders that used `coupon`, newest first (by the link, or by the code when it was lost)."""
    return Order.objects.filter(Q(coupon=coupon) | Q(coupon__isnull=True, coupon_code=coupon.code)).order_by(
        "-created_at", "-pk")
