"""The newsletter is double opt-in: an address typed into the footer (or ticked at registration) is mailed a
confirmation link and joins the list only when its owner uses it; mail scanners that open links join nobody."""

import re

import pytest
from django.utils import timezone

from shop.models import NewsletterSubscriber, OutboundEmail
from shop.newsletter import CONFIRMATIONS_PER_HOUR, newsletter_subscribe

pytestmark = pytest.mark.django_db


def _mails(to):
    return list(OutboundEmail.objects.filter(to=to).order_by("pk"))


def _confirm_path(mail):
    return re.search(r"https?://[^/\s]+(/\S*newsletter/confirm/\S+)", mail.text).group(1)


@pytest.mark.parametrize("language, subject, prefix", [
    ("en", "Confirm your subscription to the Nile Highlands Tea newsletter", ""),
    ("ar", "أكّد اشتراكك في النشرة البريدية لـ", "/ar"),
])
def test_a_new_address_waits_for_its_owner_to_confirm(client, language, subject, prefix):
    # when a visitor subscribes
    response = client.post("/api/newsletter", {"email": "Sara@Example.com"},
                           content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)
    # then the answer says what to do, the address is not on the list yet, and only a confirmation went out
    assert response.status_code == 201
    assert response.json()["message"] in (
        "Almost done: we sent you an e-mail. Open its link to confirm your subscription.",
        "خطوة أخيرة: أرسلنا إليك رسالة بالبريد الإلكتروني. افتح الرابط الذي فيها لتأكيد اشتراكك.")
    subscriber = NewsletterSubscriber.objects.get(email="sara@example.com")
    assert subscriber.status == "pending"
    [confirmation] = _mails("sara@example.com")
    assert confirmation.subject.startswith(subject)
    assert confirmation.language == language
    path = _confirm_path(confirmation)
    assert path.startswith(f"{prefix}/newsletter/confirm/")

    # when a mail scanner opens the link
    page = client.get(path)
    # then it sees a button, and nothing changes
    assert page.status_code == 200 and '<form method="post">' in page.content.decode()
    subscriber.refresh_from_db()
    assert subscriber.status == "pending"

    # when its owner presses the button, twice
    done = client.post(path)
    client.post(path)
    # then the address is on the list, and one welcome (with its unsubscribe link) went out
    assert done.status_code == 200
    subscriber.refresh_from_db()
    assert subscriber.status == "active" and subscriber.confirmed_at is not None
    mails = _mails("sara@example.com")
    assert len(mails) == 2
    assert f"/newsletter/unsubscribe/{subscriber.unsubscribe_token}" in mails[1].text


def test_asking_again_resends_the_link_a_few_times_an_hour_and_leaves_a_subscriber_alone():
    # given an address awaiting its confirmation
    newsletter_subscribe(email="pending@example.com")
    # when someone asks again and again
    for _ in range(CONFIRMATIONS_PER_HOUR + 3):
        newsletter_subscribe(email="pending@example.com")
    # then its mailbox gets the link a few times at most, not once per request
    assert len(_mails("pending@example.com")) == CONFIRMATIONS_PER_HOUR
    # and a confirmed subscriber asking again gets nothing and stays on the list
    NewsletterSubscriber.objects.create(email="member@example.com", confirmed_at=timezone.now())
    newsletter_subscribe(email="member@example.com")
    assert _mails("member@example.com") == []
    assert NewsletterSubscriber.objects.get(email="member@example.com").status == "active"


def test_an_unsubscribed_address_is_not_put_back_on_the_list_by_whoever_types_it():
    # given an address that unsubscribed
    NewsletterSubscriber.objects.create(email="gone@example.com", is_active=False, confirmed_at=timezone.now())
    # when someone subscribes it again
    newsletter_subscribe(email="gone@example.com", language="ar")
    # then it awaits its owner's confirmation, in the language asked in
    subscriber = NewsletterSubscriber.objects.get(email="gone@example.com")
    assert (subscriber.status, subscriber.language) == ("pending", "ar")
    assert [m.subject.startswith("أكّد اشتراكك") for m in _mails("gone@example.com")] == [True]


@pytest.mark.parametrize("prefix, message", [("", "This link is not valid any more."),
                                             ("/ar", "هذا الرابط لم يعد صالحًا.")])
def test_an_unknown_confirmation_link_says_so(client, prefix, message):
    for response in (client.get(f"{prefix}/newsletter/confirm/bogus"),
                     client.post(f"{prefix}/newsletter/confirm/bogus")):
        assert response.status_code == 404
        assert message in response.content.decode()
    assert OutboundEmail.objects.count() == 0


@pytest.mark.parametrize("prefix, hint", [
    ("", "To subscribe, enter your e-mail address in the newsletter form below: we will send you a new link."),
    ("/ar", "للاشتراك، اكتب بريدك الإلكتروني في نموذج النشرة البريدية أدناه: سنرسل إليك رابطًا جديدًا.")])
def test_an_unknown_confirmation_link_says_how_to_subscribe_after_all(client, prefix, hint):
    # when a shopper opens a confirmation link that no longer leads anywhere
    page = client.get(f"{prefix}/newsletter/confirm/bogus").content.decode()
    # then the page says what to do instead of ending there, and takes them to the footer's form
    assert hint in page
    assert 'href="#newsletter-email"' in page and 'id="newsletter-email"' in page


def test_ticking_the_box_at_registration_asks_for_the_same_confirmation(client):
    response = client.post("/api/auth/register", {
        "firstName": "Sara", "lastName": "Adel", "email": "sara@example.com", "phone": "",
        "password": "a-Strong-pass-42", "subscribeNewsletter": True}, content_type="application/json")
    assert response.status_code in (200, 201), response.content
    assert NewsletterSubscriber.objects.get(email="sara@example.com").status == "pending"
    assert any(m.subject.startswith("Confirm your subscription") for m in _mails("sara@example.com"))


def test_an_old_unsubscribe_link_does_not_confirm_a_new_subscription(client):
    # given a former subscriber: the unsubscribe link of their newsletters (forwarded, shared, in an old
    # mailbox) is out in the world
    old = NewsletterSubscriber.objects.create(email="gone@example.com", is_active=False, confirmed_at=timezone.now())
    old_link = f"/newsletter/confirm/{old.unsubscribe_token}"
    # when someone holding it subscribes the address again and "confirms" with it
    newsletter_subscribe(email="gone@example.com", site_url="http://testserver")
    response = client.post(old_link)
    # then the address is not put back on the list: only the new confirmation mail's link does that
    assert response.status_code == 404
    subscriber = NewsletterSubscriber.objects.get(email="gone@example.com")
    assert subscriber.status == "pending"
    [confirmation] = _mails("gone@example.com")
    assert client.post(_confirm_path(confirmation)).status_code == 200
    subscriber.refresh_from_db()
    assert subscriber.status == "active"


@pytest.mark.parametrize("prefix, message", [("", "This link is not valid any more."),
                                             ("/ar", "هذا الرابط لم يعد صالحًا.")])
def test_a_confirmation_link_used_after_unsubscribing_does_not_say_subscribed(client, prefix, message):
    # given: an address that confirmed, then unsubscribed; its old confirmation mail still in the mailbox
    gone = NewsletterSubscriber.objects.create(email="gone@example.com", is_active=False,
                                               confirmed_at=timezone.now())
    # when: its owner (or anyone) presses the old link's button
    response = client.post(f"{prefix}/newsletter/confirm/{gone.unsubscribe_token}")
    # then: not "You are subscribed": it stays unsubscribed and the page says the link is spent
    gone.refresh_from_db()
    assert gone.status == "unsubscribed"
    assert response.status_code == 404 and message in response.content.decode()
    assert "You are subscribed" not in response.content.decode()


@pytest.mark.parametrize("prefix, hint", [
    ("", "If our e-mails still reach you, the unsubscribe link in the latest one works. Or"),
    ("/ar", "إذا كانت رسائلنا لا تزال تصلك، فرابط إلغاء الاشتراك في أحدثها يعمل. أو")])
def test_a_dead_unsubscribe_link_says_what_to_do_instead(client, prefix, hint):
    # when a shopper opens an unsubscribe link that leads nowhere (mangled by a mail app, or long spent)
    response = client.get(f"{prefix}/newsletter/unsubscribe/bogus")
    page = response.content.decode()
    # then it is still refused, but the page names a way off the list: the latest e-mail's link, or asking us
    assert response.status_code == 404
    assert hint in page
    assert re.search(rf'<p>{re.escape(hint)} <a href="{prefix}/contact">[^<]+</a>', page), page
