"""Revenue is what customers paid: net of coupon discounts and refunds; per product and category, each
order's coupon discount is shared across its lines, to the piaster."""

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from orders.actions import order_partly_refunded
from orders.calculations import line_discounts
from orders.models import Coupon
from tests.factories import make_category, make_order, make_product

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("discount", "lines", "shares"), [
    ("10.00", ["100.00", "100.00", "100.00"], ["3.34", "3.33", "3.33"]),
    ("0.05", ["1.00"] * 6, ["0.01", "0.01", "0.01", "0.01", "0.01", "0.00"]),
    ("15.00", ["30.00", "120.00"], ["3.00", "12.00"]),
    ("7.77", ["33.33", "66.67", "0.00"], ["2.59", "5.18", "0.00"]),
    ("200.00", ["150.00", "50.00"], ["150.00", "50.00"]),
    ("0.00", ["150.00", "50.00"], ["0.00", "0.00"]),
])
def test_an_orders_discount_is_shared_across_its_lines_and_adds_up_exactly(discount, lines, shares):
    # when
    got = line_discounts(discount=Decimal(discount), line_totals=[Decimal(x) for x in lines])
    # then
    assert got == [Decimal(x) for x in shares]
    assert sum(got, Decimal("0")) == Decimal(discount)


def test_shares_add_up_for_awkward_amounts():
    # given amounts that never divide evenly
    for cents in range(1, 400, 7):
        discount = Decimal(cents) / 100
        totals = [Decimal("19.99"), Decimal("0.03"), Decimal("7.00"), Decimal("33.33")]
        # when
        got = line_discounts(discount=discount, line_totals=totals)
        # then each share is whole piasters, never above its line, and they add up to the discount
        assert sum(got, Decimal("0")) == discount
        assert all(share == share.quantize(Decimal("0.01")) and 0 <= share <= line
                   for share, line in zip(got, totals, strict=True))


@pytest.fixture
def coupon_history():
    """| order | payment | status    | when       | lines                        | discount | total | kept |
    | A     | paid    | delivered | 2 months   | T1, T2, T3 at 100 each       | 10 fixed | 340   | 340  |
    | B     | cod     | shipped   | now        | T1 ×2 at 100, T4 at 50       | 10 %: 25 | 275   | 275  |
    | C     | paid    | delivered | now        | T4 ×10 at 50                 | -        | 550   | 450 (100 refunded) |
    | D     | paid    | cancelled | now        | T1 at 100                    | 10 fixed | 140   | not revenue |
    | E     | refunded| processing| now        | T2 at 100                    | -        | 150   | not revenue |
    """
    black = make_category("black-tea", "Black Tea", "شاي أسود", 1)
    green = make_category("green-tea", "Green Tea", "شاي أخضر", 2)
    t1 = make_product(title="Kericho Gold", category=black, price="100", stock=100)
    t2 = make_product(title="Highland Black", category=black, price="100", stock=100)
    t3 = make_product(title="Green Mist", category=green, price="100", stock=100)
    t4 = make_product(title="Mint Green", category=green, price="50", stock=100)
    Coupon.objects.create(code="TEN", type="fixed", value=Decimal("10"))
    Coupon.objects.create(code="PCT10", type="percentage", value=Decimal("10"))
    now = timezone.now()
    make_order(lines=[(t1, 1), (t2, 1), (t3, 1)], coupon_code="TEN", status="delivered",
               created_at=now - timedelta(days=62))
    make_order(lines=[(t1, 2), (t4, 1)], coupon_code="PCT10", payment_status="cod", status="shipped",
               created_at=now)
    refunded = make_order(lines=[(t4, 10)], status="delivered", created_at=now)
    order_partly_refunded(order=refunded, returned=Decimal("100.00"))
    make_order(lines=[(t1, 1)], coupon_code="TEN", status="cancelled", created_at=now)
    make_order(lines=[(t2, 1)], payment_status="refunded", created_at=now)
    return {"t1": t1, "t2": t2, "t3": t3, "t4": t4}


def _data(client, owner, period="1y"):
    client.force_login(owner)
    response = client.get(f"/api/admin/analytics?period={period}")
    assert response.status_code == 200
    return response.json()["data"]


def test_revenue_is_what_customers_paid_less_refunds(client, owner, coupon_history):
    # when
    orders = _data(client, owner)["orders"]
    # then A 340 + B 275 + C 450 kept; the cancelled and the fully refunded orders bring nothing
    assert (orders["revenueThisMonth"], orders["ordersThisMonth"]) == ("1065.00", 3)
    assert orders["averageOrderValue"] == "355.00"


@pytest.mark.parametrize("cached", [False, True], ids=["counted", "from the cache"])
def test_product_and_category_sales_carry_their_share_of_the_coupon(client, owner, coupon_history, cached):
    # given
    if cached:
        _data(client, owner)
    # when
    products = _data(client, owner)["products"]
    # then A's E£10 is 3.34 + 3.33 + 3.33 over T1, T2, T3; B's E£25 is 20.00 on T1's 200 and 5.00 on T4's 50
    sellers = {row["title"]: (row["totalSold"], row["revenue"]) for row in products["topSellingProducts"]}
    assert sellers == {
        "Kericho Gold": (3, "276.66"),  # 96.66 + 180.00
        "Highland Black": (1, "96.67"),
        "Green Mist": (1, "96.67"),
        "Mint Green": (11, "545.00"),  # 45.00 + 500.00 (C's refund names no product)
    }
    categories = {row["slug"]: row["revenue"] for row in products["categoryBreakdown"]}
    assert categories == {"black-tea": "373.33", "green-tea": "641.67"}
    # and the lines add up to what the goods sold for after discounts: 300 − 10 + 250 − 25 + 500
    assert sum(Decimal(x) for x in categories.values()) == Decimal("1015.00")


def test_the_export_labels_net_figures(client, owner, coupon_history):
    # given
    client.force_login(owner)
    # when
    text = client.get("/api/admin/analytics/export?period=1y").content.decode("utf-8-sig")
    # then
    rows = list(csv.reader(io.StringIO(text)))
    summary = {row[0]: row[1] for row in rows[1:5]}
    assert summary["Revenue (paid, after discounts and refunds)"] == "1065.00"
    assert summary["Average order value (after discounts and refunds)"] == "355.00"
    seller_header = next(row for row in rows if row and row[0] == "Top sellers")
    assert seller_header[-1] == "Sales after coupon discounts"
    kericho = next(row for row in rows if row and row[0] == "Kericho Gold")
    assert kericho[-1] == "276.66"


def test_the_export_labels_net_figures_in_arabic(client, owner, coupon_history):
    # given
    client.force_login(owner)
    # when
    text = client.get("/api/admin/analytics/export?period=1y",
                      HTTP_ACCEPT_LANGUAGE="ar").content.decode("utf-8-sig")
    # then
    assert "الإيرادات (المدفوعة بعد الخصومات والمبالغ المستردة)" in text
    assert "المبيعات بعد خصومات القسائم" in text
