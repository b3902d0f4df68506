"""Contact and newsletter text passes the shared text gate, on the page and in the API.

The contact subject and name go into the store's e-mail headers: a line
break there used to be stored and break every notification.
"""

import pytest

from shop.models import ContactMessage, NewsletterSubscriber

pytestmark = pytest.mark.django_db

GOOD = {"name": "Sara", "email": "sara@example.com", "subject": "Hello", "message": "Do you ship to Aswan?"}


@pytest.mark.parametrize(("field", "value"), [
    ("subject", "Hi\r\nBcc: victim@example.com"), ("name", "Sara\nX-Header: 1"), ("name", "x" * 100_000),
    ("message", "Hello\x1b[31m"), ("email", "a" * 50_000 + "@example.com"), ("subject", "Hi\ud800"),
])
def test_the_contact_api_refuses_unsafe_text_with_a_field_error(client, field, value):
    # when
    response = client.post("/api/contact", {**GOOD, field: value}, content_type="application/json")
    # then
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert not ContactMessage.objects.exists()


def test_a_message_keeps_its_line_breaks(client):
    # when
    response = client.post("/api/contact", {**GOOD, "message": "Line one\r\nLine two"},
                           content_type="application/json")
    # then
    assert response.status_code == 201
    assert ContactMessage.objects.get().message == "Line one\nLine two"


def test_the_contact_page_marks_the_refused_field(client):
    # when
    response = client.post("/contact", {**GOOD, "subject": "Hi\r\nBcc: victim@example.com"})
    # then
    assert response.status_code == 400
    assert response.context["error"].field == "subject"
    assert not ContactMessage.objects.exists()


@pytest.mark.parametrize("email", ["a" * 50_000 + "@example.com", "sara@example.com\x00", "sara\r\n@example.com"])
def test_the_newsletter_refuses_impossible_e_mails(client, email):
    # when
    api = client.post("/api/newsletter", {"email": email}, content_type="application/json")
    page = client.post("/newsletter", {"email": email})
    # then
    assert api.status_code == 400 and api.json()["field"] == "email"
    assert page.status_code == 400
    assert not NewsletterSubscriber.objects.exists()
