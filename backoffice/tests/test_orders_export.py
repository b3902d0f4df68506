"""The orders CSV: what the list shows, with test orders and orders needing attention marked."""

import csv
import io

import pytest

from orders.models import Order

pytestmark = pytest.mark.django_db


def _order(number, **fields):
    return Order.objects.create(
        number=number, email="mona@example.com", last_name="Ali", phone="01012345678", street="12 Nile St",
        city="Cairo", state="Cairo", subtotal_amount=100, shipping_amount=50, tax_amount=0, total_amount=150,
        **{"first_name": "Mona", "payment_method": "card", "payment_status": "paid", **fields},
    )


def _rows(response):
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))


def test_the_csv_marks_test_orders_and_orders_needing_attention(client, support):
    # given
    _order("NHT-REAL", status="processing")
    _order("NHT-TEST", status="processing", payment_method="sandbox", is_test=True)
    _order("NHT-LATE", status="cancelled", needs_attention=True)
    client.force_login(support)
    # when
    response = client.get("/api/admin/orders/export")
    # then
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = {row["number"]: row for row in _rows(response)}
    assert {n: (r["test"], r["needs_attention"]) for n, r in rows.items()} == {
        "NHT-REAL": ("no", "no"), "NHT-TEST": ("yes", "no"), "NHT-LATE": ("no", "yes")}
    assert rows["NHT-REAL"]["total"] == "150.00"


def test_the_csv_follows_the_lists_filter_and_defuses_formulas(client, support):
    # given
    _order("NHT-1", status="processing", first_name="=HYPERLINK(1)")
    _order("NHT-2", status="cancelled")
    client.force_login(support)
    # when
    rows = _rows(client.get("/api/admin/orders/export?status=processing"))
    # then
    assert [r["number"] for r in rows] == ["NHT-1"]
    assert rows[0]["customer"].startswith("'=")


def test_the_csv_needs_staff(client, alice):
    assert client.get("/api/admin/orders/export").status_code == 401
    client.force_login(alice)
    assert client.get("/api/admin/orders/export").status_code in (401, 403)
