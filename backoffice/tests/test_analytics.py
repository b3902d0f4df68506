"""Analytics figures against orders whose numbers were worked out by hand."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from backoffice.analytics import analytics_get, item_rows, order_rows
from shop.store_settings import store_settings_update
from tests.factories import make_category, make_order, make_product

pytestmark = pytest.mark.django_db


@pytest.fixture
def shop_history():
    """Seven orders; only paid and COD orders that were not cancelled make revenue.

    | order | payment  | status     | age      | lines              | total |
    | A     | paid     | processing | now      | P1×2@100, P2×1@50  | 300 (incl. 50 shipping) |
    | B     | cod      | delivered  | 2 days   | P1×1@100           | 150 (incl. 50 shipping) |
    | C     | paid     | cancelled  | 1 day    | P2×5@50            | 300 (not revenue) |
    | D     | awaiting | pending    | now      | P3×10@80           | 850 (not counted) |
    | E     | failed   | cancelled  | now      | P1×4@100           | 450 (not counted) |
    | F     | paid     | shipped    | 20 days  | P3×3@80            | 290 (incl. 50 shipping) |
    | G     | paid     | delivered  | 100 days | P2×10@50           | 550 (incl. 50 shipping) |
    """
    black = make_category("black-tea", "Black Tea", "شاي أسود", 1)
    green = make_category("green-tea", "Green Tea", "شاي أخضر", 2)
    p1 = make_product(title="Kericho Gold", category=black, price="100")
    p2 = make_product(title="Green Mist", category=green, price="50")
    p3 = make_product(title="Highland Black", category=black, price="80")
    now = timezone.now()
    make_order(lines=[(p1, 2), (p2, 1)], created_at=now)
    make_order(lines=[(p1, 1)], payment_status="cod", status="delivered",
               created_at=now - timedelta(days=2))
    make_order(lines=[(p2, 5)], status="cancelled", created_at=now - timedelta(days=1))
    make_order(lines=[(p3, 10)], payment_status="awaiting", status="pending", created_at=now)
    make_order(lines=[(p1, 4)], payment_status="failed", status="cancelled", created_at=now)
    make_order(lines=[(p3, 3)], status="shipped", created_at=now - timedelta(days=20))
    make_order(lines=[(p2, 10)], status="delivered", created_at=now - timedelta(days=100))
    return {"p1": p1, "p2": p2, "p3": p3}


def _analytics(client, owner, period):
    client.force_login(owner)
    response = client.get(f"/api/admin/analytics?period={period}")
    assert response.status_code == 200
    return response.json()["data"]


def test_the_last_7_days_count_paid_and_cod_orders_only(client, owner, shop_history):
    # when
    data = _analytics(client, owner, "7d")
    # then
    orders = data["orders"]
    assert orders["revenueThisMonth"] == "450.00"
    assert orders["ordersThisMonth"] == 2
    assert orders["averageOrderValue"] == "225.00"
    assert orders["statusBreakdown"] == {
        "pending": 0, "processing": 1, "shipped": 0, "delivered": 1, "cancelled": 1,
    }
    top = [(p["title"], p["totalSold"], p["revenue"]) for p in data["products"]["topSellingProducts"]]
    assert top == [("Kericho Gold", 3, "300.00"), ("Green Mist", 1, "50.00")]
    categories = {c["slug"]: (c["productCount"], c["unitsSold"], c["revenue"])
                  for c in data["products"]["categoryBreakdown"]}
    assert categories == {"black-tea": (2, 3, "300.00"), "green-tea": (1, 1, "50.00")}
    assert data["products"]["totalProducts"] == 3


def test_longer_periods_take_in_older_orders(client, owner, shop_history):
    # when
    month = _analytics(client, owner, "30d")
    year = _analytics(client, owner, "1y")
    # then
    assert (month["orders"]["revenueThisMonth"], month["orders"]["ordersThisMonth"]) == ("740.00", 3)
    assert month["orders"]["averageOrderValue"] == "246.67"
    assert [p["title"] for p in month["products"]["topSellingProducts"]] == [
        "Kericho Gold", "Highland Black", "Green Mist",  # 3 (E£300), 3 (E£240), 1
    ]
    assert (year["orders"]["revenueThisMonth"], year["orders"]["ordersThisMonth"]) == ("1290.00", 4)
    assert year["orders"]["averageOrderValue"] == "322.50"
    assert year["products"]["topSellingProducts"][0]["title"] == "Green Mist"
    assert year["products"]["topSellingProducts"][0]["totalSold"] == 11


def test_the_daily_bars_cover_the_last_7_days_oldest_first(client, owner, shop_history):
    # when
    daily = _analytics(client, owner, "90d")["orders"]["dailyOrders"]
    # then
    today = timezone.localdate()
    assert [d["date"] for d in daily] == [(today - timedelta(days=6 - i)).isoformat() for i in range(7)]
    assert [d["revenue"] for d in daily] == ["0.00"] * 4 + ["150.00", "0.00", "300.00"]
    assert [d["orders"] for d in daily] == [0, 0, 0, 0, 1, 0, 1]


def test_only_five_top_sellers_are_listed(client, owner):
    # given
    products = [make_product(price="10") for _ in range(7)]
    for quantity, product in enumerate(products, start=1):
        make_order(lines=[(product, quantity)])
    # when
    top = _analytics(client, owner, "7d")["products"]["topSellingProducts"]
    # then
    assert [p["totalSold"] for p in top] == [7, 6, 5, 4, 3]


def test_the_average_order_value_is_rounded_to_piasters(client, owner):
    # given
    store_settings_update(free_shipping_threshold=Decimal("0"))  # each order's total is its one price
    for total in ("33.33", "33.33", "33.35"):  # E£100.01 over 3 orders
        make_order(price=total)
    # when
    orders = _analytics(client, owner, "7d")["orders"]
    # then
    assert orders["revenueThisMonth"] == "100.01"
    assert orders["averageOrderValue"] == "33.34"


def test_an_empty_shop_answers_zeros(client, owner):
    # when
    data = _analytics(client, owner, "1y")
    # then
    assert data["orders"]["revenueThisMonth"] == "0.00"
    assert data["orders"]["averageOrderValue"] == "0.00"
    assert data["products"]["topSellingProducts"] == []
    assert len(data["orders"]["dailyOrders"]) == 7


def test_it_rejects_an_unknown_period(client, owner):
    # given
    client.force_login(owner)
    # when
    response = client.get("/api/admin/analytics?period=2w")
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "period"


def test_it_reads_with_a_constant_number_of_queries(client, owner, shop_history, django_assert_max_num_queries):
    # given
    client.force_login(owner)
    # then
    with django_assert_max_num_queries(14):
        client.get("/api/admin/analytics?period=1y")


def _plan(queryset):
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL enable_seqscan = off")  # the plan these small tables get when large
    return queryset.explain()


def test_a_years_sums_read_the_orders_and_their_items_from_the_sales_indexes():
    # with 50,000 orders, reading each order's row for a year's sums took most of the
    # analytics request (bench/dashboard.py): the sales indexes carry every column summed
    # (a year is now mostly cached months; the first request reads them all, later ones
    # the part-month at each end: two ranges)
    now = timezone.now()
    for ranges in ([(now - timedelta(days=365), None)],
                   [(now - timedelta(days=365), now - timedelta(days=360)), (now - timedelta(days=20), None)]):
        orders, items = _plan(order_rows(ranges)), _plan(item_rows(ranges))
        if connection.vendor == "sqlite":
            assert "order_sales_by_date" in orders, orders
            assert items.count("order_item_sales") == len(ranges), items
        else:
            # PostgreSQL picks between the indexes that start with the date (and on the items'
            # order) by its statistics of these few rows, never reading a whole table; on the
            # vacuumed benchmark shop it reads order_sales_by_date alone (bench/RESULTS.md)
            assert "Seq Scan" not in orders + items, orders + items


def test_a_period_reads_its_order_items_once_for_top_sellers_and_categories(shop_history):
    # two passes over a year's items (one per product, one joining every item to its product
    # for the categories) were most of the analytics request with 50,000 orders (bench/dashboard.py)
    with CaptureQueriesContext(connection) as queries:
        data = analytics_get(period="1y")
    assert data["products"]["top_selling_products"] and data["products"]["category_breakdown"]
    reads = [query["sql"] for query in queries.captured_queries if '"orders_orderitem"' in query["sql"]]
    # one pass over the items; the other reads only the items of orders with a coupon discount, to share it
    assert len(reads) == 2 and sum('"discount_amount" > ' in sql for sql in reads) == 1
