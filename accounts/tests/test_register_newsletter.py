"""A newsletter opt-in at registration subscribes through the newsletter service (list, CSV, its confirmation
e-mail); unticking it on the account page leaves the list."""

import pytest
from django.core import mail
from django.utils import timezone

from shop.models import NewsletterSubscriber

pytestmark = pytest.mark.django_db

FORM = {
    "firstName": "Mona", "lastName": "Saleh", "email": "Mona@Example.com", "phone": "",
    "password": "Tea-time-2026", "confirmPassword": "Tea-time-2026", "agreeToTerms": "1",
}


def test_ticking_the_box_on_the_register_page_lands_in_the_newsletter_list_and_its_csv(client, owner):
    # when
    client.post("/ar/register", {**FORM, "subscribeNewsletter": "1"})
    # then
    subscriber = NewsletterSubscriber.objects.get()
    assert (subscriber.email, subscriber.language, subscriber.is_active) == ("mona@example.com", "ar", True)
    client.force_login(owner)
    listed = client.get("/api/admin/newsletter").json()
    assert [s["email"] for s in listed["results"]] == ["mona@example.com"]
    csv = b"".join(client.get("/api/admin/newsletter/export").streaming_content).decode("utf-8-sig")
    assert "mona@example.com" in csv


def test_registering_through_the_api_with_the_opt_in_asks_for_the_confirmation(client,
                                                                             django_capture_on_commit_callbacks):
    # when
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/api/auth/register", {
            "firstName": "Omar", "lastName": "Adel", "email": "omar@example.com", "phone": "",
            "password": "Tea-time-2026", "subscribeNewsletter": True}, content_type="application/json")
    # then
    assert response.status_code == 201
    assert NewsletterSubscriber.objects.get(email="omar@example.com").status == "pending"
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (["omar@example.com"], "Confirm your subscription to the Nile Highlands Tea newsletter")]


def test_leaving_the_box_empty_subscribes_nobody(client):
    # when
    client.post("/register", {**FORM, "subscribeNewsletter": ""})
    # then
    assert not NewsletterSubscriber.objects.exists()


def test_ticking_it_later_on_the_account_page_subscribes_too(client, alice):
    # given
    client.force_login(alice)
    # when
    client.post("/account", {"action": "profile", "firstName": "Alice", "lastName": "A", "phone": "",
                             "subscribeNewsletter": "1"})
    # then
    assert NewsletterSubscriber.objects.filter(email=alice.email, is_active=True).exists()


def test_unticking_it_on_the_account_page_leaves_the_list(client, alice):
    # given a customer on the list
    client.force_login(alice)
    profile = {"action": "profile", "firstName": "Alice", "lastName": "A", "phone": ""}
    client.post("/account", {**profile, "subscribeNewsletter": "1"})
    NewsletterSubscriber.objects.filter(email=alice.email).update(confirmed_at=timezone.now())
    # when the box is unticked
    client.post("/account", profile)
    # then the address is no longer mailed
    assert NewsletterSubscriber.objects.get(email=alice.email).status == "unsubscribed"


def test_the_unsubscribe_link_unticks_the_account_page_box(client, alice):
    # given a customer on the list
    client.force_login(alice)
    client.post("/account", {"action": "profile", "firstName": "Alice", "lastName": "A", "phone": "",
                             "subscribeNewsletter": "1"})
    subscriber = NewsletterSubscriber.objects.get(email=alice.email)
    # when they use the link in an e-mail
    client.post(f"/newsletter/unsubscribe/{subscriber.unsubscribe_token}")
    # then their account no longer says they are subscribed
    alice.refresh_from_db()
    assert alice.subscribe_newsletter is False
    assert 'name="subscribeNewsletter" value="1" checked' not in client.get("/account").content.decode()


CONFIRM_HINT = "open the link we e-mailed you to confirm your newsletter subscription"
CONFIRM_HINT_AR = "افتح الرابط الذي أرسلناه إليك بالبريد الإلكتروني لتأكيد اشتراكك في النشرة البريدية"


@pytest.mark.parametrize(("prefix", "hint"), [("", CONFIRM_HINT), ("/ar", CONFIRM_HINT_AR)])
def test_after_registering_with_the_box_ticked_the_shopper_is_told_to_confirm_by_e_mail(client, prefix, hint):
    # when a shopper registers with the newsletter box ticked (double opt-in: nothing is sent before the link)
    response = client.post(f"{prefix}/register", {**FORM, "subscribeNewsletter": "1"})
    page = client.get(response.url).content.decode()
    # then the sign-in page says the subscription waits for the link in their mailbox
    assert hint in page


def test_after_registering_without_the_box_nothing_is_said_about_the_newsletter(client):
    response = client.post("/register", {**FORM, "subscribeNewsletter": ""})
    assert CONFIRM_HINT not in client.get(response.url).content.decode()


@pytest.mark.parametrize(("prefix", "hint"), [("", CONFIRM_HINT), ("/ar", CONFIRM_HINT_AR)])
def test_the_account_page_says_a_ticked_box_still_awaits_its_confirmation(client, alice, prefix, hint):
    # given a customer who ticked the box and has not opened the confirmation link yet
    client.force_login(alice)
    client.post("/account", {"action": "profile", "firstName": "Alice", "lastName": "A", "phone": "",
                             "subscribeNewsletter": "1"})
    # then the account page, beside the ticked box, says what is left to do
    assert hint in client.get(f"{prefix}/account").content.decode()
    # when they confirm, it says so no more
    NewsletterSubscriber.objects.filter(email=alice.email).update(confirmed_at=timezone.now())
    assert hint not in client.get(f"{prefix}/account").content.decode()
