"""Account text (names, e-mail, phone, passwords, reset tokens) passes the shared text gate.

Over-long text, NUL, lone surrogates and control characters are refused with
a field error on every door (page form and API) and nothing is stored; before
the gate, PostgreSQL answered 500 and SQLite stored 100,000-character names.
"""

import pytest
from axes.models import AccessAttempt

from accounts.models import User
from accounts.services import customer_update_profile

pytestmark = pytest.mark.django_db

LONG = "x" * 100_000
GOOD = {"firstName": "Sara", "lastName": "Adel", "email": "sara@example.com", "phone": "01012345678",
        "password": "Sweep-pass-2026!"}


@pytest.mark.parametrize(("field", "value"), [
    ("firstName", LONG), ("lastName", "Ad\x00el"), ("firstName", "Sa\x1bra"), ("lastName", "Adel\r\nBcc: x@y.z"),
    ("email", "a" * 50_000 + "@example.com"), ("phone", "0101234567" + "8" * 100), ("password", "p" * 200),
])
def test_registration_refuses_unsafe_text_with_a_field_error(client, field, value):
    # when
    response = client.post("/api/auth/register", {**GOOD, field: value}, content_type="application/json")
    # then
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert not User.objects.filter(first_name="Sara").exists()


def test_the_register_page_shows_the_refusal_under_the_field(client):
    # when
    response = client.post("/register", {**GOOD, "firstName": LONG, "confirmPassword": GOOD["password"],
                                         "agreeToTerms": "on"})
    # then
    assert response.status_code == 400
    assert 'data-field="firstName"' in response.content.decode()
    assert "under 120 characters" in response.context["errors"]["firstName"]
    assert not User.objects.filter(email="sara@example.com").exists()


def test_checkout_register_refuses_an_over_long_name(client):
    # when
    response = client.post("/api/users/checkout-register", {**GOOD, "firstName": LONG},
                           content_type="application/json")
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "firstName"
    assert not User.objects.filter(email="sara@example.com").exists()


def test_the_profile_refuses_a_line_break_in_a_name(alice):
    # when
    with pytest.raises(Exception) as caught:
        customer_update_profile(user=alice, first_name="Alice\r\nBcc: x@y.z", last_name="Hassan")
    # then
    assert caught.value.field == "firstName"
    alice.refresh_from_db()
    assert alice.first_name == "Alice"


def test_the_account_page_shows_a_refused_name_under_its_field(client, alice):
    # given
    client.force_login(alice)
    # when
    response = client.post("/account", {"action": "profile", "firstName": "Ali\x00ce", "lastName": "Hassan"})
    # then
    assert response.status_code == 400
    assert "firstName" in response.context["profile_errors"]
    alice.refresh_from_db()
    assert alice.first_name == "Alice"


@pytest.mark.parametrize("email", ["a" * 50_000 + "@example.com", "alice@example.com\x00"])
def test_sign_in_refuses_impossible_e_mails_before_counting_a_failure(client, alice, email):
    # when
    response = client.post("/api/auth/login", {"email": email, "password": "whatever"},
                           content_type="application/json")
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "email"
    assert not AccessAttempt.objects.exists()


def test_the_login_page_shows_the_refusal_under_the_field(client, alice):
    # when
    response = client.post("/login", {"email": LONG + "@example.com", "password": "whatever"})
    # then
    assert response.status_code == 400
    assert "email" in response.context["errors"]


def test_forgot_password_refuses_an_over_long_e_mail(client):
    # when
    api = client.post("/api/auth/forgot-password", {"email": LONG}, content_type="application/json")
    page = client.post("/forgot-password", {"email": LONG})
    # then
    assert api.status_code == 400 and api.json()["field"] == "email"
    assert page.status_code == 400


def test_a_reset_token_with_control_characters_is_an_invalid_link(client):
    # when
    response = client.post("/api/auth/reset-password",
                           {"token": "x\x1b" * 10, "password": "Sweep-pass-2026!",
                            "confirmPassword": "Sweep-pass-2026!"},
                           content_type="application/json")
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "token"


# a well-formed address longer than the username column (150 characters): a customer's e-mail is their
# username, so PostgreSQL answered 500 (value too long) and SQLite kept a username over its length
ADDRESS_OVER_A_USERNAME = "a" * 64 + "@" + "b" * 63 + "." + "c" * 63 + ".com"


@pytest.mark.parametrize(("url", "body"), [
    ("/api/auth/register", {**GOOD, "email": ADDRESS_OVER_A_USERNAME}),
    ("/api/users/checkout-register", {**GOOD, "email": ADDRESS_OVER_A_USERNAME}),
])
def test_an_address_longer_than_a_username_is_refused_by_the_api(client, url, body):
    # when
    response = client.post(url, body, content_type="application/json")
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "email"
    assert response.json()["message"] == "Please keep this field under 150 characters"
    assert not User.objects.filter(first_name="Sara").exists()


def test_the_register_page_refuses_an_address_longer_than_a_username(client):
    # when
    response = client.post("/ar/register", {**GOOD, "email": ADDRESS_OVER_A_USERNAME,
                                            "confirmPassword": GOOD["password"], "agreeToTerms": "on"})
    # then
    assert response.status_code == 400
    assert response.context["errors"]["email"] == "يرجى ألا يتجاوز هذا الحقل 150 حرفًا"
    assert not User.objects.filter(first_name="Sara").exists()


def test_the_account_e_mail_limit_is_the_username_columns_length():
    from accounts.services import ACCOUNT_EMAIL_MAX

    assert ACCOUNT_EMAIL_MAX == User._meta.get_field("username").max_length
