"""Signing in and out on the site: remember me, next, session rotation, cart merge."""

import os
import subprocess
import sys
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from accounts.models import AuthToken
from orders.models import Cart

pytestmark = pytest.mark.django_db

DAY = 24 * 60 * 60


def _sign_in(client, password, *, email="alice@example.com", **extra):
    return client.post("/login", {"email": email, "password": password, **extra})


def test_it_signs_in_with_email_in_any_case_and_goes_home(client, alice, password):
    # when
    response = _sign_in(client, password, email="  ALICE@example.com ")

    # then
    assert response.status_code == 302
    assert response.url == "/"
    assert client.get("/").wsgi_request.user == alice
    assert "Welcome, <bdi>Alice</bdi>" in client.get("/").content.decode()


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"email": "", "password": "x"}, "email", "Email is required"),
        ({"email": "alice@example.com", "password": ""}, "password", "Password is required"),
    ],
)
def test_it_requires_email_and_password(client, alice, form, field, message):
    # when
    response = client.post("/login", form)

    # then
    assert response.status_code == 400
    assert response.context["errors"][field] == message


def test_wrong_credentials_get_the_same_message_whether_or_not_the_account_exists(client, alice):
    # when
    wrong_password = client.post("/login", {"email": "alice@example.com", "password": "nope-nope-1"})
    no_account = client.post("/login", {"email": "nobody@example.com", "password": "nope-nope-1"})

    # then
    for response in (wrong_password, no_account):
        assert response.status_code == 400
        assert response.context["errors"] == {"form": "Login failed. Please try again."}
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_without_remember_me_the_session_lasts_24_hours_in_the_cookie(client, alice, password):
    # when
    response = _sign_in(client, password)

    # then
    cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert cookie["max-age"] == DAY
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert client.session.get_expiry_age() == DAY


def test_with_remember_me_the_session_lasts_30_days_in_the_cookie(client, alice, password):
    # when
    response = _sign_in(client, password, rememberMe="1")

    # then
    assert response.cookies[settings.SESSION_COOKIE_NAME]["max-age"] == 30 * DAY
    assert client.session.get_expiry_age() == 30 * DAY


# The time-travel tests use Django's database sessions, which shop.sessions keeps every session
# in: the copy shop.sessions also keeps in Redis expires on Redis's clock, which time_machine
# cannot move (shop/tests/test_sessions.py checks that the copy lives as long as the session).
@override_settings(SESSION_ENGINE="django.contrib.sessions.backends.db")
def test_a_session_without_remember_me_ends_after_24_hours_on_the_server(client, alice, password):
    # given
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        _sign_in(client, password)

        # when / then
        traveller.shift(timedelta(hours=23, minutes=59))
        assert client.get("/account").status_code == 200
        traveller.shift(timedelta(minutes=2))
        response = client.get("/account")
        assert response.status_code == 302
        assert response.url.startswith("/login?next=/account")


@override_settings(SESSION_ENGINE="django.contrib.sessions.backends.db")
def test_a_remembered_session_lasts_30_days_on_the_server(client, alice, password):
    # given
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        _sign_in(client, password, rememberMe="1")

        # when / then
        traveller.shift(timedelta(days=29, hours=23))
        assert client.get("/account").status_code == 200
        traveller.shift(timedelta(hours=2))
        assert client.get("/account").status_code == 302


def test_it_rotates_the_session_id_at_sign_in(client, alice, password):
    # given
    client.get("/login")
    session = client.session
    session["seen"] = True
    session.save()
    before = session.session_key

    # when
    _sign_in(client, password)

    # then
    assert client.session.session_key != before
    assert client.session.get("seen") is True


def test_it_merges_the_guest_cart_into_the_customers_cart(client, alice, password, product):
    # given
    client.get("/login")
    session = client.session
    session.save()
    guest = Cart.objects.create(session_key=session.session_key)
    guest.lines.create(product=product, quantity=2)

    # when
    _sign_in(client, password)

    # then
    cart = Cart.objects.get(user=alice)
    assert [(line.product_id, line.quantity) for line in cart.lines.all()] == [(product.pk, 2)]
    assert not Cart.objects.filter(user=None).exists()


def test_a_customer_without_a_cart_keeps_the_guest_cart_whose_stock_their_own_order_holds(
        client, alice, password, product):
    # given a guest cart of the last two in stock, held by the guest's own card order awaiting payment
    client.get("/login")
    session = client.session
    session.save()
    guest = Cart.objects.create(session_key=session.session_key)
    guest.lines.create(product=product, quantity=2)
    product.stock = 0
    product.save()
    # when they sign in to an account that has no cart
    _sign_in(client, password)
    # then the cart is theirs as it was, ready to pay again if the first payment fails
    cart = Cart.objects.get(user=alice)
    assert [(line.product_id, line.quantity) for line in cart.lines.all()] == [(product.pk, 2)]


def test_it_follows_next_to_a_page_of_this_site_only(client, alice, password):
    # when
    local = _sign_in(client, password, next="/account")
    client.logout()
    foreign = _sign_in(client, password, next="https://evil.example/steal")

    # then
    assert local.url == "/account"
    assert foreign.url == "/"


def test_the_login_page_keeps_next_from_the_address(client):
    # when
    page = client.get("/login?next=/account").content.decode()

    # then
    assert 'name="next" value="/account"' in page


def test_arabic_sign_in_goes_to_the_arabic_home(client, alice, password):
    # when
    response = client.post("/ar/login", {"email": "alice@example.com", "password": password})

    # then
    assert response.url == "/ar/"
    alice.refresh_from_db()
    assert alice.language == "ar"


def test_a_deactivated_customer_cannot_sign_in(client, alice, password):
    # given
    alice.is_active = False
    alice.save()

    # when
    response = _sign_in(client, password)

    # then
    assert response.context["errors"] == {"form": "Login failed. Please try again."}


def test_a_deactivated_customer_loses_an_open_session(client, alice, password):
    # given
    _sign_in(client, password)
    alice.is_active = False
    alice.save()

    # when
    response = client.get("/account")

    # then
    assert response.status_code == 302


def test_staff_cannot_use_the_customer_sign_in(client, owner, password):
    # when
    response = client.post("/login", {"email": "owner@staff.example", "password": password})

    # then
    assert response.status_code == 400


def test_logout_needs_post_and_ends_the_session(client, alice, password):
    # given
    _sign_in(client, password)

    # when
    get = client.get("/logout")
    post = client.post("/logout")

    # then
    assert get.status_code == 405
    assert post.url == "/"
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_forms_carry_a_csrf_token(client):
    from django.test import Client

    # given
    strict = Client(enforce_csrf_checks=True)

    # when
    response = strict.post("/login", {"email": "a@example.com", "password": "x"})

    # then
    assert response.status_code == 403
    for path in ("/login", "/register", "/forgot-password"):
        assert 'name="csrfmiddlewaretoken"' in client.get(path).content.decode()


@pytest.mark.parametrize(("debug", "secure"), [("0", "True"), ("1", "False")])
def test_cookies_are_secure_unless_debug_is_on(debug, secure, tmp_path):
    # given: the production settings module, fresh, with nothing overriding the cookie flags
    env = {k: v for k, v in os.environ.items() if k not in ("SESSION_COOKIE_SECURE", "DJANGO_SETTINGS_MODULE")}
    env.update(DEBUG=debug, DATA_DIR=str(tmp_path))
    code = ("import shop.settings as s; print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
            "s.SESSION_COOKIE_HTTPONLY, s.SESSION_COOKIE_SAMESITE)")

    # when
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         cwd=settings.BASE_DIR, check=True).stdout.split()

    # then
    assert out == [secure, secure, "True", "Lax"]


def test_a_signed_in_customer_visiting_login_goes_home(client, alice, password):
    # given
    _sign_in(client, password)

    # when
    response = client.get("/login")

    # then
    assert response.url == "/"
    assert AuthToken.objects.count() == 0
