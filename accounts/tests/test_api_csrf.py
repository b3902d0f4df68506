"""A signed-in visitor's API writes need the CSRF token (accounts.authentication.SessionAuthentication:
DRF's check, with the cookie the CSRF middleware read for the request)."""

import json

import pytest
from django.conf import settings
from django.middleware.csrf import _mask_cipher_secret
from django.test import Client

from accounts.models import User

SECRET = "csrfCSRFcsrf0123456789csrfCSRFab"  # 32 characters, as Django's secrets
REFUSED = "This page has expired. Reload it and try again."


@pytest.fixture
def customer(db):
    return User.objects.create_user(username="amina@example.com", email="amina@example.com", password="x-pass-1234")


def _write(client, product, **headers):
    return client.post("/api/cart/items", data=json.dumps({"productId": product.pk, "quantity": 1}),
                       content_type="application/json", **headers)


@pytest.mark.parametrize("cookie, header", [
    (None, None),  # neither
    (SECRET, None),  # the cookie without the header
    (SECRET, "x" * 32),  # the wrong token
    ("not a token!", "not a token!"),  # a cookie that is not a token: a new one is made, and does not match
])
def test_a_write_without_the_right_token_is_refused_and_changes_nothing(customer, product, cookie, header):
    client = Client(enforce_csrf_checks=True)
    client.force_login(customer)
    if cookie is not None:
        client.cookies[settings.CSRF_COOKIE_NAME] = cookie
    headers = {} if header is None else {"HTTP_X_CSRFTOKEN": header}
    response = _write(client, product, **headers)
    assert response.status_code == 403 and response.json()["error"] == REFUSED
    assert client.get("/api/cart").json()["itemCount"] == 0


@pytest.mark.parametrize("masked", [False, True])
def test_a_write_with_the_token_goes_through(customer, product, masked):
    client = Client(enforce_csrf_checks=True)
    client.force_login(customer)
    client.cookies[settings.CSRF_COOKIE_NAME] = SECRET
    header = _mask_cipher_secret(SECRET) if masked else SECRET
    assert _write(client, product, HTTP_X_CSRFTOKEN=header).status_code == 200
    assert client.get("/api/cart").json()["itemCount"] == 1


@pytest.mark.parametrize("cookie", [None, SECRET])
def test_the_refusal_reads_in_the_visitors_language(customer, product, cookie):
    # given: an Arabic page whose token is missing or stale (the islands show the server's words)
    client = Client(enforce_csrf_checks=True)
    client.force_login(customer)
    if cookie is not None:
        client.cookies[settings.CSRF_COOKIE_NAME] = cookie
    response = _write(client, product, HTTP_ACCEPT_LANGUAGE="ar", HTTP_X_CSRFTOKEN="x" * 32)
    # then: Arabic, not DRF's "CSRF Failed: …"
    assert response.status_code == 403
    assert response.json()["message"] == "انتهت صلاحية هذه الصفحة. أعد تحميلها ثم حاول مرة أخرى."
