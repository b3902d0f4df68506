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


def _admin_form_data(client, user):
    """The Django admin's change form of `user` as it stands, ready to post back."""
    form = client.get(f"/django-admin/accounts/user/{user.pk}/change/").context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        if field.disabled:
            continue
        value = form[name].value()
        if value is None or value is False:
            continue
        data[name] = [str(v) for v in value] if isinstance(value, list | tuple) else ("on" if value is True else value)
    return data


@pytest.mark.django_db
def test_a_customer_deactivated_in_django_admin_resumes_no_old_session_when_reactivated(client, alice, password):
    # given alice's open session, and a superuser who deactivates her in /django-admin (a stolen laptop)
    from django.test import Client

    session = Client()
    assert session.post("/login", {"email": alice.email, "password": password}).status_code == 302
    root = User.objects.create_superuser(username="root", email="root@example.com", password="x")
    client.force_login(root)
    data = _admin_form_data(client, alice)
    deactivated = {key: value for key, value in data.items() if key != "is_active"}
    assert client.post(f"/django-admin/accounts/user/{alice.pk}/change/", deactivated).status_code == 302
    # when they let her back in
    assert client.post(f"/django-admin/accounts/user/{alice.pk}/change/", data).status_code == 302
    # then the session opened before the deactivation is over, as when staff deactivate from the dashboard
    assert User.objects.get(pk=alice.pk).is_active
    assert session.get("/account")["Location"].startswith("/login")
