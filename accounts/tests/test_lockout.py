"""Brute force: lockout per account and per address, without revealing accounts."""

import re

import pytest
from django.test import override_settings

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


def test_an_account_locks_after_five_failures_even_from_many_addresses(client, alice, password):
    # given
    for n in range(5):
        _fail(client, "alice@example.com", address=f"10.0.1.{n}")

    # when
    response = client.post("/login", {"email": "alice@example.com", "password": password},
                           REMOTE_ADDR="10.0.2.1")

    # then
    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_four_failures_do_not_lock_the_account(client, alice, password):
    # given
    for n in range(4):
        _fail(client, "alice@example.com", address=f"10.0.1.{n}")

    # when
    response = client.post("/login", {"email": "alice@example.com", "password": password})

    # then
    assert response.status_code == 302


def test_an_address_locks_after_five_failures_across_accounts(client, alice, password):
    # given
    for n in range(5):
        _fail(client, f"guess{n}@example.com", address="10.9.9.9")

    # when
    response = client.post("/login", {"email": "alice@example.com", "password": password},
                           REMOTE_ADDR="10.9.9.9")

    # then
    assert response.status_code == 429


def test_a_missing_account_locks_exactly_like_a_real_one(client, alice):
    # given
    for n in range(5):
        _fail(client, "alice@example.com", address=f"10.0.3.{n}")
        _fail(client, "nobody@example.com", address=f"10.0.4.{n}")

    # when
    real = _fail(client, "alice@example.com", address="10.0.5.1")
    missing = _fail(client, "nobody@example.com", address="10.0.5.2")

    # then
    assert real.status_code == missing.status_code == 429
    assert _without_csrf(real.content) == _without_csrf(missing.content)


def test_the_api_login_is_counted_and_locked_too(client, alice, password):
    # given
    for n in range(5):
        _fail(client, "alice@example.com", address=f"10.0.6.{n}", api=True)

    # when
    response = client.post("/api/auth/login", {"email": "alice@example.com", "password": password},
                           content_type="application/json", REMOTE_ADDR="10.0.7.1")

    # then
    assert response.status_code == 429
    assert response.json()["message"] == LOCKED
    assert "token" not in response.json()


def test_failures_on_the_page_and_the_api_add_up(client, alice, password):
    # given
    for n in range(3):
        _fail(client, "alice@example.com", address=f"10.0.8.{n}")
    for n in range(2):
        _fail(client, "alice@example.com", address=f"10.0.9.{n}", api=True)

    # when
    response = client.post("/login", {"email": "alice@example.com", "password": password},
                           REMOTE_ADDR="10.1.0.1")

    # then
    assert response.status_code == 429


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_our_proxy_addresses_are_told_apart_by_x_forwarded_for(client, alice, password):
    # given: five failures from one shopper, forging an extra address in front
    for n in range(5):
        client.post("/login", {"email": f"guess{n}@example.com", "password": "wrong-guess-1"},
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
    for n in range(5):
        _fail(client, f"guess{n}@example.com", address="10.7.7.7")

    # when: a forged header does not get a fresh address
    response = client.post("/login", {"email": "alice@example.com", "password": password},
                           REMOTE_ADDR="10.7.7.7", HTTP_X_FORWARDED_FOR="198.51.100.99")

    # then
    assert response.status_code == 429
