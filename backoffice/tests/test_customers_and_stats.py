from datetime import timedelta
from decimal import Decimal

import pytest
from django.core import mail
from django.test import Client

from accounts.models import AuthToken, User
from backoffice.models import AuditEntry
from catalog.products import product_update
from shop.models import ContactMessage
from shop.store_settings import store_settings_update
from tests.factories import make_order, make_product


@pytest.fixture
def free_shipping(db):
    store_settings_update(free_shipping_threshold=Decimal("0"))  # each order's total is its goods


@pytest.mark.django_db
class TestCustomers:
    def test_totals_count_only_paid_and_cash_on_delivery_orders(self, client, support, alice, bob, free_shipping):
        # given
        make_order(user=alice, price="100.00", payment_status="paid")
        make_order(user=alice, price="50.50", payment_status="cod", status="pending")
        make_order(user=alice, price="999.00", payment_status="awaiting", status="pending")
        make_order(user=alice, price="70.00", payment_status="paid", status="cancelled")
        make_order(user=alice, price="20.00", payment_status="failed", status="cancelled")
        client.force_login(support)
        # when
        rows = {row["email"]: row for row in client.get("/api/admin/users").json()["results"]}
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
                                              "phone": "0100 123-4567"}, content_type="application/json")
        assert ok.status_code == 201 and ok.json()["email"] == "mona@example.com" and ok.json()["isActive"] is True
        assert ok.json()["phone"] == "01001234567"  # stored as registration and checkout store it

    @pytest.mark.parametrize(("language", "message"), [
        ("en", "Please enter a valid phone number, for example 01012345678"),
        ("ar", "يرجى إدخال رقم هاتف صالح، مثل 01012345678")])
    def test_a_phone_checkout_would_refuse_is_refused_as_every_other_form_refuses_it(self, client, manager, alice,
                                                                                    language, message):
        # given
        client.force_login(manager)
        # when: a new customer, and an edit of alice, with something that is not a phone number
        created = client.post("/api/admin/users", {"firstName": "Mona", "lastName": "Said", "email": "mona@example.com",
                                                   "phone": "call me after 5"},
                              content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)
        edited = client.put(f"/api/admin/users/{alice.pk}", {"phone": "0100"},
                            content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)
        # then: the registration form's message, on the phone field, and nothing stored
        for response in (created, edited):
            assert response.status_code == 400
            assert (response.json()["field"], response.json()["message"]) == ("phone", message)
        assert not User.objects.filter(email="mona@example.com").exists()
        alice.refresh_from_db()
        assert alice.phone == "01012345678"

    def test_an_edit_keeps_a_phone_it_sends_back_unchanged_and_normalises_a_new_one(self, client, manager, alice):
        # given: a phone stored before the dashboard checked phones
        User.objects.filter(pk=alice.pk).update(phone="ask at reception")
        client.force_login(manager)
        # when: staff change her name, the form sending the phone back as it was
        renamed = client.put(f"/api/admin/users/{alice.pk}", {"firstName": "Alia", "phone": "ask at reception"},
                             content_type="application/json")
        # then: the unrelated edit goes through
        assert renamed.status_code == 200 and renamed.json()["firstName"] == "Alia"
        # when: a new number typed with spaces
        rephoned = client.put(f"/api/admin/users/{alice.pk}", {"phone": "+20 100 123 4567"},
                              content_type="application/json")
        # then
        assert rephoned.status_code == 200 and rephoned.json()["phone"] == "+201001234567"

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

    def test_an_email_longer_than_a_sign_in_name_is_refused(self, client, manager, alice):
        # given: a well-formed address over the username column's 150 characters (a customer's e-mail is
        # their username: PostgreSQL answered 500)
        long_email = "a" * 64 + "@" + "b" * 63 + "." + "c" * 63 + ".com"
        client.force_login(manager)
        # when
        created = client.post("/api/admin/users", {"firstName": "A", "lastName": "B", "email": long_email},
                              content_type="application/json")
        changed = client.put(f"/api/admin/users/{alice.pk}", {"firstName": "Alice", "lastName": "Hassan",
                                                              "email": long_email}, content_type="application/json")
        # then
        assert created.status_code == 400 and created.json()["field"] == "email"
        assert changed.status_code == 400 and changed.json()["field"] == "email"
        alice.refresh_from_db()
        assert alice.username == alice.email == "alice@example.com"

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
                                                    "phone": "01001234567"}, content_type="application/json")
        alice.refresh_from_db()
        assert (alice.first_name, alice.email, alice.username) == ("Aly", "aly@example.com", "aly@example.com")

    def test_an_email_change_is_audited_with_the_old_address_and_the_old_address_is_told(
            self, client, head_support, alice, django_capture_on_commit_callbacks):
        # given a customer who uses the shop in Arabic
        User.objects.filter(pk=alice.pk).update(language="ar")
        client.force_login(head_support)
        # when staff change her e-mail
        with django_capture_on_commit_callbacks(execute=True):
            client.put(f"/api/admin/users/{alice.pk}", {"email": "mallory@example.com"},
                       content_type="application/json")
        # then the audit entry keeps what it was
        entry = AuditEntry.objects.get(action="customer.update")
        assert entry.changes == [{"field": "email", "old": "alice@example.com", "new": "mallory@example.com"}]
        # and the old address hears of it, in her language, naming the new one
        told, = [m for m in mail.outbox if m.to == ["alice@example.com"]]
        assert told.subject.startswith("تم تغيير البريد الإلكتروني لحسابك")
        assert "mallory@example.com" in told.body and "تواصل معنا فورًا" in told.body


@pytest.mark.django_db
def test_dashboard_stats_are_counts_over_real_data(client, support, alice, free_shipping):
    # given
    make_product(title="A", stock=3)
    b = make_product(title="B", stock=30)
    for total, user, payment_status in (("100.00", alice, "paid"), ("40.00", None, "cod"),
                                        ("500.00", alice, "awaiting")):
        b = product_update(product=b, price_amount=Decimal(total))  # its price changed between orders
        make_order(lines=[(b, 1)], user=user, email="guest@example.com", payment_status=payment_status,
                   status="processing" if payment_status == "paid" else "pending")
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


@pytest.mark.django_db
def test_the_accounts_list_is_paged_so_no_call_reads_every_customer_at_once(client, manager):
    # given more customer accounts than a page holds
    User.objects.bulk_create([User(username=f"c{n}@example.com", email=f"c{n}@example.com") for n in range(105)])
    client.force_login(manager)  # Support: at most 20 a page (test_support_bulk_limits)
    # when a caller asks for all of them in one answer
    body = client.get("/api/admin/users", {"pageSize": 1_000_000_000}).json()
    # then it gets one page of at most 100, and the count of the rest, as every dashboard list answers
    assert (len(body["results"]), body["count"], body["pageSize"], body["totalPages"]) == (100, 105, 100, 2)
    assert len(client.get("/api/admin/users").json()["results"]) == 20


@pytest.mark.django_db
def test_a_customer_deactivated_then_reactivated_signs_in_again(client, manager, alice):
    # given alice signed in on the site and with an app token, then deactivated by staff
    site = Client()
    site.force_login(alice)
    _token, key = AuthToken.issue(user=alice, lifetime=timedelta(hours=1))
    client.force_login(manager)
    client.put(f"/api/admin/users/{alice.pk}", {"isActive": False}, content_type="application/json")
    # when staff let her back in
    client.put(f"/api/admin/users/{alice.pk}", {"isActive": True}, content_type="application/json")
    # then what was open before the deactivation stays closed (a stolen session does not come back with her)
    assert site.get("/api/auth/me").status_code == 401
    assert Client().get("/api/auth/me", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 401
