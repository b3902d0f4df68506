"""Sales figures for the analytics section, computed by the database.

Counted orders are those whose money is in or promised: paid by card, or
cash on delivery. Test orders (paid through the local test page) never
count anywhere. Cancelled orders count in the status breakdown only, never
in revenue, order counts, sellers or categories. An order's revenue is what it
kept: what the customer paid (its total: after the coupon discount, shipping and
the COD fee included) less any part refunded (orders.models.amount_kept). Sellers
and categories count what each line sold for after its share of the order's
coupon discount (orders.calculations.line_discounts: in proportion to the line
totals, in piasters adding up to the discount); a refund names no product, so
they count it nowhere, and shipping is no product's.

A period is summed from calendar months of the store's time zone (its `timezone` setting,
shop.store_time). The generation names the zone its months were cut in: once the
setting changes, the next reader starts a new generation, so every cached month is stale.
The months that lie wholly inside the period and are over come from the shared
cache: each month's sums (orders and money per order status, units and money
per product), and the period's whole months added up as one span. The rest (the
part-months at both ends, the current month, any month not cached) is read from
the database, in one query over the orders and one over the items. With 50,000
orders a year's request reads a month or two of rows instead of a year's and
adds one cached span to them (bench/RESULTS.md, issue 14).

Cached sums are only ever used while they are exact:

- Every write to an order or an item (orders.models: save, delete, queryset
  update and delete, bulk create) sends `orders.signals.sales_written` with the
  orders' dates, and once its transaction commits each of those months gets a
  new random token. A month's sums are stored under the (generation, token)
  stamp read *before* the database was, so sums read before a write committed
  carry a stamp the write has since replaced; a span records the stamp of each
  month it adds up and is valid only while all of them are current.
- A span with months written since is brought up to date by taking out the
  version of each such month it holds (by the random id each version carries:
  two requests may store one stamp with different sums, one having read before
  a write and one after) and putting in the new one; without that version it
  is added up anew.
- Sums are stored only by a reader in autocommit mode, where each query sees
  what is committed; never inside a transaction (its own uncommitted writes, or
  on SQLite a snapshot older than the stamp): there the cache is not used.
- `migrate` (which a restore runs) and writes that cannot name their orders
  replace the generation, so every stamp changes.
- A product deleted since a month was cached is left out on reading, as its
  items (product set to NULL) are left out of the database's sums.
- Stamps are random and never reused, so an evicted or expired key only costs
  a recount; a cache that cannot be reached (shop.cache) reads as empty. Sums
  are kept a day, which also bounds what a write the ORM never saw (a hand-edited
  database) can leave behind.
"""

import heapq
import itertools
from collections import Counter
from datetime import datetime, timedelta
from decimal import Decimal
from uuid import uuid4

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import (
    BigIntegerField,
    Case,
    Count,
    IntegerField,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Cast, Round
from django.utils import timezone

from catalog.models import Category, Product
from orders.calculations import line_discounts
from orders.models import Order, OrderItem, OrderStatus, PaymentStatus, amount_kept
from shop.money import quantize
from shop.store_time import store_day_start, store_localdate, store_localtime, store_zone

PERIODS = {"7d": 7, "30d": 30, "90d": 90, "1y": 365}
COUNTED_PAYMENTS = [PaymentStatus.PAID, PaymentStatus.COD]
TOP_SELLERS = 5
DAILY_DAYS = 7
# a month's sums are kept a day, its token a week (either expiring only costs a recount)
MONTH_CACHE_SECONDS = 24 * 3600
TOKEN_CACHE_SECONDS = 7 * 24 * 3600
# every key starts so; a new layout of the cached sums takes a new number
PREFIX = "analytics:sales:4"
GENERATION_KEY = f"{PREFIX}:generation"


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

def _month_start(moment, zone=None):
    """The first moment of the store's calendar month that holds `moment` (`zone`: the store's, if read)."""
    zone = zone or store_zone()
    local = store_localtime(moment, zone)
    return timezone.make_aware(datetime(local.year, local.month, 1), zone)


def _next_month(start):
    zone = store_zone()
    local = store_localtime(start, zone)
    year, month = (local.year + 1, 1) if local.month == 12 else (local.year, local.month + 1)
    return timezone.make_aware(datetime(year, month, 1), zone)


def _midnight(moment):
    """The first moment of the store's calendar day that holds `moment`."""
    return store_day_start(_date(moment))


def _date(moment, zone=None):
    """The store's calendar day that holds `moment` (`zone`: the store's, if read)."""
    return store_localdate(moment, zone)


def _dates(lo, hi):
    """The shop's calendar days from the one that holds `lo` to the one before `hi`'s."""
    first, last = _date(lo), _date(hi)
    return [first + timedelta(days=n) for n in range((last - first).days)]


def _segments(since, until):
    """[since, until) as pieces: ("month", start, end) for each calendar month wholly inside
    it that is over, ("days", start, today) for the days of the current month before today
    when whole months come before them, ("live", lo, hi) for the rest; `until` None: open-ended."""
    over_by = timezone.now() if until is None else min(until, timezone.now())
    segments, lo = [], since
    start = _month_start(since)
    start = start if start >= since else _next_month(start)
    while (end := _next_month(start)) <= over_by:
        if lo < start:
            segments.append(("live", lo, start))
        segments.append(("month", start, end))
        lo = start = end
    if until is None and lo == _month_start(lo) and lo < (today := _midnight(timezone.now())):
        segments.append(("days", lo, today))
        lo = today
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


def _cents(field):
    """SUM(field) (a column or an expression) in piasters, an integer from the database (no Decimal per row)."""
    return Cast(Round(Sum(field) * 100), BigIntegerField())


def order_rows(ranges):
    """(range, status, orders, piasters) of the counted orders in each of `ranges`. One query:
    a UNION of one per range, each a range of the orders' sales index (one query naming the
    range of each row with a CASE spent longer on the CASE than on the rows)."""
    parts = [
        counted_orders(since=lo, until=hi).order_by().annotate(bucket=Value(n, output_field=IntegerField()))
        .values("bucket", "status").annotate(n=Count("*"), cents=_cents(amount_kept()))
        .values_list("bucket", "status", "n", "cents")
        for n, (lo, hi) in enumerate(ranges)
    ]
    return parts[0].union(*parts[1:], all=True)


def item_rows(ranges):
    """(range, product, units, piasters) sold from the items of counted orders that were not
    cancelled (products since deleted have none: their items' product is NULL), in one query.

    SQLite: a UNION of one SELECT per range, each reading a range of the orders' sales index
    and their items through the items' (one join naming each row's range made it walk every
    item by product instead). PostgreSQL: that join, since it hash-joins each range's orders
    with every item (13 months: 13 passes over 90,000 items, 670 ms against 220 ms)."""
    if connection.vendor == "postgresql":
        bucket, window = _in_ranges(ranges, "order__created_at")
        return (OrderItem.objects.filter(window, order__payment_status__in=COUNTED_PAYMENTS, order__is_test=False,
                                         product__isnull=False)
                .exclude(order__status=OrderStatus.CANCELLED).annotate(bucket=bucket).order_by()
                .values("bucket", "product_id").annotate(units=Sum("quantity"), cents=_cents("line_total_amount"))
                .values_list("bucket", "product_id", "units", "cents"))
    parts = [
        OrderItem.objects.filter(order__in=sales_orders(since=lo, until=hi), product__isnull=False).order_by()
        .annotate(bucket=Value(n, output_field=IntegerField())).values("bucket", "product_id")
        .annotate(units=Sum("quantity"), cents=_cents("line_total_amount"))
        .values_list("bucket", "product_id", "units", "cents")
        for n, (lo, hi) in enumerate(ranges)
    ]
    return parts[0].union(*parts[1:], all=True)


def discount_shares(ranges):
    """{range index: {product: piasters}}: the coupon discounts of the counted, not cancelled orders in
    each of `ranges`, shared across each order's lines (orders.calculations.line_discounts). One query
    over the items of the orders that had a discount; a line whose product was deleted takes its share,
    which is left out with it."""
    bucket, window = _in_ranges(ranges, "order__created_at")
    rows = (OrderItem.objects.filter(window, order__payment_status__in=COUNTED_PAYMENTS, order__is_test=False,
                                     order__discount_amount__gt=0)
            .exclude(order__status=OrderStatus.CANCELLED).annotate(bucket=bucket).order_by("order_id", "pk")
            .values_list("bucket", "order_id", "order__discount_amount", "product_id", "line_total_amount"))
    shares: dict[int, Counter] = {}
    for (n, _order, discount), lines in itertools.groupby(rows, key=lambda row: row[:3]):
        lines = list(lines)
        for (*_row, product_id, _total), share in zip(lines, line_discounts(
                discount=discount, line_totals=[line[4] for line in lines]), strict=True):
            if product_id is not None:
                shares.setdefault(n, Counter())[product_id] += int(share * 100)
    return shares


def _product_sums(ranges):
    """{range: {product: (units, piasters)}} sold in each of `ranges`, each line after its share of its
    order's coupon discount."""
    sums = _read_sums(ranges, item_rows)
    if ranges:
        for n, shares in discount_shares(ranges).items():
            sold = sums[ranges[n]]
            for product_id, cents in shares.items():
                units, have = sold[product_id]
                sold[product_id] = (units, have - cents)
    return sums


def _read_sums(ranges, rows):
    """{range: {status or product: (count, piasters)}} for `ranges`, read with `rows`.

    The rows (a year's are some 45,000: months × products) are fetched as the driver gives
    them, integers and text: Django's converters (an int() per column and row) were a third
    of the time of a request with nothing cached."""
    sums = {span: {} for span in ranges}
    if ranges:
        sql, params = rows(ranges).query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            for bucket, key, count, cents in cursor.fetchall():
                sums[ranges[int(bucket)]][key] = (int(count), int(cents))
    return sums


def _merged(parts):
    """{key: (count, piasters)} summed over `parts` (which are left as they are)."""
    total = None
    for part in parts:
        if total is None:
            total = dict(part)
            continue
        for key, (count, cents) in part.items():
            have = total.get(key)
            total[key] = (count, cents) if have is None else (have[0] + count, have[1] + cents)
    return total or {}


# --- the cache --------------------------------------------------------------------

def _token_key(start):
    return f"{PREFIX}:{start:%Y-%m}:token"


def _day_token_key(day):
    return f"{PREFIX}:{day:%Y-%m-%d}:token"


def _days_key(lo, hi):
    return f"{PREFIX}:days:{lo:%Y-%m-%d}:{hi:%Y-%m-%d}"


def _month_key(start, stamp):
    """A month's sums as of `stamp` (generation, token): each version under its own key, so
    a span can take out the version it holds and put in the new one."""
    return f"{PREFIX}:{start:%Y-%m}:{stamp[0]}:{stamp[1]}"


def _span_key(months, with_products):
    return f"{PREFIX}:{months[0]:%Y-%m}:{months[-1]:%Y-%m}:{'products' if with_products else 'orders'}"


def _new_token():
    return uuid4().hex


def _cached_spans(wholes, runs):
    """Each period's cached span (the sums over its whole months, with the stamps of the
    month versions it adds up) and the cached sums of each run of days, with the current
    stamp of every month and day, which sums read now are stored under. Read before the
    database."""
    months = [start for whole, _p in wholes for start in whole]
    days = [day for run in runs for day in _dates(*run)]
    found = cache.get_many([GENERATION_KEY, *map(_token_key, months), *map(_day_token_key, days),
                            *(_span_key(whole, with_products) for whole, with_products in wholes if whole),
                            *(_days_key(*run) for run in runs)])
    fresh = {}
    generation, zone = found.get(GENERATION_KEY), f"{store_zone().key}@"
    if not generation or not generation.startswith(zone):
        # none yet, or one whose months were cut in another zone (the store's setting changed since, by
        # whatever path): every month and day is counted anew, in the store's zone now
        generation = fresh[GENERATION_KEY] = f"{zone}{_new_token()}"
    stamps = {start: (generation, found.get(_token_key(start)) or fresh.setdefault(_token_key(start), _new_token()))
              for start in months}
    stamps |= {day: (generation, found.get(_day_token_key(day)) or fresh.setdefault(_day_token_key(day),
                                                                                  _new_token()))
               for day in days}
    if fresh:
        cache.set_many(fresh, TOKEN_CACHE_SECONDS)
    return (stamps, [found.get(_span_key(whole, with_products)) if whole else None for whole, with_products in wholes],
            [found.get(_days_key(*run)) for run in runs])


def sales_cache_expire(sender, placed, **kwargs):
    """orders.signals.sales_written: once the write commits, give the months and days of the
    orders it touched new tokens (or every month a new generation when it could not say)."""
    if placed is None or not all(isinstance(m, datetime) and timezone.is_aware(m) for m in placed):
        keys = {GENERATION_KEY}
    else:
        zone = store_zone()  # once: outside a request each read of the settings is a round trip to the cache
        keys = {key for moment in placed
                for key in (_token_key(_month_start(moment, zone)), _day_token_key(_date(moment, zone)))}
    transaction.on_commit(lambda: cache.set_many({key: _new_token() for key in keys}, TOKEN_CACHE_SECONDS),
                          robust=True)


def sales_cache_reset(**kwargs):
    """Make every cached month stale (after `migrate`, which a restore runs)."""
    cache.set(GENERATION_KEY, _new_token(), None)


def _period_sums(*, current, previous):
    """The current period's sums per status and per product, and the previous one's per
    status, each as a list of parts to add up: its whole months, its run of days of the
    current month before today, and its live pieces.

    A period's whole months are cached as one span. When some of them were written since,
    the span takes out the versions of those months it holds and puts in their new ones
    (adding a year of months up again is some 40,000 product rows); when it cannot (no span,
    or the version it holds is gone), it adds every month up anew. A month's sums (per status
    and per product, whichever period asks) come from the cache when there, else from the
    database, read with the live pieces. Each version carries a random id and a span the ids
    of the versions it adds up: two requests may both store a month under one stamp (one
    having read the database before a write, the other after), so only the exact content
    the span holds is ever taken out.

    The days of the current month before today are cached as one run, valid while the
    stamp of each of its days is current: new orders (today's) leave it as it is."""
    use_cache = not connection.in_atomic_block
    periods = [(current, True), (previous, False)]
    wholes = [[lo for piece, lo, _hi in segments if piece == "month"] for segments, _p in periods]
    runs = [(lo, hi) for piece, lo, hi in current if piece == "days"]
    if use_cache and (wholes[0] or wholes[1] or runs):
        stamps, spans, cached_runs = _cached_spans(list(zip(wholes, (True, False), strict=True)), runs)
    else:
        stamps = dict.fromkeys([*wholes[0], *wholes[1], *(day for run in runs for day in _dates(*run))], (None, None))
        spans, cached_runs = [None, None], [None] * len(runs)
    run_sums = {run: sums for run, sums in zip(runs, cached_runs, strict=True)
                if sums and sums["stamps"] == [stamps[day] for day in _dates(*run)]}
    missing_runs = [run for run in runs if run not in run_sums]
    # per period: None (no whole months, or its span is valid), else the months that changed
    # since its span [(month, old stamp)] with the ids of the versions it holds, or None in
    # `changed` to add every month up anew
    plans = []
    for whole, span in zip(wholes, spans, strict=True):
        changed = [(start, old) for start, old in zip(whole, span["stamps"], strict=True)
                   if old != stamps[start]] if span else None
        if changed and len(changed) > len(whole) // 2:
            changed = None  # (after a migrate, every month): adding up anew is quicker
        held = dict(zip(whole, span["ids"], strict=True)) if span else {}
        plans.append(None if not whole or changed == [] else {"span": span, "changed": changed, "held": held})

    def versions_wanted(whole, plan):
        new = [(start, stamps[start]) for start in whole if plan["changed"] is None or start in dict(plan["changed"])]
        return new + (plan["changed"] or [])

    wanted = {version for whole, plan in zip(wholes, plans, strict=True) if plan
              for version in versions_wanted(whole, plan)}
    found = cache.get_many([_month_key(*version) for version in wanted]) if use_cache and wanted else {}
    for whole, plan in zip(wholes, plans, strict=True):
        if plan and plan["changed"] and not all(found.get(_month_key(*old), {}).get("id") == plan["held"][old[0]]
                                                for old in plan["changed"]):
            plan["changed"] = None  # the version the span holds is gone: add every month up anew
            more = set(versions_wanted(whole, plan)) - wanted
            wanted |= more
            found |= cache.get_many([_month_key(*version) for version in more]) if use_cache and more else {}
    versions = {version: found[_month_key(*version)] for version in wanted if _month_key(*version) in found}
    # from the database: the live pieces, and each month whose current version is not cached
    needed = sorted(start for start, stamp in wanted if stamp == stamps[start] and (start, stamp) not in versions)
    live = [[(lo, hi) for piece, lo, hi in segments if piece == "live"] for segments, _p in periods]
    months = [(start, _next_month(start)) for start in needed]
    statuses = _read_sums(live[0] + missing_runs + live[1] + months, order_rows)
    products = _product_sums(live[0] + missing_runs + months)
    fresh = {}
    for run in missing_runs:
        run_sums[run] = fresh[_days_key(*run)] = {"stamps": [stamps[day] for day in _dates(*run)],
                                                  "statuses": statuses[run], "products": products[run]}
    for start, span in zip(needed, months, strict=True):
        version = (start, stamps[start])
        versions[version] = fresh[_month_key(*version)] = {"id": _new_token(), "statuses": statuses[span],
                                                           "products": products[span]}
    for n, ((whole, plan), (_segments, with_products)) in enumerate(zip(zip(wholes, plans, strict=True), periods,
                                                                        strict=True)):
        if plan is None:
            continue
        kinds = ["statuses", "products"] if with_products else ["statuses"]
        if plan["changed"] is None:
            sums = {kind: _merged(versions[(start, stamps[start])][kind] for start in whole) for kind in kinds}
        else:
            old = [versions[version] for version in plan["changed"]]
            new = [versions[(start, stamps[start])] for start, _old in plan["changed"]]
            sums = {kind: _adjusted(plan["span"][kind], old, new, kind) for kind in kinds}
        spans[n] = fresh[_span_key(whole, with_products)] = {
            "stamps": [stamps[start] for start in whole],
            "ids": [plan["held"][start] if plan["changed"] is not None and start not in dict(plan["changed"])
                    else versions[(start, stamps[start])]["id"] for start in whole], **sums}
    if use_cache and fresh:
        cache.set_many(fresh, MONTH_CACHE_SECONDS)
    return ([*([spans[0]["statuses"]] if wholes[0] else []), *[run_sums[run]["statuses"] for run in runs],
             *[statuses[span] for span in live[0]]],
            [*([spans[0]["products"]] if wholes[0] else []), *[run_sums[run]["products"] for run in runs],
             *[products[span] for span in live[0]]],
            [*([spans[1]["statuses"]] if wholes[1] else []), *[statuses[span] for span in live[1]]])


def _adjusted(total, old, new, kind):
    """`total` with the `old` versions' sums of `kind` taken out and the `new` ones' put in."""
    total = dict(total)
    for version in old:
        for key, (count, cents) in version[kind].items():
            have = total[key]
            left = (have[0] - count, have[1] - cents)
            if left == (0, 0):
                del total[key]  # as if never added: a fresh sum has no such entry
            else:
                total[key] = left
    return _merged([total, *(version[kind] for version in new)])


def _money(cents):
    return quantize(Decimal(cents) / 100)


def _figures(statuses):
    """Revenue, order count and average order value from sums per status (cancelled left out)."""
    orders = cents = 0
    for status, (n, amount) in statuses.items():
        if status != OrderStatus.CANCELLED:
            orders += n
            cents += amount
    revenue = _money(cents)
    average = quantize(revenue / orders) if orders else quantize(Decimal("0"))
    return {"revenue": revenue, "orders": orders, "average_order_value": average}


def _status_breakdown(statuses):
    """How many counted orders are in each status (every status listed)."""
    return {status: statuses.get(status, (0, 0))[0] for status in OrderStatus.values}


def _products():
    """product id → (category id, active) for every product, read as a plain QuerySet:
    modeltranslation's rewrites each row (these columns have no language), 3× slower for 5,000."""
    return {pk: (category_id, active)
            for pk, category_id, active in QuerySet(model=Product).order_by().values_list("pk", "category_id",
                                                                                        "is_active")}


# --- the section ------------------------------------------------------------------

def daily_sales(*, days=DAILY_DAYS, now=None):
    """Revenue and orders per calendar day of the store's time zone for the last `days` days, oldest first
    (each day from its local midnight to the next: one range per day, summed by the database)."""
    zone = store_zone()
    today = store_localdate(now, zone)
    dates = [today - timedelta(days=days - 1 - offset) for offset in range(days + 1)]
    midnights = [store_day_start(day, zone) for day in dates]
    bucket, window = _in_ranges(list(itertools.pairwise(midnights)), "created_at")
    rows = (sales_orders().filter(window).annotate(bucket=bucket).order_by().values("bucket")
            .annotate(n=Count("*"), cents=_cents(amount_kept())).values_list("bucket", "n", "cents"))
    by_day = {bucket: (n, cents) for bucket, n, cents in rows}
    return [{"date": day.isoformat(), "revenue": _money(by_day.get(n, (0, 0))[1]), "orders": by_day.get(n, (0, 0))[0]}
            for n, day in enumerate(dates[:-1])]


def top_sellers(*, sold, limit=TOP_SELLERS):
    """The products with the most units sold in the period (`sold`: product id → (units, piasters))."""
    rows = heapq.nsmallest(limit, sold.items(), key=lambda row: (-row[1][0], -row[1][1], row[0]))
    products = Product.objects.select_related("category").in_bulk([product_id for product_id, _s in rows])
    return [
        {
            "id": product_id,
            "title": products[product_id].title,
            "slug": products[product_id].slug,
            "category": products[product_id].category.slug,
            "category_name": products[product_id].category.name,
            "total_sold": units,
            "revenue": _money(cents),
        }
        for product_id, (units, cents) in rows
    ]


def category_breakdown(*, sold, products):
    """Per category: active products, and units and revenue sold in the period
    (`sold`: product id → (units, piasters); `products`: _products())."""
    active = Counter(category_id for category_id, is_active in products.values() if is_active)
    sales = {}
    for product_id, (units, cents) in sold.items():
        category_id = products[product_id][0]
        have = sales.get(category_id, (0, 0))
        sales[category_id] = (have[0] + units, have[1] + cents)
    result = []
    for category in Category.objects.order_by("position", "slug"):
        if not active[category.pk] and category.pk not in sales:
            continue
        units, cents = sales.get(category.pk, (0, 0))
        result.append({
            "slug": category.slug,
            "name": category.name,
            "product_count": active[category.pk],
            "units_sold": units,
            "revenue": _money(cents),
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
    statuses, sold, previous_statuses = _period_sums(current=_segments(since, None),
                                                     previous=_segments(previous_since, since))
    statuses, previous_statuses = _merged(statuses), _merged(previous_statuses)
    figures = _figures(statuses)
    previous = {"since": previous_since, "until": since, **_figures(previous_statuses)}
    products = _products()
    # products deleted since they sold: left out, as the database leaves their items out
    sold = {product_id: sums for product_id, sums in _merged(sold).items() if product_id in products}
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
            "total_products": sum(is_active for _category, is_active in products.values()),
            "top_selling_products": top_sellers(sold=sold),
            "category_breakdown": category_breakdown(sold=sold, products=products),
        },
    }
