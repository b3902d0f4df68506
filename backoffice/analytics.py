"""Sales figures for the analytics section, computed by the database.

Counted orders are those whose money is in or promised: paid by card, or
cash on delivery. Test orders (paid through the local test page) never
count anywhere. Cancelled orders count in the status breakdown only, never
in revenue, order counts, sellers or categories.

A period is summed from calendar months of the shop's time zone (Africa/Cairo).
Each month that lies wholly inside the period and is over is kept in the shared
cache as its sums: orders and money per order status, units and money per
product. The rest (the part-months at both ends, the current month, any month
not cached) is read from the database, in one query over the orders and one
over the items for the whole request. With 50,000 orders a year's request reads
a month or two of rows instead of a year's (bench/RESULTS.md, issue 14).

A cached month is only ever used while it is exact:

- Every write to an order or an item (orders.models: save, delete, queryset
  update, bulk create) sends `orders.signals.sales_written` with the orders'
  dates, and once its transaction commits each of those months gets a new
  token. A month's sums are stored under the token read *before* the database
  was, so sums read before a write committed carry a token the write has
  since replaced, and are read again by the next request.
- Sums are stored only by a reader in autocommit mode, where each query sees
  what is committed; never inside a transaction (its own uncommitted writes, or
  on SQLite a snapshot older than the token): there the cache is not used.
- `migrate` (which a restore runs) and writes that cannot name their orders
  replace the generation every month's sums are stamped with.
- A product deleted since a month was cached is left out on reading, as its
  items (product set to NULL) are left out of the database's sums.
- Tokens are random and never reused, so an evicted or expired key only costs
  a recount; a cache that cannot be reached (shop.cache) reads as empty.
"""

from datetime import datetime, timedelta
from decimal import Decimal
from uuid import uuid4

from django.core.cache import cache
from django.db import transaction
from django.db.models import Case, Count, IntegerField, Q, Sum, Value, When
from django.db.models.functions import TruncDate
from django.utils import timezone

from catalog.models import Category, Product
from orders.models import Order, OrderItem, OrderStatus, PaymentStatus
from shop.money import quantize, to_minor_units

PERIODS = {"7d": 7, "30d": 30, "90d": 90, "1y": 365}
COUNTED_PAYMENTS = [PaymentStatus.PAID, PaymentStatus.COD]
TOP_SELLERS = 5
DAILY_DAYS = 7
# a month's sums are kept a day, its token a week (either expiring only costs a recount)
MONTH_CACHE_SECONDS = 24 * 3600
TOKEN_CACHE_SECONDS = 7 * 24 * 3600
GENERATION_KEY = "analytics:sales:generation"


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


# --- calendar months --------------------------------------------------------------

def _month_start(moment):
    """The first moment of the shop's calendar month that holds `moment`."""
    local = timezone.localtime(moment, timezone.get_default_timezone())
    return timezone.make_aware(datetime(local.year, local.month, 1), timezone.get_default_timezone())


def _next_month(start):
    local = timezone.localtime(start, timezone.get_default_timezone())
    year, month = (local.year + 1, 1) if local.month == 12 else (local.year, local.month + 1)
    return timezone.make_aware(datetime(year, month, 1), timezone.get_default_timezone())


def _segments(since, until):
    """[since, until) as pieces: ("month", start, end) for each calendar month wholly inside
    it that is over, ("live", lo, hi) for the rest; `until` None: open-ended."""
    over_by = timezone.now() if until is None else min(until, timezone.now())
    segments, lo = [], since
    start = _month_start(since)
    start = start if start >= since else _next_month(start)
    while (end := _next_month(start)) <= over_by:
        if lo < start:
            segments.append(("live", lo, start))
        segments.append(("month", start, end))
        lo = start = end
    if until is None or lo < until:
        segments.append(("live", lo, until))
    return segments


# --- the database's sums ----------------------------------------------------------

def _in_ranges(ranges, field):
    """A Case naming which of `ranges` [(lo, hi or None)] a row's `field` falls in, and
    the filter keeping only rows that fall in one (touching ranges read as one)."""
    def within(lo, hi):
        return Q(**{f"{field}__gte": lo}) & (Q(**{f"{field}__lt": hi}) if hi is not None else Q())

    bucket = Case(*[When(within(lo, hi), then=Value(n)) for n, (lo, hi) in enumerate(ranges)],
                  output_field=IntegerField())
    window, spans = Q(), []
    for lo, hi in sorted(ranges, key=lambda r: r[0]):
        if spans and spans[-1][1] == lo:
            spans[-1][1] = hi
        else:
            spans.append([lo, hi])
    for lo, hi in spans:
        window |= within(lo, hi)
    return bucket, window


def order_rows(ranges):
    """Counted orders and their money per range and status."""
    bucket, window = _in_ranges(ranges, "created_at")
    return (counted_orders().filter(window).annotate(bucket=bucket).order_by()
            .values("bucket", "status").annotate(n=Count("*"), amount=Sum("total_amount")))


def item_rows(ranges):
    """Units and money sold per range and product, from the items of counted orders that were
    not cancelled (products since deleted have none: their items' product is NULL). One query:
    a UNION of one per range, each read through the orders' and the items' sales indexes
    (a join grouped by range let SQLite walk every item by product instead)."""
    parts = [
        OrderItem.objects.filter(order__in=sales_orders(since=lo, until=hi), product__isnull=False).order_by()
        .annotate(bucket=Value(n, output_field=IntegerField())).values("bucket", "product_id")
        .annotate(units=Sum("quantity"), amount=Sum("line_total_amount"))
        for n, (lo, hi) in enumerate(ranges)
    ]
    return parts[0].union(*parts[1:], all=True)


def _read_sums(ranges, rows, key, values):
    sums = {span: {} for span in ranges}
    if ranges:
        for row in rows(ranges):
            sums[ranges[row["bucket"]]][row[key]] = (row[values], to_minor_units(row["amount"]))
    return sums


# --- the cache --------------------------------------------------------------------

def _token_key(start):
    return f"analytics:sales:{start:%Y-%m}:token"


def _month_key(start):
    return f"analytics:sales:{start:%Y-%m}"


def _new_token():
    return uuid4().hex


def _cached_months(months):
    """The cached sums still valid for `months` (month start → sums), and the stamp
    each month's fresh sums are to be stored with. Read before the database."""
    found = cache.get_many([GENERATION_KEY, *map(_token_key, months), *map(_month_key, months)])
    fresh = {}
    generation = found.get(GENERATION_KEY) or fresh.setdefault(GENERATION_KEY, _new_token())
    stamps, valid = {}, {}
    for start in months:
        token = found.get(_token_key(start)) or fresh.setdefault(_token_key(start), _new_token())
        stamps[start] = (generation, token)
        sums = found.get(_month_key(start))
        if sums and sums["stamp"] == stamps[start]:
            valid[start] = sums
    if fresh:
        cache.set_many(fresh, TOKEN_CACHE_SECONDS)
    return valid, stamps


def sales_cache_expire(sender, placed, **kwargs):
    """orders.signals.sales_written: once the write commits, give the months of the orders
    it touched new tokens (or every month a new generation when it could not say)."""
    if placed is None or not all(isinstance(m, datetime) and timezone.is_aware(m) for m in placed):
        keys = {GENERATION_KEY}
    else:
        keys = {_token_key(_month_start(moment)) for moment in placed}
    transaction.on_commit(lambda: cache.set_many({key: _new_token() for key in keys}, TOKEN_CACHE_SECONDS),
                          robust=True)


def sales_cache_reset(**kwargs):
    """Make every cached month stale (after `migrate`, which a restore runs)."""
    cache.set(GENERATION_KEY, _new_token(), None)


def _period_sums(*, current, previous):
    """Sums per status of the current and previous periods' segments, and per product of the
    current one's: from the cache for months it holds valid, else from the database."""
    months = [(start, kind == "current") for kind, segments in (("current", current), ("previous", previous))
              for piece, start, _end in segments if piece == "month"]
    use_cache = not transaction.get_connection().in_atomic_block
    cached, stamps = _cached_months([start for start, _c in months]) if use_cache and months else ({}, {})
    live = [(lo, hi) for piece, lo, hi in current + previous if piece == "live"]
    order_ranges = live + [(start, _next_month(start)) for start, _c in months if start not in cached]
    item_ranges = [(lo, hi) for piece, lo, hi in current if piece == "live"] + [
        (start, _next_month(start)) for start, in_current in months
        if in_current and (start not in cached or cached[start]["products"] is None)]
    statuses = _read_sums(order_ranges, order_rows, "status", "n")
    products = _read_sums(item_ranges, item_rows, "product_id", "units")
    fresh = {}
    for start, in_current in months:
        span = (start, _next_month(start))
        sums = cached.get(start) or {"stamp": stamps.get(start), "statuses": statuses[span], "products": None}
        if span in products:
            sums = {**sums, "products": products[span]}
        statuses[span] = sums["statuses"]
        if in_current:
            products[span] = sums["products"]
        if use_cache and sums is not cached.get(start):
            fresh[_month_key(start)] = sums
    if fresh:
        cache.set_many(fresh, MONTH_CACHE_SECONDS)

    def spans(segments):
        return [(lo, _next_month(lo) if piece == "month" else hi) for piece, lo, hi in segments]

    return ([statuses[span] for span in spans(current)], [products[span] for span in spans(current)],
            [statuses[span] for span in spans(previous)])


def _money(cents):
    return quantize(Decimal(cents) / 100)


def _figures(parts):
    """Revenue, order count and average order value from sums per status (cancelled left out)."""
    orders = cents = 0
    for part in parts:
        for status, (n, amount) in part.items():
            if status != OrderStatus.CANCELLED:
                orders += n
                cents += amount
    revenue = _money(cents)
    average = quantize(revenue / orders) if orders else quantize(Decimal("0"))
    return {"revenue": revenue, "orders": orders, "average_order_value": average}


def _status_breakdown(parts):
    """How many counted orders are in each status (every status listed)."""
    counts = dict.fromkeys(OrderStatus.values, 0)
    for part in parts:
        for status, (n, _amount) in part.items():
            if status in counts:
                counts[status] += n
    return counts


def _sold(parts, products):
    """sales_per_product's rows summed over `parts`, for products that still exist."""
    total = {}
    for part in parts:
        for product_id, (units, cents) in part.items():
            have = total.get(product_id)
            total[product_id] = (units, cents) if have is None else (have[0] + units, have[1] + cents)
    return [{"product_id": product_id, "total_sold": units, "revenue": _money(cents)}
            for product_id, (units, cents) in total.items() if product_id in products]


# --- the section ------------------------------------------------------------------

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


def top_sellers(*, sold, limit=TOP_SELLERS):
    """The products with the most units sold in the period (`sold`: _sold's rows)."""
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


def category_breakdown(*, sold, category_of):
    """Per category: active products, and units and revenue sold in the period
    (`category_of`: product id → category id)."""
    sold_by_category = {}
    for row in sold:
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


def analytics_get(*, period, now=None):
    """Everything the analytics section shows, in the spec's shape, plus the previous
    period of the same length (`previous`) and each figure's change from it (`change`).

    The period runs from `now` less its length on (orders placed later count too, as
    they always have); the previous one is the period of the same length before it."""
    now = now or timezone.now()
    since = period_start(period, now=now)
    previous_since = since - timedelta(days=PERIODS[period])
    statuses, products, previous_statuses = _period_sums(current=_segments(since, None),
                                                         previous=_segments(previous_since, since))
    figures = _figures(statuses)
    previous = {"since": previous_since, "until": since, **_figures(previous_statuses)}
    category_of = dict(Product.objects.order_by().values_list("pk", "category_id"))
    sold = _sold(products, category_of)
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
            "status_breakdown": _status_breakdown(statuses),
            "daily_orders": daily_sales(now=now),
        },
        "products": {
            "total_products": Product.objects.filter(is_active=True).count(),
            "top_selling_products": top_sellers(sold=sold),
            "category_breakdown": category_breakdown(sold=sold, category_of=category_of),
        },
    }
