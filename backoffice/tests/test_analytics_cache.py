"""Analytics (issue 14): a period summed from cached calendar months answers exactly what the
database answers, and every write to an order or an item makes its month be read again.

These tests commit (transaction=True): the cache is only filled outside a transaction, and a
month is marked stale when the write commits. `_uncached` reads inside a transaction, where
the cache is not used: what the database alone gives.
"""

import random
from collections import Counter, defaultdict
from datetime import datetime, timedelta
from decimal import Decimal
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

import backoffice.analytics as analytics
from backoffice.analytics import PERIODS, analytics_get
from catalog.models import Product
from orders.actions import order_cancel, order_set_status
from orders.models import Order, OrderItem, OrderStatus, PaymentStatus
from shop.money import quantize
from shop.store_settings import store_settings_update
from tests.factories import _card_callback, make_category, make_order, make_product

pytestmark = pytest.mark.django_db(transaction=True)
CAIRO = ZoneInfo("Africa/Cairo")


def _uncached(period="1y", now=None):
    with transaction.atomic():
        return analytics_get(period=period, now=now)


def _agreed(period="1y"):
    """The answer with the cache, checked against the database's alone."""
    now = timezone.now()
    data = analytics_get(period=period, now=now)
    assert data == _uncached(period, now)
    return data


def _cached_month(moment):
    """The sums cached for the month of `moment` as of now (None when there are none)."""
    start = analytics._month_start(moment)
    stamp = (cache.get(analytics.GENERATION_KEY), cache.get(analytics._token_key(start)))
    return cache.get(analytics._month_key(start, stamp))


def _revenue(data):
    return data["orders"]["revenue_this_month"], data["orders"]["orders_this_month"]


def _sellers(data):
    return [(row["title"], row["total_sold"], row["revenue"]) for row in data["products"]["top_selling_products"]]


# --- the same figures, cached or not --------------------------------------------------

def _random_shop(rng, now):
    """Orders of every status and payment over two years and more, many on the edges of the
    shop's months and of the periods; rows written directly (their totals are not priced, only
    summed here), the one way to get hundreds of orders in a second."""
    categories = [make_category(f"cat-{n}", f"Category {n}", f"فئة {n}", n) for n in range(3)]
    products = [make_product(title=f"Tea {n}", category=categories[n % 3]) for n in range(12)]
    moments = [now + timedelta(days=rng.uniform(-800, 0.5)) for _ in range(300)]
    start = analytics._month_start(now - timedelta(days=800))
    while start <= now:
        moments += [start - timedelta(microseconds=1), start, start + timedelta(microseconds=1)]
        start = analytics._next_month(start)
    for days in PERIODS.values():
        for since in (now - timedelta(days=days), now - timedelta(days=2 * days)):
            moments += [since - timedelta(microseconds=1), since, since + timedelta(microseconds=1)]
    payments = [PaymentStatus.PAID, PaymentStatus.COD, PaymentStatus.PAID, PaymentStatus.COD, PaymentStatus.AWAITING,
                PaymentStatus.FAILED, PaymentStatus.REFUNDED]
    orders = []
    for n, moment in enumerate(moments):
        total = Decimal(rng.randint(100, 99_999)) / 100
        orders.append(Order(
            number=f"NT-R{n:05d}", status=rng.choice(OrderStatus.values), payment_status=rng.choice(payments),
            payment_method="card", is_test=rng.random() < 0.1, email=f"buyer{n}@example.com", first_name="Mona",
            last_name="Ali", phone="01012345678", street="1 Nile St", city="Cairo", state="Cairo",
            subtotal_amount=total, shipping_amount=0, tax_amount=0, total_amount=total, created_at=moment,
        ))
    Order.objects.bulk_create(orders)
    items = []
    for order in Order.objects.all():
        for product in rng.sample(products, rng.randint(1, 3)):
            quantity, price = rng.randint(1, 4), Decimal(rng.randint(100, 50_000)) / 100
            items.append(OrderItem(order=order, product=product, product_title=product.title,
                                   product_slug=product.slug, unit_price_amount=price, quantity=quantity,
                                   line_total_amount=price * quantity))
    OrderItem.objects.bulk_create(items)
    products[0].delete()  # sold, then deleted: its items stay, without a product


def _by_hand(period, now):
    """The figures worked out in Python from every row."""
    days = timedelta(days=PERIODS[period])
    since, before = now - days, now - 2 * days
    counted = {order["id"]: order for order in Order.objects.values()
               if order["payment_status"] in ("paid", "cod") and not order["is_test"]}
    current = {pk: order for pk, order in counted.items() if order["created_at"] >= since}
    previous = [order for order in counted.values() if before <= order["created_at"] < since]

    def figures(orders):
        sales = [order["total_amount"] for order in orders if order["status"] != "cancelled"]
        return quantize(sum(sales, Decimal("0"))), len(sales)

    units, money = Counter(), defaultdict(Decimal)
    for item in OrderItem.objects.values():
        order = current.get(item["order_id"])
        if order and order["status"] != "cancelled" and item["product_id"] is not None:
            units[item["product_id"]] += item["quantity"]
            money[item["product_id"]] += item["line_total_amount"]
    top = sorted(units, key=lambda pk: (-units[pk], -money[pk], pk))[:5]
    statuses = Counter(order["status"] for order in current.values())
    return {"current": figures(current.values()), "previous": figures(previous),
            "statuses": {status: statuses[status] for status in OrderStatus.values},
            "top": [(pk, units[pk], quantize(money[pk])) for pk in top],
            "units": sum(units.values())}


@pytest.mark.parametrize("moment", [
    datetime(2026, 11, 24, 9, 45, tzinfo=CAIRO),
    datetime(2026, 5, 1, 0, 0, 30, tzinfo=CAIRO),  # just into a month, in summer time
    datetime(2027, 1, 1, 0, 0, 0, 500, tzinfo=CAIRO),  # just into a year
    datetime(2026, 10, 29, 23, 30, tzinfo=CAIRO),  # the evening summer time ended
    datetime(2026, 4, 25, 12, 0, tzinfo=CAIRO),  # the day after summer time began (at midnight)
])
def test_the_cached_and_uncached_answers_are_identical_on_a_random_shop(moment):
    with time_machine.travel(moment, tick=False):
        # given
        now = timezone.now()
        _random_shop(random.Random(moment.toordinal()), now)
        for period in [*PERIODS, *reversed(PERIODS)]:
            # when
            first = analytics_get(period=period)
            again = analytics_get(period=period)
            # then
            assert first == again == _uncached(period)
            expected = _by_hand(period, now)
            assert (first["orders"]["revenue_this_month"], first["orders"]["orders_this_month"]) == expected["current"]
            assert (first["previous"]["revenue"], first["previous"]["orders"]) == expected["previous"]
            assert first["orders"]["status_breakdown"] == expected["statuses"]
            assert [(row["id"], row["total_sold"], row["revenue"])
                    for row in first["products"]["top_selling_products"]] == expected["top"]
            assert sum(row["units_sold"] for row in first["products"]["category_breakdown"]) == expected["units"]
        assert _cached_month(now - timedelta(days=200))["products"] is not None  # the year's months were cached


def test_the_answer_over_the_api_is_the_cached_one(client, owner):
    # given
    make_order(price="120.00", created_at=timezone.now() - timedelta(days=100))
    client.force_login(owner)
    # when
    first = client.get("/api/admin/analytics?period=1y").json()["data"]
    again = client.get("/api/admin/analytics?period=1y").json()["data"]
    # then
    assert (first["orders"], first["products"]) == (again["orders"], again["products"])
    assert first["orders"]["ordersThisMonth"] == 1


# --- what is cached, and when -----------------------------------------------------------

@pytest.fixture
def history():
    """An order of E£200 (Kericho Gold × 2) delivered 100 days ago, in a month that is over,
    and one of E£40 (Green Mist) yesterday. Shipping is free: each total is its lines."""
    store_settings_update(free_shipping_threshold=Decimal("0"))
    gold = make_product(title="Kericho Gold", price="100")
    mist = make_product(title="Green Mist", price="40")
    now = timezone.now()
    old = make_order(lines=[(gold, 2)], status="delivered", created_at=now - timedelta(days=100))
    recent = make_order(lines=[(mist, 1)], created_at=now - timedelta(days=1))
    data = _agreed()
    assert _revenue(data) == (Decimal("240.00"), 2)
    assert _cached_month(old.created_at)["statuses"]  # the old order's month is now cached
    return SimpleNamespace(old=old, recent=recent, gold=gold, mist=mist, now=now)


def test_cached_months_are_not_read_from_the_database_again(history):
    # given: a change the ORM never sees (a hand-edited database)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE orders_order SET total_amount = 999 WHERE id = %s", [history.old.pk])
    # when
    data = analytics_get(period="1y")
    # then: the cached month still says E£200
    assert _revenue(data) == (Decimal("240.00"), 2)
    # and after a migrate (a restore runs one) every month is read again
    call_command("migrate", verbosity=0)
    assert _revenue(_agreed()) == (Decimal("1039.00"), 2)


def test_nothing_is_cached_inside_a_transaction():
    # given
    make_order(price="120.00", created_at=timezone.now() - timedelta(days=100))
    cache.clear()
    # when
    _uncached()
    # then
    assert _cached_month(timezone.now() - timedelta(days=100)) is None


# --- every write makes its month stale --------------------------------------------------

def test_a_status_change_of_an_old_order_is_seen(history):
    order_set_status(order=history.old, status="shipped")
    assert _agreed()["orders"]["status_breakdown"]["shipped"] == 1


def test_a_change_to_an_order_of_an_earlier_day_of_this_month_is_seen(history):
    # (the days of this month before today are cached as one run; on the 1st, yesterday's
    # order is in last month, a whole month)
    order_cancel(order=history.recent)
    assert _revenue(_agreed()) == (Decimal("200.00"), 1)


def test_cancelling_an_old_order_takes_it_out_of_revenue(history):
    order_cancel(order=history.old)
    data = _agreed()
    assert _revenue(data) == (Decimal("40.00"), 1)
    assert _sellers(data) == [("Green Mist", 1, Decimal("40.00"))]
    assert data["orders"]["status_breakdown"]["cancelled"] == 1


def test_a_payment_captured_on_an_old_order_counts_it(history):
    # given: a card order left awaiting payment in the old month, then cached
    waiting = make_order(lines=[(history.mist, 3)], payment_status="awaiting", status="pending",
                         created_at=history.old.created_at + timedelta(hours=1))
    assert _revenue(_agreed()) == (Decimal("240.00"), 2)
    # when: the provider reports it paid
    _card_callback(waiting.payments.get())
    # then
    assert _revenue(_agreed()) == (Decimal("360.00"), 3)


def test_a_refund_of_an_old_order_takes_it_out(history):
    # when: the provider reports the money returned (an UPDATE of the order's row)
    _card_callback(history.old.payments.get(), refunded=True)
    # then
    assert _revenue(_agreed()) == (Decimal("40.00"), 1)


def test_a_deleted_order_is_gone(history):
    history.old.delete()
    assert _revenue(_agreed()) == (Decimal("40.00"), 1)


def test_flagging_an_old_order_as_a_test_takes_it_out(history):
    # the Django admin saves the whole row
    history.old.is_test = True
    history.old.save()
    assert _revenue(_agreed()) == (Decimal("40.00"), 1)


def test_a_new_order_placed_in_a_cached_month_counts(history):
    # given: a process whose clock is still in the old month places an order
    with time_machine.travel(history.old.created_at + timedelta(minutes=5), tick=False):
        make_order(lines=[(history.gold, 1)])
    # then
    data = _agreed()
    assert _revenue(data) == (Decimal("340.00"), 3)
    assert _sellers(data)[0] == ("Kericho Gold", 3, Decimal("300.00"))


def test_orders_written_in_bulk_count(history):
    # given: bulk_create, as data imports and the benchmark write
    copy = Order.objects.get(pk=history.old.pk)
    copy.pk, copy.number = None, "NT-COPY"
    Order.objects.bulk_create([copy])
    OrderItem.objects.bulk_create([OrderItem(order=Order.objects.get(number="NT-COPY"), product=history.mist,
                                             product_title="Green Mist", product_slug=history.mist.slug,
                                             unit_price_amount=Decimal("40"), quantity=5,
                                             line_total_amount=Decimal("200"))])
    # then
    data = _agreed()
    assert _revenue(data) == (Decimal("440.00"), 3)
    assert _sellers(data)[0] == ("Green Mist", 6, Decimal("240.00"))


def test_an_item_changed_by_a_queryset_update_counts(history):
    OrderItem.objects.filter(order=history.old).update(quantity=F("quantity") + 1)
    assert _sellers(_agreed())[0] == ("Kericho Gold", 3, Decimal("200.00"))


def test_an_order_moved_to_another_month_leaves_the_first(history):
    # given: both months cached
    later = history.old.created_at + timedelta(days=40)
    _agreed()
    # when
    Order.objects.filter(pk=history.old.pk).update(created_at=later)
    # then
    assert _revenue(_agreed()) == (Decimal("240.00"), 2)
    assert _cached_month(history.old.created_at)["statuses"] == {}
    assert _cached_month(later)["statuses"]["delivered"] == (1, 20000)


def test_a_deleted_product_leaves_the_top_sellers(history):
    Product.objects.filter(pk=history.gold.pk).delete()
    assert _sellers(_agreed()) == [("Green Mist", 1, Decimal("40.00"))]


def test_a_write_committed_while_a_month_is_being_read_is_not_lost(history, monkeypatch):
    # given: the cache is empty, and the order is cancelled just after a request read the orders
    cache.clear()
    read = analytics._read_sums

    def read_then_cancel(ranges, rows):
        sums = read(ranges, rows)
        if rows is analytics.order_rows and not Order.objects.filter(pk=history.old.pk, status="cancelled").exists():
            order_cancel(order=history.old)
        return sums

    monkeypatch.setattr(analytics, "_read_sums", read_then_cancel)
    # when: that request answers (and caches) what it read
    assert _revenue(analytics_get(period="1y")) == (Decimal("240.00"), 2)
    monkeypatch.undo()
    # then: the next one does not take the month it cached
    assert _revenue(_agreed()) == (Decimal("40.00"), 1)


def test_a_span_takes_out_only_the_month_version_it_holds(history):
    # given: another request stored the old order's month under the same stamp with other
    # sums (it read the database after a write whose new token was not yet set)
    start = analytics._month_start(history.old.created_at)
    stamp = (cache.get(analytics.GENERATION_KEY), cache.get(analytics._token_key(start)))
    key = analytics._month_key(start, stamp)
    cache.set(key, {**cache.get(key), "id": "another", "statuses": {}, "products": {}})
    # when: an order of that month changes
    order_set_status(order=history.old, status="shipped")
    # then: the year is added up anew, not from the span less sums it never held
    assert _revenue(_agreed()) == (Decimal("240.00"), 2)
