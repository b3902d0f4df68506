"""Abandoned-cart reminders: opt-in, one e-mail after the delay, suppressed after purchase, unsubscribe."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from orders.models import Cart, Order
from orders.reminders import cart_reminder_send, cart_reminders_due
from orders.tasks import cart_reminders_task
from shop.models import OutboundEmail


def _age(cart, hours):
    Cart.objects.filter(pk=cart.pk).update(updated_at=timezone.now() - timedelta(hours=hours))


@pytest.fixture
def guest_cart(api, make_product):
    product = make_product(title="Pure Black", stock=5)
    api.post("/api/cart/items", {"productId": product.pk, "quantity": 2}, format="json")
    return Cart.objects.get()


def test_guest_who_opted_in_gets_one_reminder_in_their_language(api, guest_cart, settings):
    settings.CART_REMINDER_DELAY_HOURS = 3
    answer = api.post("/api/cart/reminder", {"email": "Guest@Example.com", "optIn": True}, format="json")
    assert answer.status_code == 200
    cart = Cart.objects.get()
    assert cart.reminder_email == "guest@example.com" and cart.reminder_opt_in
    assert cart_reminders_due() == []  # not yet: the cart changed just now
    _age(cart, 4)
    assert cart_reminders_due() == [cart.pk]
    assert cart_reminders_task() == 1  # beat: one job per due cart (eager in tests)
    mail = OutboundEmail.objects.get()
    assert mail.to == "guest@example.com"
    assert "2 × \u2068Pure Black\u2069" in mail.text and "/cart" in mail.text
    unsubscribe = re.search(r"https?://\S+/cart/reminders/unsubscribe\?token=\S+", mail.text).group(0)
    assert cart_reminders_task() == 0 and OutboundEmail.objects.count() == 1  # at most one per cart
    assert api.get(unsubscribe.split("testserver", 1)[1]).status_code == 200
    assert not Cart.objects.get().reminder_opt_in


def test_reminder_is_in_the_language_of_the_page_that_opted_in(api, guest_cart):
    # the islands send the page's language
    api.post("/api/cart/reminder", {"email": "g@example.com", "optIn": True}, format="json",
             HTTP_ACCEPT_LANGUAGE="ar")
    cart = Cart.objects.get()
    assert cart.reminder_language == "ar"
    _age(cart, 4)
    assert cart_reminder_send(cart_id=cart.pk)
    mail = OutboundEmail.objects.get()
    assert mail.language == "ar" and "تركت بعض الشاي في سلتك" in mail.subject and "/ar/cart" in mail.text


def test_no_opt_in_no_reminder(api, guest_cart):
    _age(guest_cart, 4)
    assert cart_reminders_due() == []
    api.post("/api/cart/reminder", {"email": "g@example.com", "optIn": False}, format="json")
    assert cart_reminders_due() == []


def test_opt_in_needs_a_cart_and_a_valid_email(api, guest_cart):
    assert api.post("/api/cart/reminder", {"email": "nope", "optIn": True}, format="json").json()["field"] == "email"


def test_opt_in_needs_a_cart(api, db):
    assert api.post("/api/cart/reminder", {"email": "g@example.com", "optIn": True},
                    format="json").status_code == 400  # no cart yet


def test_purchase_suppresses_the_reminder(api, guest_cart, make_product):
    api.post("/api/cart/reminder", {"email": "g@example.com", "optIn": True}, format="json")
    _age(guest_cart, 4)
    Order.objects.create(number="NH-X1", email="G@example.com", first_name="G", last_name="H", phone="0",
                         street="s", city="c", state="Cairo", payment_method="cod", subtotal_amount=1,
                         shipping_amount=0, tax_amount=0, total_amount=1)
    assert not cart_reminder_send(cart_id=guest_cart.pk)
    assert not OutboundEmail.objects.exists()


def test_checkout_empties_the_cart_and_a_new_cart_may_be_reminded_again(api, guest_cart, checkout_body):
    api.post("/api/cart/reminder", {"email": "mona@example.com", "optIn": True}, format="json")
    placed = api.post("/api/payment/create-intention", checkout_body(paymentMethod="cod"), format="json")
    assert placed.status_code == 201, placed.content
    _age(guest_cart, 4)
    assert cart_reminders_due() == []  # nothing left in it


def test_signed_in_customer_opts_in_on_the_account_page(client, alice, make_product):
    client.force_login(alice)
    client.post("/account", {"action": "profile", "firstName": "Alice", "lastName": "Hassan",
                             "cartReminders": "1"})
    alice.refresh_from_db()
    assert alice.cart_reminders
    product = make_product(title="Green", stock=3)
    client.post("/api/cart/items", {"productId": product.pk, "quantity": 1}, content_type="application/json")
    cart = Cart.objects.get(user=alice)
    _age(cart, 4)
    assert cart_reminder_send(cart_id=cart.pk)
    assert OutboundEmail.objects.get().to == alice.email
    client.post("/account", {"action": "profile", "firstName": "Alice", "lastName": "Hassan"})
    alice.refresh_from_db()
    assert not alice.cart_reminders


def test_old_carts_are_left_alone(api, guest_cart, settings):
    api.post("/api/cart/reminder", {"email": "g@example.com", "optIn": True}, format="json")
    _age(guest_cart, 24 * (settings.CART_REMINDER_MAX_AGE_DAYS + 1))
    assert cart_reminders_due() == []


def test_a_forged_unsubscribe_link_is_refused(client, db):
    assert client.get("/cart/reminders/unsubscribe?token=abc").status_code == 400


def _strangers_carts(make_product, email, count):
    """`count` guest carts, each from a fresh visitor, all opted in with `email` and left 4 hours ago."""
    from rest_framework.test import APIClient
    product = make_product(title="Pure Green", stock=50)
    for _ in range(count):
        visitor = APIClient()
        visitor.post("/api/cart/items", {"productId": product.pk, "quantity": 1}, format="json")
        assert visitor.post("/api/cart/reminder", {"email": email, "optIn": True}, format="json").status_code == 200
    for cart in Cart.objects.all():
        _age(cart, 4)


def test_many_carts_naming_one_address_send_it_one_reminder_a_day(db, make_product):
    # given a script that filled five carts in five sessions, each opted in with a stranger's address
    _strangers_carts(make_product, "victim@example.com", 5)

    # when the reminders fall due
    cart_reminders_task()

    # then the address gets one e-mail, and no more that day
    assert OutboundEmail.objects.filter(to="victim@example.com").count() == 1
    assert cart_reminders_due() == []
    assert cart_reminders_task() == 0 and OutboundEmail.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_reminder_jobs_for_one_address_at_once_send_it_one_reminder(make_product):
    # given two carts naming one address, their jobs picked up by two workers at the same moment
    from django.db import connection

    from tests.threads import at_once

    if connection.vendor != "postgresql":
        pytest.skip("SQLite's write transactions already take turns")
    _strangers_carts(make_product, "victim@example.com", 2)
    first, second = Cart.objects.order_by("pk").values_list("pk", flat=True)
    for attempt in range(20):  # two jobs started together do not always overlap
        Cart.objects.update(reminder_sent_at=None)
        OutboundEmail.objects.all().delete()
        # when
        sent = at_once(lambda: cart_reminder_send(cart_id=first), lambda: cart_reminder_send(cart_id=second))
        # then
        assert sorted(sent) == [False, True], attempt
        assert OutboundEmail.objects.filter(to="victim@example.com").count() == 1


def test_the_unsubscribe_link_stops_every_cart_naming_the_address(client, db, make_product):
    # given
    _strangers_carts(make_product, "victim@example.com", 3)
    cart_reminders_task()
    link = re.search(r"/cart/reminders/unsubscribe\?token=\S+", OutboundEmail.objects.get().text).group(0)

    # when
    client.get(link)

    # then
    assert not Cart.objects.filter(reminder_opt_in=True).exists()
