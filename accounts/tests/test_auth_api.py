"""/api/auth/login, logout and me: tokens that live like sessions."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts.models import AuthToken

pytestmark = pytest.mark.django_db


def _login(client, password, **extra):
    body = {"email": "alice@example.com", "password": password, **extra}
    return client.post("/api/auth/login", body, content_type="application/json")


def _bearer(key):
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def test_it_answers_a_token_and_a_message(client, alice, password):
    # when
    response = _login(client, password)

    # then
    assert response.status_code == 200
    body = response.json()
    assert body["message"] == "Login successful"
    assert body["user"]["email"] == "alice@example.com" and body["user"]["firstName"] == "Alice"
    token = AuthToken.objects.get(user=alice)
    assert token.key_hash == AuthToken.hash_key(body["token"])  # only the hash is stored
    assert body["token"] not in token.key_hash
    assert "no-store" in response.headers.get("Cache-Control", "")  # no browser or proxy keeps the token


def test_the_checkout_sign_up_answer_holding_a_token_is_not_kept_either(client):
    # when
    response = client.post("/api/users/checkout-register",
                           {"firstName": "Sara", "lastName": "Adel", "email": "sara@example.com",
                            "password": "Sweep-pass-2026!"}, content_type="application/json")
    # then
    assert response.status_code == 201 and response.json()["sessionToken"]
    assert "no-store" in response.headers.get("Cache-Control", "")


@pytest.mark.parametrize("path", ["/api/auth/me", "/api/account/addresses"])
def test_answers_with_the_customers_details_are_not_kept(client, alice, password, path):
    # given: what /account shows (never cached), read through the API, with the token or the site's session
    key = _login(client, password).json()["token"]
    # when
    with_token = client.get(path, **_bearer(key))
    client.force_login(alice)
    with_session = client.get(path)
    # then: no browser (a shared computer) or proxy keeps the name, e-mail, phone or addresses
    for response in (with_token, with_session):
        assert response.status_code == 200
        assert "no-store" in response.headers.get("Cache-Control", "")
        assert "private" in response.headers["Cache-Control"]


@pytest.mark.parametrize(("remember", "lifetime"), [(False, timedelta(hours=24)), (True, timedelta(days=30))])
def test_the_token_lives_as_long_as_the_session_would(client, alice, password, remember, lifetime):
    # given
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        key = _login(client, password, rememberMe=remember).json()["token"]

        # when / then
        traveller.shift(lifetime - timedelta(minutes=1))
        assert client.get("/api/auth/me", **_bearer(key)).status_code == 200
        traveller.shift(timedelta(minutes=2))
        assert client.get("/api/auth/me", **_bearer(key)).status_code == 401


def test_wrong_credentials_get_the_spec_message(client, alice):
    # when
    response = _login(client, "not-her-password")

    # then
    assert response.status_code == 401
    assert response.json()["message"] == "Login failed. Please try again."
    assert "token" not in response.json()


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"email": "", "password": "x"}, "email", "Email is required"),
    ({"email": "alice@example.com"}, "password", "Password is required"),
])
def test_it_requires_email_and_password(client, body, field, message):
    # when
    response = client.post("/api/auth/login", body, content_type="application/json")

    # then
    assert response.status_code == 400
    assert response.json() == {"error": message, "message": message, "field": field}


def test_me_shows_the_signed_in_customer_and_refuses_strangers(client, alice, password):
    # given
    key = _login(client, password).json()["token"]

    # when
    me = client.get("/api/auth/me", **_bearer(key))
    stranger = client.get("/api/auth/me")
    forged = client.get("/api/auth/me", **_bearer("forged"))

    # then
    assert me.json()["email"] == "alice@example.com"
    assert me.json()["isActive"] is True
    assert stranger.status_code == 401
    assert forged.status_code == 401


def test_me_works_with_the_site_session_too(client, alice, password):
    # given
    client.post("/login", {"email": "alice@example.com", "password": password})

    # when
    response = client.get("/api/auth/me")

    # then
    assert response.json()["firstName"] == "Alice"


def test_logout_revokes_the_token(client, alice, password):
    # given
    key = _login(client, password).json()["token"]

    # when
    response = client.post("/api/auth/logout", **_bearer(key))

    # then
    assert response.status_code == 200
    assert client.get("/api/auth/me", **_bearer(key)).status_code == 401
    assert not AuthToken.objects.filter(user=alice).exists()


def test_a_deactivated_customer_cannot_use_a_token_or_sign_in(client, alice, password):
    # given
    key = _login(client, password).json()["token"]
    alice.is_active = False
    alice.save()

    # when
    me = client.get("/api/auth/me", **_bearer(key))
    login = _login(client, password)

    # then
    assert me.status_code == 401
    assert login.status_code == 401


def test_a_token_authenticates_other_customer_calls(client, alice, password):
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    from accounts.authentication import BearerTokenAuthentication

    # given (DRF hands its authenticators its own request)
    key = _login(client, password).json()["token"]
    request = Request(APIRequestFactory().get("/api/anything", HTTP_AUTHORIZATION=f"Bearer {key}"))

    # when
    user, token = BearerTokenAuthentication().authenticate(request)

    # then
    assert user == alice and token.user_id == alice.pk


def test_every_auth_endpoint_is_in_the_schema(client):
    # when
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()

    # then
    for path in ("login", "register", "forgot-password", "reset-password", "logout", "me"):
        assert f"/api/auth/{path}" in schema
