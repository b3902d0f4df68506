"""A customer's copy of their data, and closing their account: what goes, what stays, who may."""

import json

import pytest
from django.test import Client

from accounts.models import Address, User
from catalog.models import Review
from orders.models import Cart, Order
from shop.models import NewsletterSubscriber
from shop.newsletter import newsletter_subscribe
from tests.factories import make_order, make_product, make_review

pytestmark = pytest.mark.django_db


def _signed_in(user, password):
    client = Client()
    assert client.post("/login", {"email": user.email, "password": password}).status_code == 302
    return client


@pytest.fixture
def alices_things(alice):
    """alice's address, cart, order and review, and a guest's order that only names her address."""
    Address.objects.create(user=alice, first_name="Alice", last_name="Hassan", phone="01012345678",
                           street="9 Tahrir St", city="Giza", state="Giza", is_default=True)
    tea = make_product(title="Pure Black", stock=10)
    Cart.objects.create(user=alice).lines.create(product=tea, quantity=3)
    mine = make_order(user=alice, status="delivered")
    guest = make_order(email="alice@example.com", first_name="Somebody")
    review = make_review(product=tea, user=alice, approved=True)
    Review.objects.filter(pk=review.pk).update(user_name="Alice H.", user_email=alice.email)
    return mine, guest, review


def test_a_customer_downloads_what_their_account_holds_and_nothing_that_only_names_their_address(
        alice, password, alices_things):
    mine, guest, _review = alices_things
    # when
    response = _signed_in(alice, password).get("/account/data")
    # then: a file to keep, with the account's own things
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="my-data-')
    data = json.loads(response.content)
    assert data["profile"]["email"] == "alice@example.com" and data["profile"]["phone"] == "01012345678"
    assert [address["street"] for address in data["addresses"]] == ["9 Tahrir St"]
    assert data["cart"] == [{"product": "Pure Black", "quantity": 3}]
    assert [order["number"] for order in data["orders"]] == [mine.number]  # the guest's order is not hers
    assert data["orders"][0]["total"] == str(mine.total_amount) and data["orders"][0]["items"]
    assert [review["shownAs"] for review in data["reviews"]] == ["Alice H."]


def test_the_data_file_is_for_its_signed_in_customer_only(client, owner, password):
    assert client.get("/account/data")["Location"].startswith("/login")
    client.force_login(owner)
    assert client.get("/account/data").status_code == 302


def test_a_wrong_password_deletes_nothing(alice, password, alices_things):
    client = _signed_in(alice, password)
    # when
    response = client.post("/account", {"action": "delete_account", "deletePassword": "not it"})
    # then
    assert response.status_code == 400
    assert "Your current password is incorrect" in response.content.decode()
    assert User.objects.filter(pk=alice.pk).exists() and Address.objects.filter(user=alice).exists()


def test_deleting_the_account_erases_it_everywhere_and_keeps_its_orders(alice, password, alices_things):
    mine, guest, review = alices_things
    newsletter_subscribe(email=alice.email)
    User.objects.filter(pk=alice.pk).update(subscribe_newsletter=True)
    phone, laptop = _signed_in(alice, password), _signed_in(alice, password)
    # when
    response = phone.post("/account", {"action": "delete_account", "deletePassword": password})
    # then: signed out here and on every other device, and told so
    assert "Your account has been deleted." in response.content.decode()
    assert not response.context["user"].is_authenticated
    assert laptop.get("/account")["Location"].startswith("/login")
    # the account, its addresses and its cart are gone; so is the newsletter it subscribed to
    assert not User.objects.filter(email__iexact="alice@example.com").exists()
    assert not Address.objects.exists() and not Cart.objects.exists()
    assert not NewsletterSubscriber.objects.get(email="alice@example.com").is_active
    # its order is kept as placed, detached from the account; a guest's order naming the address is untouched
    kept = Order.objects.get(pk=mine.pk)
    assert (kept.user_id, kept.email, kept.street) == (None, mine.email, mine.street)
    assert Order.objects.get(pk=guest.pk).first_name == "Somebody"
    # the review stays, without its author's name or address
    review.refresh_from_db()
    assert (review.user_id, review.user_name, review.user_email) == (None, "", "")
    page = Client().get(f"/product/{review.product.slug}").content.decode()
    assert "A customer" in page and "Alice H." not in page
    # and the address may open a new account
    assert Client().post("/register", {"firstName": "Alice", "lastName": "Hassan", "email": "alice@example.com",
                                       "password": password, "confirmPassword": password,
                                       "agreeToTerms": "1"}).status_code == 302


def test_the_page_offers_both_in_arabic(alice, password):
    client = _signed_in(alice, password)
    page = client.get("/ar/account").content.decode()
    assert "تنزيل بياناتي" in page and "حذف حسابي نهائيًا" in page
    response = client.post("/ar/account", {"action": "delete_account", "deletePassword": password})
    assert "تم حذف حسابك." in response.content.decode()
