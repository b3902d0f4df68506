import pytest
from django.core import mail

from shop.models import ContactMessage, NewsletterSubscriber
from shop.store_settings import store_settings_update
from tests.factories import make_product
from tests.pages import without_random_parts

pytestmark = pytest.mark.django_db


def test_home_shows_real_featured_products_and_settings_values(client):
    make_product(title="Featured Gold", is_featured=True)
    make_product(title="Plain")
    html = without_random_parts(client.get("/").content.decode())
    assert "Featured Gold" in html and "Plain" not in html
    assert "Verified Purchase" in html and "10K+" in html
    assert "E£1,000.00" in html


@pytest.mark.parametrize("path",
                         ["/about", "/contact", "/terms", "/privacy", "/ar/about", "/ar/terms", "/ar/privacy",
                          "/ar/contact"])
def test_content_pages_render_in_both_languages(client, path):
    assert client.get(path).status_code == 200


def test_terms_has_12_sections_and_privacy_13(client):
    terms = client.get("/terms").content.decode()
    assert terms.count("<li><h2>") + terms.count('<li id="shipping"><h2>') == 12
    privacy = client.get("/privacy").content.decode()
    assert privacy.count("<li><h2>") + privacy.count('<li id="returns"><h2>') == 13


def test_the_contact_form_stores_and_emails_without_javascript(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/contact",
                               {"name": "Sara", "email": "sara@example.com", "subject": "Hi", "message": "Hello"})
    assert response.status_code == 302
    assert "Thank you for your message!" in client.get(response["Location"]).content.decode()
    assert ContactMessage.objects.count() == 1 and len(mail.outbox) == 1


@pytest.mark.parametrize(("prefix", "email", "message"), [
    ("", "", "Please fill in all fields"),
    ("", "not-an-email", "Please enter a valid email address"),
    ("/ar", "", "يرجى ملء جميع الحقول"),
    ("/ar", "not-an-email", "يرجى إدخال بريد إلكتروني صالح"),
])
def test_the_contact_form_reports_a_field_problem_at_the_field_only(client, prefix, email, message):
    # given a message whose e-mail is missing or malformed
    # when it is sent without JavaScript
    response = client.post(f"{prefix}/contact", {"name": "Sara", "email": email, "subject": "Hi", "message": "Hello"})
    # then the e-mail field carries the message in the page's language, and no sentence says sending failed
    assert response.status_code == 400
    html = response.content.decode()
    assert f'<p class="field__error" id="c-email-error">{message}</p>' in html
    assert 'aria-describedby="c-email-error" autofocus' in html
    assert "There was an error sending" not in html and "حدث خطأ أثناء إرسال" not in html
    assert ContactMessage.objects.count() == 0


def test_the_footer_form_asks_for_a_confirmation_and_the_link_unsubscribes(client):
    assert client.post("/newsletter", {"email": "a@example.com"}).status_code == 200
    assert "Open its link to confirm your subscription" in client.post(
        "/newsletter", {"email": "a@example.com"}).content.decode()
    assert client.post("/newsletter", {"email": "nope"}).status_code == 400
    subscriber = NewsletterSubscriber.objects.get()
    link = f"/newsletter/unsubscribe/{subscriber.unsubscribe_token}"
    # a mail scanner opening the link sees a button and takes nobody off
    assert '<form method="post">' in client.get(link).content.decode()
    subscriber.refresh_from_db()
    assert subscriber.is_active is True
    # the button does
    assert "You have been unsubscribed" in client.post(link).content.decode()
    subscriber.refresh_from_db()
    assert subscriber.is_active is False
    assert client.get("/newsletter/unsubscribe/bogus").status_code == 404
    assert client.post("/newsletter/unsubscribe/bogus").status_code == 404


def test_sitemap_lists_pages_and_active_products_in_both_languages(client):
    product = make_product()
    hidden = make_product(is_active=False)
    xml = client.get("/sitemap.xml").content.decode()
    assert f"http://testserver/product/{product.slug}" in xml
    assert f"http://testserver/ar/product/{product.slug}" in xml
    assert "http://testserver/ar/shop" in xml
    assert hidden.slug not in xml
    assert 'hreflang="ar" href="http://testserver/ar/shop"' in xml
    assert 'hreflang="x-default" href="http://testserver/shop"' in xml


def test_sitemap_uses_the_public_address_and_hides_when_discovery_is_off(client, settings):
    settings.SITE_URL = "https://tea.example.eg"
    product = make_product()
    xml = client.get("/sitemap.xml").content.decode()
    assert f"<loc>https://tea.example.eg/ar/product/{product.slug}</loc>" in xml
    assert "testserver" not in xml
    store_settings_update(disable_discovery=True)
    assert client.get("/sitemap.xml").status_code == 404


def test_robots_allows_crawling_until_discovery_is_disabled(client):
    assert "Sitemap:" in client.get("/robots.txt").content.decode()
    store_settings_update(disable_discovery=True)
    assert "Disallow: /\n" in client.get("/robots.txt").content.decode()
    assert 'content="noindex' in client.get("/shop").content.decode()


def test_pages_carry_canonical_hreflang_and_open_graph(client):
    html = client.get("/about").content.decode()
    assert 'rel="canonical"' in html and 'hreflang="ar"' in html and 'property="og:title"' in html


@pytest.mark.parametrize("api", [False, True])
def test_the_newsletter_answers_alike_whether_or_not_the_address_is_on_the_list(client, api):
    # given one address on the list
    NewsletterSubscriber.objects.create(email="member@example.com")

    # when a stranger tries it and an address that is not on the list
    def subscribe(email):
        if api:
            response = client.post("/api/newsletter", {"email": email}, content_type="application/json")
            return response.status_code, response.json()
        response = client.post("/newsletter", {"email": email})
        return response.status_code, without_random_parts(response.content.decode())

    member, newcomer = subscribe("member@example.com"), subscribe("newcomer@example.com")

    # then the answers say nothing about who was on it
    assert member == newcomer
