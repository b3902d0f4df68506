"""Messages (contact messages and replies) and reviews moderation sections of the admin API."""

import pytest
from django.core import mail

from backoffice.models import AuditEntry
from catalog.models import Review
from catalog.services import review_set_approved
from shop.models import OutboundEmail
from tests.factories import make_message, make_product, make_review

pytestmark = pytest.mark.django_db


# --- messages -----------------------------------------------------------------

def test_it_lists_messages_by_status_with_counts(client, support):
    # given
    new = make_message(status="new")
    make_message(status="closed")
    client.force_login(support)
    # when
    body = client.get("/api/admin/contact-messages", {"status": "new"}).json()
    # then
    assert [m["id"] for m in body["results"]] == [new.pk]
    assert body["statusCounts"] == {"new": 1, "read": 0, "replied": 0, "closed": 1}
    assert client.get("/api/admin/contact-messages", {"status": "unread"}).status_code == 400


def test_it_searches_messages(client, support):
    # given
    make_message(subject="Gift wrapping", email="gift@example.com")
    make_message(subject="Refund")
    client.force_login(support)
    # when
    body = client.get("/api/admin/contact-messages", {"search": "gift"}).json()
    # then
    assert [m["subject"] for m in body["results"]] == ["Gift wrapping"]


def test_head_support_marks_a_message_read(client, head_support):
    # given
    message = make_message()
    client.force_login(head_support)
    # when
    response = client.put(f"/api/admin/contact-messages/{message.pk}", {"status": "read"},
                          content_type="application/json")
    # then
    assert response.json()["status"] == "read"
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.details) == ("message.status", "sara@example.com: new → read")


def test_a_reply_emails_the_sender_and_marks_the_message_replied(client, support,
                                                                 django_capture_on_commit_callbacks):
    # given
    message = make_message(subject="Where is my tea?")
    client.force_login(support)
    # when
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/admin/messages/{message.pk}/reply",
                               {"replyMessage": "  It ships tomorrow.  "}, content_type="application/json")
    # then
    assert response.status_code == 200
    assert response.json()["status"] == "replied"
    assert response.json()["replyMessage"] == "It ships tomorrow."
    sent = mail.outbox[0]
    assert sent.to == ["sara@example.com"]
    assert sent.subject == "Re: Where is my tea?"
    assert sent.body.startswith("It ships tomorrow.")
    assert "> \u2068my order has not arrived.\u2069" in sent.body  # quoted words isolated (issue 13)
    assert AuditEntry.objects.get().action == "message.reply"


def test_an_empty_reply_is_refused(client, support):
    # given
    message = make_message()
    client.force_login(support)
    # when
    response = client.post(f"/api/admin/messages/{message.pk}/reply", {"replyMessage": "   "},
                           content_type="application/json")
    # then
    assert response.status_code == 400
    assert response.json()["message"] == "Please enter a reply message"
    assert response.json()["field"] == "replyMessage"
    assert mail.outbox == []


def test_a_reply_the_mail_server_refuses_is_saved_and_stays_queued_for_a_retry(
        client, support, settings, django_capture_on_commit_callbacks):
    # given
    settings.EMAIL_BACKEND = "shop.tests.mail_backends.RefusingBackend"
    message = make_message(status="read")
    client.force_login(support)
    # when
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/admin/messages/{message.pk}/reply", {"replyMessage": "Hi"},
                               content_type="application/json")
    # then
    assert response.status_code == 200
    message.refresh_from_db()
    assert (message.status, message.reply_message) == ("replied", "Hi")
    queued = OutboundEmail.objects.get()
    assert (queued.to, queued.status, queued.attempts) == ("sara@example.com", "queued", 1)
    assert "SMTPServerDisconnected" in queued.last_error
    assert AuditEntry.objects.get().action == "message.reply"


@pytest.mark.parametrize("written_in,subject,heading", [
    ("ar", "رد: \u2068Where is my tea?\u2069", "رسالتك:"),
    ("en", "Re: Where is my tea?", "Your message:"),
])
def test_a_reply_goes_out_in_the_language_the_customer_wrote_in_not_the_staff_members(
        client, support, written_in, subject, heading, django_capture_on_commit_callbacks):
    # given
    message = make_message()
    message.language = written_in
    message.save()
    client.force_login(support)
    staff_language = "en" if written_in == "ar" else "ar"
    # when
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/api/admin/messages/{message.pk}/reply", {"replyMessage": "Thanks"},
                    content_type="application/json", HTTP_ACCEPT_LANGUAGE=staff_language)
    # then
    sent = mail.outbox[0]
    assert sent.subject == subject
    assert heading in sent.body
    assert sent.extra_headers["Content-Language"] == written_in


def test_a_reply_to_an_older_message_uses_the_customers_account_language(client, support, alice,
                                                                         django_capture_on_commit_callbacks):
    # given: a message stored before its language was, from a customer who shops in Arabic
    alice.language = "ar"
    alice.save()
    message = make_message(email="Alice@Example.com")
    assert message.language == ""
    client.force_login(support)
    # when
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/api/admin/messages/{message.pk}/reply", {"replyMessage": "Thanks"},
                    content_type="application/json")
    # then
    # the English subject is isolated, so its "?" stays at its end inside the Arabic subject (issue 13)
    assert mail.outbox[0].subject == "رد: \u2068Where is my tea?\u2069"


# --- reviews ------------------------------------------------------------------

def test_it_lists_reviews_by_status_and_search(client, support):
    # given
    product = make_product(title="Kericho Gold")
    pending = make_review(product=product, title="Malty")
    make_review(product=product, title="Smooth", approved=True)
    make_review(title="Grassy")
    client.force_login(support)
    # when
    pending_only = client.get("/api/reviews/admin", {"status": "pending"}).json()
    searched = client.get("/api/reviews/admin", {"search": "kericho", "status": "pending"}).json()
    # then
    assert {r["title"] for r in pending_only["results"]} == {"Malty", "Grassy"}
    assert [r["id"] for r in searched["results"]] == [pending.pk]
    assert searched["results"][0]["productTitle"] == "Kericho Gold"
    assert pending_only["statusCounts"] == {"pending": 2, "approved": 1, "rejected": 0}


def test_approving_a_review_updates_the_product_rating(client, head_support):
    # given
    product = make_product()
    review = make_review(product=product, rating=4)
    client.force_login(head_support)
    # when
    response = client.put(f"/api/reviews/admin/{review.pk}/approve", {"isApproved": True},
                          content_type="application/json")
    # then
    assert response.json()["isApproved"] is True
    product.refresh_from_db()
    assert (product.review_count, str(product.rating)) == (1, "4.00")
    assert AuditEntry.objects.get().action == "review.approve"


def test_unapproving_sends_a_review_back_to_pending(client, manager):
    # given
    product = make_product()
    review = make_review(product=product, approved=True)
    client.force_login(manager)
    # when
    client.put(f"/api/reviews/admin/{review.pk}/approve", {"isApproved": False}, content_type="application/json")
    # then
    review.refresh_from_db()
    assert review.status == "pending"
    assert AuditEntry.objects.get().action == "review.pending"


def test_support_may_respond_to_a_review(client, support):
    # given
    review = make_review()
    client.force_login(support)
    # when
    response = client.put(f"/api/reviews/admin/{review.pk}/response", {"adminResponse": "Thank you, Alice!"},
                          content_type="application/json")
    # then
    assert response.json()["adminResponse"] == "Thank you, Alice!"
    assert AuditEntry.objects.get().action == "review.respond"


def test_an_empty_response_is_refused(client, support):
    # given
    review = make_review()
    client.force_login(support)
    # when
    response = client.put(f"/api/reviews/admin/{review.pk}/response", {"adminResponse": "  "},
                          content_type="application/json")
    # then
    assert response.status_code == 400
    assert response.json()["message"] == "Response cannot be empty"
    assert not AuditEntry.objects.exists()


def test_deleting_a_review_recounts_the_product(client, manager):
    # given
    product = make_product()
    review = review_set_approved(review=make_review(product=product), approved=True)
    product.refresh_from_db()
    assert product.review_count == 1
    client.force_login(manager)
    # when
    response = client.delete(f"/api/reviews/admin/{review.pk}")
    # then
    assert response.status_code == 204
    assert not Review.objects.exists()
    product.refresh_from_db()
    assert product.review_count == 0
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.target_id) == ("review.delete", str(review.pk))


def test_rejecting_keeps_the_review_as_rejected_and_hides_it(client, head_support):
    # given
    product = make_product()
    review = review_set_approved(review=make_review(product=product, rating=2), approved=True)
    client.force_login(head_support)
    # when
    response = client.put(f"/api/reviews/admin/{review.pk}/reject", content_type="application/json")
    # then
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["isApproved"]) == ("rejected", False)
    review.refresh_from_db()
    assert review.status == "rejected"
    product.refresh_from_db()
    assert product.review_count == 0
    listed = client.get("/api/reviews/admin", {"status": "rejected"}).json()
    assert [r["id"] for r in listed["results"]] == [review.pk]
    assert listed["statusCounts"] == {"pending": 0, "approved": 0, "rejected": 1}
    assert client.get("/api/reviews/admin", {"status": "pending"}).json()["count"] == 0
    assert AuditEntry.objects.filter(action="review.reject").count() == 1


def test_approving_a_rejected_review_clears_the_rejection(client, head_support):
    # given
    review = make_review()
    client.force_login(head_support)
    client.put(f"/api/reviews/admin/{review.pk}/reject", content_type="application/json")
    # when
    response = client.put(f"/api/reviews/admin/{review.pk}/approve", {"isApproved": True},
                          content_type="application/json")
    # then
    assert response.json()["status"] == "approved"


def test_support_may_not_reject_a_review(client, support):
    # given
    review = make_review()
    client.force_login(support)
    # when
    response = client.put(f"/api/reviews/admin/{review.pk}/reject", content_type="application/json")
    # then
    assert response.status_code == 403
    review.refresh_from_db()
    assert review.status == "pending"
