"""The orders CSV: what the list shows, with test orders and orders needing attention marked."""

import csv
import io
import re
from pathlib import Path

import pytest

from orders import actions
from orders.actions import order_refund_to_check
from orders.models import ATTENTION_REASONS, attention_reason_text
from tests.factories import make_order

pytestmark = pytest.mark.django_db




def _rows(response):
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))


def test_the_csv_marks_test_orders_and_orders_needing_attention(client, manager):
    # given
    real = make_order(price="100")
    test = make_order(payment_method="sandbox")
    late = make_order(payment_status=("failed", "paid"), status="cancelled")  # paid after a decline
    client.force_login(manager)
    # when
    response = client.get("/api/admin/orders/export")
    # then
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = {row["number"]: row for row in _rows(response)}
    assert {n: (r["test"], r["needs_attention"]) for n, r in rows.items()} == {
        real.number: ("no", "no"), test.number: ("yes", "no"), late.number: ("no", "yes")}
    assert rows[real.number]["total"] == "150.00"  # 100.00 and 50.00 shipping


def test_the_csv_follows_the_lists_filter_and_defuses_formulas(client, manager):
    # given
    formula = make_order(first_name="=HYPERLINK(1)")
    make_order(status="cancelled")
    client.force_login(manager)
    # when
    rows = _rows(client.get("/api/admin/orders/export?status=processing"))
    # then
    assert [r["number"] for r in rows] == [formula.number]
    assert rows[0]["customer"].startswith("'=")


def test_the_csv_needs_staff(client, alice):
    assert client.get("/api/admin/orders/export").status_code == 401
    client.force_login(alice)
    assert client.get("/api/admin/orders/export").status_code == 401  # customers are not staff


def test_the_list_and_the_csv_can_show_the_flagged_orders_only(client, manager):
    # given an order paid after a decline (flagged for staff) among others
    make_order(price="100")
    late = make_order(payment_status=("failed", "paid"), status="cancelled")
    client.force_login(manager)
    # when
    listed = client.get("/api/admin/orders", {"attention": "1"}).json()
    exported = _rows(client.get("/api/admin/orders/export?attention=1"))
    # then
    assert [row["number"] for row in listed["results"]] == [late.number]
    assert [row["number"] for row in exported] == [late.number]


@pytest.mark.parametrize("language, expected", [
    ("en", "Paid after the card was declined and the order cancelled; "
           "Paymob reports money returned that does not match this order's payment"),
    ("ar", "دُفع بعد رفض البطاقة وإلغاء الطلب؛ أبلغت Paymob عن مبلغ مُسترد لا يطابق دفعة هذا الطلب"),
])
def test_the_csv_says_why_each_order_needs_attention_in_the_staff_members_language(client, manager, language,
                                                                                    expected):
    # given an order paid after a decline, then reported with money returned that does not match it
    calm = make_order(price="100")
    late = make_order(payment_status=("failed", "paid"), status="cancelled")
    order_refund_to_check(order=late, note="refund 99")
    client.force_login(manager)
    # when
    rows = {r["number"]: r for r in _rows(client.get("/api/admin/orders/export", HTTP_ACCEPT_LANGUAGE=language))}
    # then every open reason is named, oldest first, in words the staff member reads
    assert rows[late.number]["attention_reasons"] == expected
    assert rows[calm.number]["attention_reasons"] == ""


def test_every_attention_reason_has_words_for_the_csv():
    # given every reason orders.actions flags an order with, read from its calls, so a new one is found
    source = Path(actions.__file__).read_text()
    flagged = set(re.findall(r'_order_flag\(\w+, "(\w+)"', source)) | set(re.findall(r'"(paid_after_\w+)"', source))
    assert {"refund_due", "paid_twice", "paid_after_cancel"} <= flagged  # the reading still finds them
    # then each has its text, and an unknown one (a row written by a later version) is shown as it is
    assert set(ATTENTION_REASONS) == flagged
    assert attention_reason_text("something_new") == "something_new"


@pytest.mark.parametrize(("role", "path"), [
    ("support", "/api/admin/orders/export"), ("head_support", "/api/admin/orders/export"),
    ("head_support", "/api/admin/newsletter/export"),
])
def test_support_roles_read_customers_one_page_at_a_time_but_cannot_download_them_all(request, client, role, path):
    # given a role that may view orders (and, for Head Support, subscribers) in the dashboard
    make_order(first_name="Mona", email="mona@example.com")
    client.force_login(request.getfixturevalue(role))
    # when it asks for every customer's name, e-mail and phone in one spreadsheet
    response = client.get(path)
    # then it is refused: a bulk export of personal data is the Owner's or a Manager's ("export" right)
    assert response.status_code == 403
    assert response.json()["message"] == "Admin permissions required"
    assert client.get(path.removesuffix("/export")).status_code == 200  # the paged list stays open to them
