"""Typed text carries no explicit direction controls (U+202A-202E, U+2066-2069), whatever the door.

A name such as "Ali\u202egpj.exe" would otherwise reverse what follows it on the
dashboard, in staff e-mails, CSV exports and invoices, and a stray U+2069 (PDI)
would close the isolate the shop puts around typed text before the override
starts. They are invisible formatting, so they are dropped where input enters
the shop (like Eastern digits are read as Western ones); passwords stay as typed.
Phones copied from WhatsApp arrive wrapped in U+202A … U+202C, and are then read.
"""

import json

import pytest

from accounts.models import Address, User
from shop.mail import isolate
from shop.models import ContactMessage

pytestmark = pytest.mark.django_db

RLO, PDF, LRE, PDI, FSI = "\u202e", "\u202c", "\u202a", "\u2069", "\u2068"
CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
PASSWORD = "Fresh-leaves-77" + RLO


def _has_controls(text):
    return any(c in text for c in CONTROLS)


def test_a_registration_form_stores_the_names_without_direction_controls_and_the_password_as_typed(client):
    # when
    response = client.post("/register", {
        "firstName": f"Ali{RLO}gpj.exe", "lastName": f"Hassan{PDI}{RLO}x", "email": f"{LRE}ali@example.com{PDF}",
        "password": PASSWORD, "confirmPassword": PASSWORD, "agreeToTerms": "on"})

    # then
    assert response.status_code == 302, response.content.decode()[:2000]
    user = User.objects.get()
    assert (user.first_name, user.last_name, user.email) == ("Aligpj.exe", "Hassanx", "ali@example.com")
    assert user.check_password(PASSWORD)


def test_the_api_stores_json_text_without_direction_controls(client):
    # when
    response = client.post("/api/auth/register", json.dumps({
        "firstName": f"{FSI}Sara{PDI}", "lastName": f"Ali{RLO}", "email": "sara@example.com",
        "password": PASSWORD}), content_type="application/json")

    # then
    assert response.status_code == 201, response.content
    user = User.objects.get()
    assert (user.first_name, user.last_name) == ("Sara", "Ali")
    assert user.check_password(PASSWORD)


def test_a_phone_copied_from_whatsapp_is_read(client, alice):
    # given
    client.force_login(alice)
    body = {"firstName": "Alice", "lastName": "Hassan", "phone": f"{LRE}+20 10 1234 5678{PDF}",
            "street": "12 Nile St", "city": "Cairo", "state": "Cairo", "country": "EGY"}

    # when
    response = client.post("/api/account/addresses", json.dumps(body), content_type="application/json")

    # then
    assert response.status_code == 201, response.content
    assert Address.objects.get().phone == "+201012345678"


def test_a_contact_form_message_is_stored_without_direction_controls(client):
    # when
    response = client.post("/contact", {"name": f"Mona{RLO}", "email": "mona@example.com",
                                        "subject": f"Refund{PDI}{RLO} please", "message": f"Hello{RLO}\nthere"})

    # then
    assert response.status_code == 302
    message = ContactMessage.objects.get()
    assert not any(_has_controls(text) for text in (message.name, message.subject, message.message))


def test_a_query_string_loses_its_direction_controls_too(client):
    # when (percent-encoded, as a browser sends it)
    response = client.get("/shop?search=gold%E2%80%AEx")

    # then
    assert response.wsgi_request.GET["search"] == "goldx"


def test_an_isolate_holds_whatever_direction_controls_an_old_row_carries():
    # when
    text = isolate(f"Ali{PDI}{RLO}gpj.exe")

    # then: one isolate, closed by the shop's own PDI (which also ends the override inside it)
    assert text.startswith(FSI) and text.endswith(PDI)
    assert text.count(PDI) == 1 and FSI not in text[1:]
