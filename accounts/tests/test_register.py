"""Registration: every validation message, on the page and in the API."""

import re

import pytest

from accounts.models import User

pytestmark = pytest.mark.django_db

GOOD = {
    "firstName": "Mona", "lastName": "Saleh", "email": "mona@example.com", "phone": "",
    "password": "Tea-time-2026", "confirmPassword": "Tea-time-2026", "agreeToTerms": "1",
    "subscribeNewsletter": "1",
}


def _register(client, **changes):
    return client.post("/register", {**GOOD, **changes})


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"firstName": " "}, "firstName", "First name is required"),
        ({"lastName": ""}, "lastName", "Last name is required"),
        ({"email": ""}, "email", "Email is required"),
        ({"email": "mona@"}, "email", "Please enter a valid email address"),
        ({"password": "", "confirmPassword": ""}, "password", "Password is required"),
        ({"password": "Ab1!xyz", "confirmPassword": "Ab1!xyz"}, "password",
         "Password must be at least 8 characters long"),
        ({"confirmPassword": ""}, "confirmPassword", "Please confirm your password"),
        ({"confirmPassword": "Tea-time-2025"}, "confirmPassword", "Passwords do not match"),
        ({"agreeToTerms": ""}, "agreeToTerms", "You must agree to the terms and conditions"),
        ({"phone": "12345"}, "phone", "Please enter a valid phone number, for example 01012345678"),
    ],
)
def test_it_shows_each_validation_message_under_its_field(client, changes, field, message):
    # when
    response = _register(client, **changes)

    # then
    assert response.status_code == 400
    assert response.context["errors"][field] == message
    assert f'id="error_{field}" >{message}<' in response.content.decode()
    assert not User.objects.filter(email="mona@example.com").exists()


def test_it_shows_every_problem_at_once_and_never_echoes_the_password(client):
    # when
    response = client.post("/register", {"password": "secret-pass-1"})

    # then
    errors = response.context["errors"]
    assert set(errors) == {"firstName", "lastName", "email", "confirmPassword", "agreeToTerms"}
    assert "secret-pass-1" not in response.content.decode()


def test_it_puts_a_duplicate_email_under_the_email_field(client, alice):
    # when
    response = _register(client, email="ALICE@example.com")

    # then
    assert response.context["errors"]["email"] == "An account with this email already exists"


@pytest.mark.parametrize("phone", ["01012345678", "+20 101 234 5678", "0020 1112345678", "02 2345 6789",
                                   "+971 50 123 4567", "+44 20 7946 0958"])
def test_it_accepts_egyptian_and_international_phone_numbers(client, phone):
    # when
    response = _register(client, phone=phone)

    # then
    assert response.status_code == 302
    assert User.objects.get(email="mona@example.com").phone == phone.replace(" ", "")


@pytest.mark.parametrize("prefix, words", [("", "For example"), ("/ar", "مثال:")])
def test_the_phone_examples_are_egyptian_numbers_the_form_accepts(client, prefix, words):
    # given the register page (the shop delivers in Egypt), in either language
    page = client.get(f"{prefix}/register").content.decode()
    examples = re.findall(r'<bdi dir="ltr">([^<]+)</bdi>', page.split(words, 1)[1].split("</p>", 1)[0])
    # then its phone hint shows an Egyptian mobile written locally and with the country code
    assert examples == ["010 1234 5678", "+20 10 1234 5678"]
    # and each example is a number the form takes as it is written
    for number in examples:
        User.objects.filter(email="mona@example.com").delete()
        assert _register(client, phone=number).status_code == 302


def test_it_creates_the_account_and_sends_the_shopper_to_sign_in(client):
    # when
    response = _register(client, email="Mona@Example.com")
    page = client.get(response.url)

    # then
    assert response.url == "/login"
    user = User.objects.get(email="mona@example.com")
    assert (user.first_name, user.last_name, user.username) == ("Mona", "Saleh", "mona@example.com")
    assert user.subscribe_newsletter is True
    assert user.check_password("Tea-time-2026")
    assert user.password.startswith("md5$") or user.password.startswith("argon2")
    assert "Account created successfully! Please sign in to continue." in page.content.decode()
    assert not page.wsgi_request.user.is_authenticated


def test_the_newsletter_box_starts_ticked_and_can_be_unticked(client):
    # given
    page = client.get("/register").content.decode()

    # when
    _register(client, subscribeNewsletter="")

    # then
    assert 'name="subscribeNewsletter" value="1" checked' in page
    assert User.objects.get(email="mona@example.com").subscribe_newsletter is False


def test_it_remembers_the_language_for_e_mails(client):
    # when
    client.post("/ar/register", GOOD)

    # then
    assert User.objects.get(email="mona@example.com").language == "ar"


def test_arabic_messages_are_translated(client):
    # when
    response = client.post("/ar/register", {**GOOD, "firstName": ""})

    # then
    assert response.context["errors"]["firstName"] == "الاسم الأول مطلوب"


# --- API --------------------------------------------------------------------

API_GOOD = {"firstName": "Mona", "lastName": "Saleh", "email": "mona@example.com", "phone": "",
            "password": "Tea-time-2026", "subscribeNewsletter": False}


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"firstName": ""}, "firstName", "First name is required"),
        ({"lastName": ""}, "lastName", "Last name is required"),
        ({"email": ""}, "email", "Email is required"),
        ({"email": "not-an-email"}, "email", "Please enter a valid email address"),
        ({"phone": "abc"}, "phone", "Please enter a valid phone number, for example 01012345678"),
        ({"password": ""}, "password", "Password is required"),
        ({"password": "short1!"}, "password", "Password must be at least 8 characters long"),
    ],
)
def test_the_api_names_the_field_at_fault(client, changes, field, message):
    # when
    response = client.post("/api/auth/register", {**API_GOOD, **changes}, content_type="application/json")

    # then
    assert response.status_code == 400
    assert response.json() == {"error": message, "message": message, "field": field}


def test_the_api_puts_a_duplicate_email_under_email(client, alice):
    # when
    response = client.post("/api/auth/register", {**API_GOOD, "email": "alice@example.com"},
                           content_type="application/json")

    # then
    assert response.status_code == 400
    assert response.json()["field"] == "email"
    assert response.json()["message"] == "An account with this email already exists"


def test_the_api_registers_a_customer(client):
    # when
    response = client.post("/api/auth/register", API_GOOD, content_type="application/json")

    # then
    assert response.status_code == 201
    assert response.json()["message"] == "Account created successfully! Please sign in to continue."
    user = User.objects.get(email="mona@example.com")
    assert not user.is_staff and user.role == "" and user.subscribe_newsletter is False


def test_a_sign_up_racing_another_with_the_same_address_gets_the_duplicate_message(alice, monkeypatch):
    from accounts import services

    # given: the early check has already passed when the other sign-up commits
    monkeypatch.setattr(services, "customer_errors", lambda **kwargs: {})
    User.objects.filter(pk=alice.pk).update(username="alice-legacy")

    # when
    with pytest.raises(services.AccountError) as raised:
        services.customer_create(first_name="A", last_name="B", email="Alice@example.com", password="x")

    # then
    assert (raised.value.field, raised.value.message) == ("email", "An account with this email already exists")
    assert User.objects.filter(email__iexact="alice@example.com").count() == 1


def test_registering_goes_to_sign_in_with_the_email_filled_and_next_kept(client):
    # when a shopper sent from their cart registers
    response = client.post("/register?next=/cart", {**GOOD, "email": "Mona@Example.com "})
    # then the spec's redirect to /login, carrying where they came from, and the e-mail filled in once
    assert response.status_code == 302 and response.url == "/login?next=%2Fcart"
    page = client.get(response.url).content.decode()
    assert 'value="Mona@Example.com"' in page and 'name="next" value="/cart"' in page
    assert 'value="Mona@Example.com"' not in client.get("/login").content.decode()


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "/\\evil.example", "/login",
                                    "/ar/register"])
def test_registering_ignores_a_next_off_site_or_back_to_the_sign_in_pages(client, target):
    response = client.post("/register", {**GOOD, "next": target})
    assert response.url == "/login"


def test_an_address_that_is_a_staff_username_in_another_case_cannot_be_registered(client, manager, password):
    """Sign-in reads an address typed as a username as a customer's e-mail in any case first
    (accounts.backends), so a customer holding "sara@tea.example" was found in place of the staff member
    whose username is "Sara@Tea.example" and kept them out of the dashboard (their right password checked
    against the customer's, every try a failed sign-in toward their lockout). Registration compared the
    address with usernames in one case only."""
    # given: a staff member whose username is an address (not their e-mail)
    User.objects.filter(pk=manager.pk).update(username="Sara@Tea.example")

    # when: a visitor registers that address, in lower case, by the API and by the page
    answer = client.post("/api/auth/register", {**API_GOOD, "email": "sara@tea.example"},
                         content_type="application/json")
    page = _register(client, email="SARA@tea.example")

    # then: refused as any address an account has, and the staff member still signs in
    assert answer.status_code == 400
    assert answer.json()["message"] == "An account with this email already exists"
    assert page.context["errors"]["email"] == "An account with this email already exists"
    assert not User.objects.filter(email__iexact="sara@tea.example").exists()
    signed_in = client.post("/api/admin/login", {"username": "Sara@Tea.example", "password": password},
                            content_type="application/json")
    assert signed_in.status_code == 200
