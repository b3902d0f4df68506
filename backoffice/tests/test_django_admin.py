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

    def test_orders_and_their_payments_cannot_be_deleted_there(self, client):
        # given a superuser and a card order, paid, with its payment and the provider's report of it
        from orders.models import Order, Payment, PaymentEvent
        from tests.factories import make_order

        order = make_order()
        payment = Payment.objects.get(order=order)
        event = PaymentEvent.objects.get(payment=payment)
        root = User.objects.create_superuser(username="root", email="root@example.com", password="x")
        client.force_login(root)
        # when they try to delete any of them, one by one or from the list
        pages = [f"/django-admin/orders/order/{order.pk}/delete/", f"/django-admin/orders/payment/{payment.pk}/delete/",
                 f"/django-admin/orders/paymentevent/{event.pk}/delete/"]
        answers = [client.post(page, {"post": "yes"}).status_code for page in pages]
        client.post("/django-admin/orders/order/", {"action": "delete_selected", "_selected_action": [order.pk],
                                                    "post": "yes"})
        # then nothing goes: an order deleted takes its payment with it (its callback then names an unknown
        # order, the money is never recorded), never gives its stock or coupon use back, and a report deleted
        # lets the same report be applied again. Staff cancel an order instead.
        assert answers == [403, 403, 403]
        assert (Order.objects.count(), Payment.objects.count(), PaymentEvent.objects.count()) == (1, 1, 1)
