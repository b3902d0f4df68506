import pytest

from accounts.models import Role, User
from backoffice.models import AuditEntry
from tests.factories import make_product


@pytest.mark.django_db
class TestInventory:
    @pytest.mark.parametrize("action,amount,expected", [("add", 5, 13), ("subtract", 3, 5), ("subtract", 50, 0),
                                                        ("set", 42, 42), ("set", 0, 0)])
    def test_it_changes_stock_and_never_goes_below_zero(self, client, manager, action, amount, expected):
        # given
        product = make_product(stock=8)
        client.force_login(manager)
        # when
        response = client.put(f"/api/admin/inventory/{product.pk}", {"action": action, "stock": amount},
                              content_type="application/json")
        # then
        assert response.status_code == 200
        assert response.json()["stock"] == expected
        product.refresh_from_db()
        assert product.stock == expected
        entry = AuditEntry.objects.get(action=f"inventory.{action}")
        assert entry.actor == manager and entry.details.endswith(f"8 → {expected}")
        assert entry.target_type == "product" and entry.target_id == str(product.pk)

    @pytest.mark.parametrize("body", [{"action": "add", "stock": "abc"}, {"action": "add", "stock": -1},
                                      {"action": "double", "stock": 1}, {"action": "add", "stock": 1.5}])
    def test_it_refuses_non_numeric_or_negative_input(self, client, manager, body):
        product = make_product(stock=8)
        client.force_login(manager)
        response = client.put(f"/api/admin/inventory/{product.pk}", body, content_type="application/json")
        assert response.status_code == 400
        product.refresh_from_db()
        assert product.stock == 8 and not AuditEntry.objects.exists()

    def test_the_summary_counts_low_and_out_of_stock(self, client, support):
        make_product(title="A", stock=0)
        make_product(title="B", stock=10)
        make_product(title="C", stock=11)
        client.force_login(support)
        body = client.get("/api/admin/inventory").json()
        assert body["summary"] == {"totalProducts": 3, "totalUnits": 21, "inStock": 1, "lowStock": 1, "outOfStock": 1}
        assert [p["title"] for p in body["lowStock"]] == ["A", "B"]


@pytest.mark.django_db
def test_the_overview_shows_recent_activity_from_the_audit_log(client, owner, manager):
    # given
    product = make_product(stock=4)
    client.force_login(manager)
    client.put(f"/api/admin/inventory/{product.pk}", {"action": "add", "stock": 2}, content_type="application/json")
    client.put("/api/admin/settings", {"storeName": "Chai Corner"}, content_type="application/json")
    # when
    client.force_login(owner)
    body = client.get("/api/admin/dashboard").json()
    # then
    actions = [(a["actor"], a["action"]) for a in body["recentActivity"]]
    assert actions == [("manager", "settings.update"), ("manager", "inventory.add")]
    assert body["lowStockProducts"] == 1 and body["lowStockList"][0]["stock"] == 6
    assert body["systemStatus"]["database"]["ok"] is True


@pytest.mark.django_db
class TestSystemStatusExchangeRate:
    def _rate(self, client, owner):
        client.force_login(owner)
        return client.get("/api/admin/dashboard").json()["systemStatus"]["exchangeRate"]

    def test_it_flags_the_fallback_rate_when_no_service_has_answered(self, client, owner):
        rate = self._rate(client, owner)
        assert rate["rate"] == "0.376" and rate["isFallback"] is True and rate["ok"] is False

    def test_it_flags_a_failed_refresh_with_the_reason(self, client, owner):
        from shop.models import ExchangeRate

        ExchangeRate.objects.create(from_currency="KES", to_currency="EGP", rate="0.39", source="frankfurter",
                                    last_error="all providers failed")
        rate = self._rate(client, owner)
        assert rate["ok"] is False and rate["lastError"] == "all providers failed" and rate["isFallback"] is False

    def test_a_fresh_stored_rate_is_ok(self, client, owner):
        from shop.models import ExchangeRate

        ExchangeRate.objects.create(from_currency="KES", to_currency="EGP", rate="0.39", source="frankfurter")
        rate = self._rate(client, owner)
        assert rate["ok"] is True and rate["rate"] == "0.39"


@pytest.mark.django_db
@pytest.mark.parametrize(("viewer", "seen"), [
    ("owner", ["staff.update", "settings.update", "customer.update", "inventory.add"]),
    ("manager", ["settings.update", "customer.update", "inventory.add"]),
    ("head_support", ["customer.update", "inventory.add"]),
    ("support", ["customer.update", "inventory.add"]),
])
def test_recent_activity_shows_each_role_only_the_areas_it_may_see(request, client, owner, manager, viewer, seen):
    # given the Owner demoting a Manager, and changes to settings, a customer and stock
    product = make_product(stock=4)
    other = User.objects.create_user(username="hoda", email="hoda@staff.example", password="x", is_staff=True,
                                     role=Role.MANAGER)
    customer = User.objects.create_user(username="mona@example.com", email="mona@example.com", password="x")
    client.force_login(manager)
    client.put(f"/api/admin/inventory/{product.pk}", {"action": "add", "stock": 2}, content_type="application/json")
    client.put(f"/api/admin/users/{customer.pk}", {"phone": "+201001234567"}, content_type="application/json")
    client.put("/api/admin/settings", {"storeEmail": "owner-private@example.com"}, content_type="application/json")
    client.force_login(owner)
    client.put(f"/api/admin/users/admin/{other.pk}", {"role": "support"}, content_type="application/json")
    # when
    client.force_login(request.getfixturevalue(viewer))
    activity = client.get("/api/admin/dashboard").json()["recentActivity"]
    # then settings (Owner, Manager) and staff changes (Owner) stay with the roles that may see them
    assert [a["action"] for a in activity] == seen
