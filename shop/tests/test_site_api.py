from datetime import timedelta
from decimal import Decimal

import pytest
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

from shop.models import Announcement, ContactMessage, ExchangeRate, NewsletterSubscriber

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    return APIClient()


def test_it_lists_announcements_active_now_main_first(client):
    # given
    now = timezone.now()
    Announcement.objects.create(title="Other", content="x", display_end_date=now + timedelta(days=1))
    Announcement.objects.create(title="Main", content="x", is_main=True, display_end_date=now + timedelta(days=1))
    Announcement.objects.create(title="Old", content="x", display_end_date=now - timedelta(days=1))
    Announcement.objects.create(title="Off", content="x", is_active=False, display_end_date=now + timedelta(days=1))
    # when
    body = client.get("/api/announcements").json()
    # then
    assert [a["title"] for a in body] == ["Main", "Other"]
    assert body[0]["bannerColor"] == "#dc2626"


def test_subscribing_twice_keeps_one_address_and_sends_its_confirmation_link(client,
                                                                            django_capture_on_commit_callbacks):
    # when
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post("/api/newsletter", {"email": "Sara@Example.com"}, format="json")
        second = client.post("/api/newsletter", {"email": "sara@example.com"}, format="json")
    # then: one address, awaiting its owner; each ask sent the link (a few an hour at most: test_newsletter)
    assert first.status_code == second.status_code == 201 and first.json() == second.json()  # nothing told
    assert NewsletterSubscriber.objects.count() == 1
    token = NewsletterSubscriber.objects.get().unsubscribe_token
    assert [f"/newsletter/confirm/{token}" in m.body for m in mail.outbox] == [True, True]


def test_newsletter_rejects_a_malformed_address(client):
    response = client.post("/api/newsletter", {"email": "not-an-email"}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "email"
    assert client.post("/api/newsletter", ["x"], format="json").status_code == 400


def test_contact_stores_the_message_and_emails_the_store(client, django_capture_on_commit_callbacks):
    # when
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/api/contact", {
            "name": "Sara", "email": "sara@example.com", "subject": "Order", "message": "<b>Hi</b>",
        }, format="json")
    # then
    assert response.status_code == 201
    assert response.json()["message"] == "Thank you for your message! We'll get back to you soon."
    assert ContactMessage.objects.get().message == "<b>Hi</b>"
    assert mail.outbox[0].to == ["hello@nilehighlandstea.example"]


@pytest.mark.parametrize("body", [
    {"name": "", "email": "a@b.co", "subject": "s", "message": "m"},
    {"name": "n", "email": "bad", "subject": "s", "message": "m"},
    {"name": "n", "email": "a@b.co", "subject": "s", "message": "m" * 5001},
    {"name": 5, "email": None, "subject": [], "message": {}},
])
def test_contact_refuses_bad_input_with_400(client, body):
    assert client.post("/api/contact", body, format="json").status_code == 400
    assert ContactMessage.objects.count() == 0


def test_exchange_rates_use_the_fallback_until_a_rate_is_stored(client):
    # when
    fallback = client.get("/api/exchange-rate", {"from": "KES", "to": "EGP"}).json()
    # then
    assert Decimal(fallback["rate"]) == Decimal("0.376")
    # given
    ExchangeRate.objects.create(from_currency="KES", to_currency="EGP", rate=Decimal("0.4"), source="test")
    # then
    assert Decimal(client.get("/api/exchange-rate/kes-to-egp").json()["rate"]) == Decimal("0.4")
    inverse = client.get("/api/exchange-rate", {"from": "egp", "to": "kes"}).json()
    assert Decimal(inverse["rate"]) == Decimal("2.5")


def test_it_converts_kes_to_egp_with_the_specs_rules(client):
    ExchangeRate.objects.create(from_currency="KES", to_currency="EGP", rate=Decimal("0.4"), source="test")
    convert = lambda amount: client.post(  # noqa: E731
        "/api/exchange-rate/convert/kes-to-egp", {"amount": amount}, format="json"
    ).json()
    assert convert(1000) == {"success": True, "rate": "0.400000", "converted": {"amount": "400.00", "currency": "EGP"}}
    assert convert("abc")["converted"]["amount"] == "0.00"
    assert convert(-5)["converted"]["amount"] == "0.00"


@pytest.mark.parametrize("amount", ["1e30", "1e999999", 1e308, "10000000000"])
def test_an_amount_no_price_can_be_converts_to_nothing_not_a_500(client, amount):
    """An amount past what the shop's 12-digit money columns hold is a bad amount (0), as text is: Decimal
    read it and multiplied it, and rounding the product to piasters raised, a 500 for any visitor."""
    ExchangeRate.objects.create(from_currency="KES", to_currency="EGP", rate=Decimal("0.4"), source="test")
    response = client.post("/api/exchange-rate/convert/kes-to-egp", {"amount": amount}, format="json")
    assert response.status_code == 200
    assert response.json()["converted"]["amount"] == "0.00"
    # the largest amount a price can be still converts
    largest = client.post("/api/exchange-rate/convert/kes-to-egp", {"amount": "9999999999.99"}, format="json")
    assert largest.json()["converted"]["amount"] == "4000000000.00"


def test_an_unknown_currency_pair_is_a_clear_404(client):
    response = client.get("/api/exchange-rate", {"from": "USD", "to": "JPY"})
    assert response.status_code == 404
    assert response.json()["message"] == "Exchange rate for USD to JPY is not available. Please try again later."


def test_it_refuses_nul_bytes_in_visitor_text_with_a_field_error(client):
    # when
    response = client.post("/api/contact", {
        "name": "Sa\x00ra", "email": "sara@example.com", "subject": "Hi", "message": "Hello",
    }, format="json")
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "name"
    assert not ContactMessage.objects.exists()
    assert client.post("/api/newsletter", {"email": "a\x00@example.com"}, format="json").status_code == 400
