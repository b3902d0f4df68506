import pytest
from django.apps import apps
from django.contrib import admin

from accounts.models import User


@pytest.mark.django_db
class TestDjangoAdmin:
    def test_every_shop_model_is_registered(self):
        shop_apps = {"accounts", "catalog", "orders", "shop", "importer", "backoffice"}
        missing = [m.__name__ for m in apps.get_models()
                   if m._meta.app_label in shop_apps and m not in admin.site._registry
                   and m.__name__ not in ("OrderItem", "OrderStatusChange", "CartLine")]  # inlines
        assert missing == []

    def test_only_superusers_get_in(self, client, owner):
        client.force_login(owner)  # staff, not superuser
        assert client.get("/django-admin/").status_code == 302
        root = User.objects.create_superuser(username="root", email="root@example.com", password="x")
        client.force_login(root)
        assert client.get("/django-admin/").status_code == 200

    @pytest.mark.parametrize("model", ["catalog/product", "catalog/category", "orders/order", "accounts/user",
                                       "backoffice/auditentry", "shop/storesettings"])
    def test_each_change_list_opens(self, client, model):
        root = User.objects.create_superuser(username="root", email="root@example.com", password="x")
        client.force_login(root)
        assert client.get(f"/django-admin/{model}/").status_code == 200
