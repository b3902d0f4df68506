"""Analytics (issue 17): the previous period of the same length, and a CSV of what is shown."""

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from catalog.products import product_update
from shop.store_settings import store_settings_update
from tests.factories import make_category, make_order, make_product

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_weeks():
    """This week: E£300 + E£150; the week before: E£200 + E£100; 15 days ago (neither): E£999.

    One tea whose price changed between the orders; shipping is free, so each total is the price.
    """
    store_settings_update(free_shipping_threshold=Decimal("0"))
    black = make_category("black-tea", "Black Tea", "شاي أسود", 1)
    tea = make_product(title_en="Kericho Gold", title_ar="كيريتشو جولد", category=black)
    now = timezone.now()
    for total, days in (("300", 0), ("150", 2), ("200", 8), ("100", 10), ("999", 15)):
        tea = product_update(product=tea, price_amount=Decimal(total))
        make_order(lines=[(tea, 1)], created_at=now - timedelta(days=days))
    return tea


def test_the_previous_period_of_the_same_length_is_compared(client, owner, two_weeks):
    # given
    client.force_login(owner)
    # when
    data = client.get("/api/admin/analytics?period=7d").json()["data"]
    # then
    assert (data["previous"]["revenue"], data["previous"]["orders"]) == ("300.00", 2)
    assert data["previous"]["averageOrderValue"] == "150.00"
    assert data["change"] == {"revenue": "50.0", "orders": "0.0", "averageOrderValue": "50.0"}


def test_a_period_with_nothing_before_it_has_no_change(client, owner, two_weeks):
    # given
    client.force_login(owner)
    # when
    data = client.get("/api/admin/analytics?period=1y").json()["data"]
    # then
    assert data["previous"]["orders"] == 0
    assert data["change"]["revenue"] is None


@pytest.mark.parametrize("language, revenue, title", [
    ("en", "Revenue (paid, after discounts and refunds)", "Kericho Gold"),
    ("ar", "الإيرادات (المدفوعة بعد الخصومات والمبالغ المستردة)", "كيريتشو جولد"),
])
def test_the_csv_holds_what_is_shown_with_a_bom_and_arabic_intact(client, owner, two_weeks,
                                                                   language, revenue, title):
    # given
    client.force_login(owner)
    # when
    response = client.get("/api/admin/analytics/export?period=7d", HTTP_ACCEPT_LANGUAGE=language)
    # then
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "attachment;" in response["Content-Disposition"]
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[1] == [revenue, "450.00", "300.00", "+50.0"]
    top = [row for row in rows if row and row[0] == title]
    assert top and top[0][2:] == ["2", "450.00"]


def test_the_csv_needs_the_analytics_right(client, support):
    # given
    client.force_login(support)
    # when
    response = client.get("/api/admin/analytics/export?period=7d")
    # then
    assert response.status_code == 403


def test_the_orders_csv_starts_with_a_bom_so_spreadsheets_keep_arabic(client, manager):
    # given
    make_order(first_name="منى", last_name="علي")
    client.force_login(manager)
    # when
    body = b"".join(client.get("/api/admin/orders/export").streaming_content)
    # then
    assert body.startswith(b"\xef\xbb\xbf")
    assert "منى علي" in body.decode("utf-8-sig")
