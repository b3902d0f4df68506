"""Login CSRF: every API write that signs a visitor in wants their CSRF token, signed in or not, so
that a form on another site cannot sign them into an account of its choosing."""

import pytest
from django.test import Client

from tests.factories import make_product

pytestmark = pytest.mark.django_db

NEW_CUSTOMER = {"firstName": "Mona", "lastName": "Ali", "email": "mona@example.com", "password": "tea-time-2026",
                "phone": "01012345678"}


def _checkout_with_an_account(browser):
    tea = make_product(stock=5)
    assert browser.post("/api/cart/items", {"productId": tea.pk, "quantity": 1},
                        content_type="application/json").status_code == 200
    return browser.post("/api/payment/create-intention", {
        "paymentMethod": "cod", "createAccount": True, "password": "tea-time-2026", "confirmPassword": "tea-time-2026",
        "customer": {key: NEW_CUSTOMER[key] for key in ("firstName", "lastName", "email", "phone")},
        "billingAddress": {"street": "12 Nile St", "city": "Cairo", "state": "Cairo", "country": "EGY"},
    }, content_type="application/json")


SIGN_INS = {
    "checkout-register": lambda browser: browser.post("/api/users/checkout-register", NEW_CUSTOMER,
                                                      content_type="application/json"),
    "staff login": lambda browser: browser.post("/api/admin/login", {"username": "owner", "password": "owner-pass-1"},
                                                content_type="application/json"),
    "checkout with an account": _checkout_with_an_account,
}


@pytest.fixture
def owner_account(django_user_model):
    return django_user_model.objects.create_user(username="owner", email="owner@example.com",
                                                 password="owner-pass-1", is_staff=True, role="owner")


@pytest.mark.parametrize("write", SIGN_INS)
def test_a_sign_in_from_another_site_is_refused_and_signs_nobody_in(write, owner_account):
    # given a browser that never loaded the shop (no CSRF cookie or token), as a cross-site form would be
    browser = Client(enforce_csrf_checks=True)
    # when
    response = SIGN_INS[write](browser)
    # then
    assert response.status_code == 403, response.content
    assert "sessionid" not in response.cookies
    assert not browser.get("/account").wsgi_request.user.is_authenticated


@pytest.mark.parametrize("write", SIGN_INS)
def test_the_shops_own_pages_sign_in_with_their_token(write, owner_account):
    # given a browser holding the shop's CSRF cookie, which the islands send back as X-CSRFToken
    browser = Client(enforce_csrf_checks=True)
    browser.get("/adminauth")
    token = browser.cookies["csrftoken"].value
    browser.defaults["HTTP_X_CSRFTOKEN"] = token
    # when
    response = SIGN_INS[write](browser)
    # then
    assert response.status_code in (200, 201), response.content
    assert browser.get("/account" if write != "staff login" else "/admindash").wsgi_request.user.is_authenticated
