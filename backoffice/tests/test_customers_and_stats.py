from decimal import Decimal

import pytest

from backoffice.models import AuditEntry
from orders.models import Order
from shop.models import ContactMessage
from tests.factories import make_product


def _order(user, total, *, payment_status, status="processing", n=[0]):
    n[0] += 1
    return Order.objects.create(
        number=f"NH-{n[0]}", user=user, email=user.email if user else "guest@example.com", first_name="A",
        last_name="B", phone="1", street="s", city="c", state="s", payment_method="card", status=status,
        payment_status=payment_status, subtotal_amount=total, shipping_amount=0, tax_amount=0, total_amount=total,
    )


@pytest.mark.django_db
class TestCustomers:
    def test_totals_count_only_paid_and_cash_on_delivery_orders(self, client, support, alice, bob):
        # given
        _order(alice, Decimal("100.00"), payment_status="paid")
        _order(alice, Decimal("50.50"), payment_status="cod", status="pending")
        _order(alice, Decimal("999.00"), payment_status="awaiting", status="pending")
        _order(alice, Decimal("70.00"), payment_status="paid", status="cancelled")
        _order(alice, Decimal("20.00"), payment_status="failed")
        client.force_login(support)
        # when
        rows = {row["email"]: row for row in client.get("/api/admin/users").json()}
        # then
        assert set(rows) == {"alice@example.com", "bob@example.com"}  # staff are not customers
        assert rows["alice@example.com"]["totalOrders"] == 2
        assert rows["alice@example.com"]["totalSpent"] == "150.50"
        assert rows["bob@example.com"]["totalOrders"] == 0 and rows["bob@example.com"]["totalSpent"] == "0.00"

    def test_a_customer_is_added_with_validation(self, client, manager):
        client.force_login(manager)
        bad = client.post("/api/admin/users", {"firstName": "Mona", "lastName": "Said", "email": "nope"},
                          content_type="application/json")
        assert bad.json() == {"error": "Please enter a valid email address",
                              "message": "Please enter a valid email address", "field": "email"}
        missing = client.post("/api/admin/users", {"lastName": "Said", "email": "m@example.com"},
                              content_type="application/json")
        assert missing.json()["field"] == "firstName" and missing.json()["message"] == "First name is required"
        ok = client.post("/api/admin/users", {"firstName": "Mona", "lastName": "Said", "email": "Mona@Example.com",
                                              "phone": "0100"}, content_type="application/json")
        assert ok.status_code == 201 and ok.json()["email"] == "mona@example.com" and ok.json()["isActive"] is True

    def test_field_errors_come_in_the_staff_members_language(self, client, manager):
        # given a staff member working in Arabic
        client.force_login(manager)
        # when a required field is missing
        missing = client.post("/api/admin/users", {"lastName": "Said", "email": "m@example.com"},
                              content_type="application/json", HTTP_ACCEPT_LANGUAGE="ar")
        # then the message is the Arabic one, not the text translated when the module loaded
        assert missing.json()["field"] == "firstName"
        assert missing.json()["message"] == "الاسم الأول مطلوب"

    def test_an_email_in_use_is_refused(self, client, manager, alice):
        client.force_login(manager)
        response = client.post("/api/admin/users", {"firstName": "A", "lastName": "B", "email": "ALICE@example.com"},
                               content_type="application/json")
        assert response.status_code == 400 and response.json()["field"] == "email"

    def test_the_active_toggle_alone_is_audited_as_a_deactivation(self, client, head_support, alice):
        client.force_login(head_support)
        response = client.put(f"/api/admin/users/{alice.pk}", {"isActive": False}, content_type="application/json")
        assert response.status_code == 200 and response.json()["isActive"] is False
        alice.refresh_from_db()
        assert alice.is_active is False and alice.first_name == "Alice"
        assert AuditEntry.objects.get(action="customer.deactivate").actor == head_support

    def test_an_edit_changes_the_sign_in_email_too(self, client, manager, alice):
        client.force_login(manager)
        client.put(f"/api/admin/users/{alice.pk}", {"firstName": "Aly", "lastName": "H", "email": "aly@example.com",
                                                    "phone": "1"}, content_type="application/json")
        alice.refresh_from_db()
        assert (alice.first_name, alice.email, alice.username) == ("Aly", "aly@example.com", "aly@example.com")


@pytest.mark.django_db
def test_dashboard_stats_are_counts_over_real_data(client, support, alice):
    # given
    make_product(title="A", stock=3)
    make_product(title="B", stock=30)
    _order(alice, Decimal("100.00"), payment_status="paid")
    _order(None, Decimal("40.00"), payment_status="cod", status="pending")
    _order(alice, Decimal("500.00"), payment_status="awaiting", status="pending")
    ContactMessage.objects.create(name="N", email="n@example.com", subject="s", message="m")
    ContactMessage.objects.create(name="N", email="n@example.com", subject="s", message="m", status="read")
    client.force_login(support)
    # when
    body = client.get("/api/admin/dashboard").json()
    # then
    assert {k: body[k] for k in ["totalProducts", "totalOrders", "pendingOrders", "totalRevenue", "totalCustomers",
                                 "lowStockProducts", "unreadMessages"]} == {
        "totalProducts": 2, "totalOrders": 3, "pendingOrders": 2, "totalRevenue": "140.00", "totalCustomers": 1,
        "lowStockProducts": 1, "unreadMessages": 1}
