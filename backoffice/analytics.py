"""Sales figures for the analytics section, computed by the database.

Counted orders are those whose money is in or promised: paid by card, or
cash on delivery. Test orders (paid through the local test page) never
count anywhere. Cancelled orders count in the status breakdown only, never
in revenue, order counts, sellers or categories.
"""

from datetime import timedelta
from decimal import Decimal

from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from catalog.models import Category, Product
from orders.models import Order, OrderItem, OrderStatus, PaymentStatus
from shop.money import quantize

PERIODS = {"7d": 7, "30d": 30, "90d": 90, "1y": 365}
COUNTED_PAYMENTS = [PaymentStatus.PAID, PaymentStatus.COD]
TOP_SELLERS = 5
DAILY_DAYS = 7


def counted_orders(*, since=None, until=None):
    """Paid and cash-on-delivery orders placed in [since, until) (all statuses), never test orders."""
    orders = Order.objects.filter(payment_status__in=COUNTED_PAYMENTS, is_test=False)
    if since:
        orders = orders.filter(created_at__gte=since)
    if until:
        orders = orders.filter(created_at__lt=until)
    return orders


def sales_orders(*, since=None, until=None):
    """Counted orders that were not cancelled: the ones that make revenue."""
    return counted_orders(since=since, until=until).exclude(status=OrderStatus.CANCELLED)


def period_start(period, *, now=None):
    """The first moment of a period (`7d`, `30d`, `90d`, `1y`) ending now."""
    now = now or timezone.now()
    return now - timedelta(days=PERIODS[period])


def order_figures(*, since, until=None):
    """Revenue, order count and average order value of the period."""
    totals = sales_orders(since=since, until=until).aggregate(revenue=Sum("total_amount"), orders=Count("pk"))
    revenue = quantize(totals["revenue"] or Decimal("0"))
    orders = totals["orders"]
    average = quantize(revenue / orders) if orders else quantize(Decimal("0"))
    return {"revenue": revenue, "orders": orders, "average_order_value": average}


def status_breakdown(*, since):
    """How many counted orders of the period are in each status (every status listed)."""
    counts = dict(
        counted_orders(since=since).order_by().values_list("status").annotate(n=Count("pk"))
    )
    return {status: counts.get(status, 0) for status in OrderStatus.values}


def daily_sales(*, days=DAILY_DAYS, now=None):
    """Revenue and orders per local calendar day for the last `days` days, oldest first."""
    tz = timezone.get_current_timezone()
    today = timezone.localdate(now or timezone.now(), tz)
    first_day = today - timedelta(days=days - 1)
    since = timezone.make_aware(timezone.datetime.combine(first_day, timezone.datetime.min.time()), tz)
    rows = (
        sales_orders(since=since)
        .annotate(day=TruncDate("created_at", tzinfo=tz))
        .order_by()
        .values("day")
        .annotate(revenue=Sum("total_amount"), orders=Count("pk"))
    )
    by_day = {row["day"]: row for row in rows}
    result = []
    for offset in range(days):
        day = first_day + timedelta(days=offset)
        row = by_day.get(day, {})
        result.append({
            "date": day.isoformat(),
            "revenue": quantize(row.get("revenue") or Decimal("0")),
            "orders": row.get("orders", 0),
        })
    return result


def _items_sold(*, since):
    return OrderItem.objects.filter(order__in=sales_orders(since=since)).order_by()


def sales_per_product(*, since):
    """Units and money sold per product in the period: one pass over the items, which
    the top sellers and the categories both read (a year is some 80,000 items)."""
    return list(
        _items_sold(since=since)
        .filter(product__isnull=False)
        .values("product_id")
        .annotate(total_sold=Sum("quantity"), revenue=Sum("line_total_amount"))
    )


def top_sellers(*, since, limit=TOP_SELLERS, sold=None):
    """The products with the most units sold in the period (`sold`: sales_per_product's rows)."""
    sold = sales_per_product(since=since) if sold is None else sold
    rows = sorted(sold, key=lambda row: (-row["total_sold"], -row["revenue"], row["product_id"]))[:limit]
    products = Product.objects.select_related("category").in_bulk([row["product_id"] for row in rows])
    return [
        {
            "id": row["product_id"],
            "title": products[row["product_id"]].title,
            "slug": products[row["product_id"]].slug,
            "category": products[row["product_id"]].category.slug,
            "category_name": products[row["product_id"]].category.name,
            "total_sold": row["total_sold"],
            "revenue": quantize(row["revenue"]),
        }
        for row in rows
    ]


def category_breakdown(*, since, sold=None):
    """Per category: active products, and units and revenue sold in the period."""
    category_of = dict(Product.objects.order_by().values_list("pk", "category_id"))
    sold_by_category = {}
    for row in sales_per_product(since=since) if sold is None else sold:
        sums = sold_by_category.setdefault(category_of[row["product_id"]], {"units": 0, "revenue": Decimal("0")})
        sums["units"] += row["total_sold"]
        sums["revenue"] += row["revenue"]
    categories = Category.objects.annotate(
        product_count=Count("products", filter=Q(products__is_active=True))
    ).order_by("position", "slug")
    result = []
    for category in categories:
        sales = sold_by_category.get(category.pk, {})
        if not category.product_count and not sales:
            continue
        result.append({
            "slug": category.slug,
            "name": category.name,
            "product_count": category.product_count,
            "units_sold": sales.get("units") or 0,
            "revenue": quantize(sales.get("revenue") or Decimal("0")),
        })
    return result


def percent_change(current, previous):
    """The change from `previous` to `current` in percent (one decimal), None when there was nothing before."""
    if not previous:
        return None
    return (Decimal(current - previous) * 100 / Decimal(previous)).quantize(Decimal("0.1"))


def previous_period(*, period, now):
    """The period of the same length that ends where this one starts, with its figures
    and the change of each figure from it to this one."""
    until = period_start(period, now=now)
    since = until - timedelta(days=PERIODS[period])
    return {"since": since, "until": until, **order_figures(since=since, until=until)}


def analytics_get(*, period, now=None):
    """Everything the analytics section shows, in the spec's shape, plus the previous
    period of the same length (`previous`) and each figure's change from it (`change`)."""
    now = now or timezone.now()
    since = period_start(period, now=now)
    figures = order_figures(since=since)
    previous = previous_period(period=period, now=now)
    sold = sales_per_product(since=since)
    return {
        "period": period,
        "since": since,
        "until": now,
        "previous": previous,
        "change": {
            key: percent_change(figures[key], previous[key])
            for key in ("revenue", "orders", "average_order_value")
        },
        "orders": {
            "revenue_this_month": figures["revenue"],
            "orders_this_month": figures["orders"],
            "average_order_value": figures["average_order_value"],
            "status_breakdown": status_breakdown(since=since),
            "daily_orders": daily_sales(now=now),
        },
        "products": {
            "total_products": Product.objects.filter(is_active=True).count(),
            "top_selling_products": top_sellers(since=since, sold=sold),
            "category_breakdown": category_breakdown(since=since, sold=sold),
        },
    }
