"""Brute force: lockout per account and per address, without revealing accounts."""

import re
from datetime import timedelta

import pytest
import time_machine
from axes.models import AccessAttempt
from django.test import override_settings
from django.utils import timezone

from accounts.lockout import client_ip

pytestmark = pytest.mark.django_db

LOCKED = "Too many failed sign-in attempts. Please try again in 15 minutes."


def _without_csrf(html):
    """The page without what differs on every response: the CSRF token and the CSP nonce."""
    html = re.sub(rb'name="csrfmiddlewaretoken" value="[^"]+"', b"", html)
    return re.sub(rb'nonce="[^"]+"', b"", html)


def _fail(client, email, *, address="10.0.0.1", api=False):
    if api:
        return client.post("/api/auth/login", {"email": email, "password": "wrong-guess-1"},
                           content_type="application/json", REMOTE_ADDR=address)
    return client.post("/login", {"email": email, "password": "wrong-guess-1"}, REMOTE_ADDR=address)


def test_five_failures_from_one_address_lock_the_account_from_that_address(client, alice, password):
    # given
    for _ in range(5):
        _fail(client, "alice@example.com", address="10.0.1.1")

    # when
    response = client.post("/login", {"email": "alice@example.com", "password": password},
                           REMOTE_ADDR="10.0.1.1")

    # then
    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_a_strangers_failures_do_not_lock_the_account_elsewhere(client, owner, alice, password):
    # given five bad passwords for the Owner and for a customer from an attacker's address
    for _ in range(5):
        client.post("/api/admin/login", {"username": "owner", "password": "wrong"},
                    content_type="application/json", REMOTE_ADDR="203.0.113.66")
        _fail(client, "alice@example.com", address="203.0.113.66")

    # when they sign in from their own addresses
    staff = client.post("/api/admin/login", {"username": "owner", "password": password},
                        content_type="application/json", REMOTE_ADDR="198.51.100.1")
    customer = client.post("/login", {"email": "alice@example.com", "password": password},
                           REMOTE_ADDR="198.51.100.2")

    # then both get in
    assert staff.status_code == 200
    assert customer.status_code == 302


def test_four_failures_do_not_lock_the_account(client, alice, password):
    # given
    for _ in range(4):
        _fail(client, "alice@example.com")

    # when
    response = client.post("/login", {"email": "alice@example.com", "password": password},
                           REMOTE_ADDR="10.0.0.1")

    # then
    assert response.status_code == 302


def test_a_lockout_ends_after_the_cool_off(client, alice, password):
    # given a locked pair
    for _ in range(5):
        _fail(client, "alice@example.com")
    locked = client.post("/login", {"email": "alice@example.com", "password": password}, REMOTE_ADDR="10.0.0.1")
    assert locked.status_code == 429

    # when 15 minutes have passed
    with time_machine.travel(timezone.now() + timedelta(minutes=16), tick=False):
        response = client.post("/login", {"email": "alice@example.com", "password": password},
                               REMOTE_ADDR="10.0.0.1")

    # then the counter has expired
    assert response.status_code == 302


def test_a_missing_account_locks_exactly_like_a_real_one(client, alice):
    # given
    for _ in range(5):
        _fail(client, "alice@example.com", address="10.0.3.1")
        _fail(client, "nobody@example.com", address="10.0.3.1")

    # when
    real = _fail(client, "alice@example.com", address="10.0.3.1")
    missing = _fail(client, "nobody@example.com", address="10.0.3.1")

    # then
    assert real.status_code == missing.status_code == 429
    assert _without_csrf(real.content) == _without_csrf(missing.content)


def test_the_api_login_is_counted_and_locked_too(client, alice, password):
    # given
    for _ in range(5):
        _fail(client, "alice@example.com", address="10.0.6.1", api=True)

    # when
    response = client.post("/api/auth/login", {"email": "alice@example.com", "password": password},
                           content_type="application/json", REMOTE_ADDR="10.0.6.1")

    # then
    assert response.status_code == 429
    assert response.json()["message"] == LOCKED
    assert "token" not in response.json()


def test_failures_on_the_page_and_the_api_add_up(client, alice, password):
    # given
    for _ in range(3):
        _fail(client, "alice@example.com", address="10.0.8.1")
    for _ in range(2):
        _fail(client, "alice@example.com", address="10.0.8.1", api=True)

    # when
    response = client.post("/login", {"email": "alice@example.com", "password": password},
                           REMOTE_ADDR="10.0.8.1")

    # then
    assert response.status_code == 429


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_our_proxy_addresses_are_told_apart_by_x_forwarded_for(client, alice, password):
    # given: five failures from one shopper, forging an extra address in front
    for n in range(5):
        client.post("/login", {"email": "alice@example.com", "password": "wrong-guess-1"},
                    REMOTE_ADDR="10.0.0.254", HTTP_X_FORWARDED_FOR=f"9.9.9.{n}, 203.0.113.7")

    # when
    attacker = client.post("/login", {"email": "alice@example.com", "password": password},
                           REMOTE_ADDR="10.0.0.254", HTTP_X_FORWARDED_FOR="203.0.113.7")
    shopper = client.post("/login", {"email": "alice@example.com", "password": password},
                          REMOTE_ADDR="10.0.0.254", HTTP_X_FORWARDED_FOR="198.51.100.20")

    # then
    assert attacker.status_code == 429
    assert shopper.status_code == 302


def test_without_a_trusted_proxy_x_forwarded_for_is_ignored(client, alice, password):
    # given
    for _ in range(5):
        _fail(client, "alice@example.com", address="10.7.7.7")

    # when: a forged header does not get a fresh address
    response = client.post("/login", {"email": "alice@example.com", "password": password},
                           REMOTE_ADDR="10.7.7.7", HTTP_X_FORWARDED_FOR="198.51.100.99")

    # then
    assert response.status_code == 429


@pytest.mark.parametrize("api", [False, True])
def test_changing_the_case_of_the_email_does_not_buy_more_guesses(client, alice, password, api):
    # given five failures, each with the address written differently (the sign-in takes any case)
    for email in ("alice@example.com", "Alice@example.com", "ALICE@example.com", "alice@EXAMPLE.com",
                  " aLiCe@example.com "):
        _fail(client, email, address="10.0.9.1", api=api)

    # when the right password comes in yet another case
    response = client.post("/login", {"email": "AliCE@Example.COM", "password": password}, REMOTE_ADDR="10.0.9.1")

    # then the pair is locked, as for five failures written alike
    assert response.status_code == 429
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_a_lookalike_letter_that_the_database_reads_as_the_same_does_not_buy_more_guesses(client, alice, password):
    # given five failures as "alıce" (dotless ı): PostgreSQL's case-insensitive lookup upper-cases it to
    # ALICE, so it tries alice's password, and it must not get five guesses of its own
    for n in range(5):
        _fail(client, "al\u0131ce@example.com", address="10.0.9.2")

    # when the right password comes in plain letters
    response = client.post("/login", {"email": "alice@example.com", "password": password}, REMOTE_ADDR="10.0.9.2")

    # then the pair is locked
    assert response.status_code == 429


def test_an_ipv6_host_is_locked_out_from_its_whole_network(client, alice, password):
    # given five failures, each from another address of one /64 (all one host's to choose from)
    for n in range(5):
        _fail(client, "alice@example.com", address=f"2001:db8:77:1::{n + 1:x}")

    # when the right password comes from yet another address of it
    response = client.post("/login", {"email": "alice@example.com", "password": password},
                           REMOTE_ADDR="2001:db8:77:1:abcd::9")
    elsewhere = client.post("/login", {"email": "alice@example.com", "password": password},
                            REMOTE_ADDR="2001:db8:77:2::1")

    # then the pair is locked there, and only there
    assert response.status_code == 429
    assert elsewhere.status_code == 302


@override_settings(TRUSTED_PROXY_COUNT=1)
@pytest.mark.parametrize(("forwarded", "counted"), [
    ("203.0.113.7:51234", "203.0.113.7"),  # a proxy that adds the port
    ("[2001:db8:1:2::7]:443", "2001:db8:1:2::"),
    ("not-an-address", "10.0.0.254"),  # a proxy count set too high, a forged header: the peer's address
    ("203.0.113.7<script>", "10.0.0.254"),
])
def test_an_x_forwarded_for_entry_is_taken_only_when_it_is_an_address(rf, forwarded, counted):
    request = rf.get("/", REMOTE_ADDR="10.0.0.254", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == counted


@override_settings(TRUSTED_PROXY_COUNT=2)
def test_a_failed_sign_in_behind_a_miscounted_proxy_is_counted_not_a_server_error(client, alice):
    # given a shop told of two proxies behind one: the entry it takes is whatever the client wrote
    # when
    response = client.post("/login", {"email": "alice@example.com", "password": "wrong-guess-1"},
                           REMOTE_ADDR="10.0.0.254", HTTP_X_FORWARDED_FOR="bogus, 203.0.113.7")
    # then the failure is counted under the proxy's address (PostgreSQL refused "bogus" with a 500)
    assert response.status_code == 400  # the sign-in form again, with its error
    assert AccessAttempt.objects.get().ip_address == "10.0.0.254"
