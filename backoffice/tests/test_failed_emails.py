"""Failed e-mails on the overview: counted and listed for the Owner and the Manager, resent on request."""

import pytest
from django.core import mail
from django.utils import timezone

from backoffice.models import AuditEntry
from shop.models import OutboundEmail, OutboundEmailStatus

pytestmark = pytest.mark.django_db


def _failed(**fields):
    return OutboundEmail.objects.create(**{
        "to": "mona@example.com", "subject": "Your order NHT-1 was cancelled", "text": "Hello",
        "status": OutboundEmailStatus.FAILED, "attempts": 10, "last_attempt_at": timezone.now(),
        "last_error": "SMTPRecipientsRefused: 550 mailbox unavailable", **fields,
    })


@pytest.mark.parametrize("persona", ["owner", "manager"])
def test_the_owner_and_the_manager_see_failed_e_mails_on_the_overview(request, client, persona):
    # given
    email = _failed()
    OutboundEmail.objects.create(to="a@example.com", subject="sent", text="x", status=OutboundEmailStatus.SENT)
    OutboundEmail.objects.create(to="b@example.com", subject="waiting", text="x")
    client.force_login(request.getfixturevalue(persona))
    # when
    data = client.get("/api/admin/dashboard").json()
    # then
    assert data["failedEmails"] == 1
    assert [(e["id"], e["to"], e["subject"], e["lastError"], e["attempts"]) for e in data["failedEmailList"]] == [
        (email.pk, "mona@example.com", "Your order NHT-1 was cancelled",
         "SMTPRecipientsRefused: 550 mailbox unavailable", 10),
    ]


@pytest.mark.parametrize("persona", ["head_support", "support"])
def test_roles_without_the_settings_right_do_not_see_failed_e_mails(request, client, persona):
    # given
    _failed()
    client.force_login(request.getfixturevalue(persona))
    # when
    response = client.get("/api/admin/dashboard")
    # then
    assert response.status_code == 200
    assert "failedEmails" not in response.json() and "failedEmailList" not in response.json()
    assert "mona@example.com" not in response.content.decode()


def test_the_owner_sends_a_failed_e_mail_again(client, owner, django_capture_on_commit_callbacks):
    # given
    email = _failed()
    client.force_login(owner)
    # when
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/admin/emails/{email.pk}/retry")
    # then
    assert response.status_code == 200
    email.refresh_from_db()
    assert (email.status, email.attempts) == (OutboundEmailStatus.SENT, 1)
    assert [m.subject for m in mail.outbox] == ["Your order NHT-1 was cancelled"]
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.actor) == ("email.retry", owner)
    assert client.get("/api/admin/dashboard").json()["failedEmails"] == 0


@pytest.mark.parametrize("persona,status", [("anonymous", 401), ("support", 403), ("head_support", 403)])
def test_other_roles_cannot_resend(request, client, persona, status):
    # given
    email = _failed()
    if persona != "anonymous":
        client.force_login(request.getfixturevalue(persona))
    # when
    response = client.post(f"/api/admin/emails/{email.pk}/retry")
    # then
    assert response.status_code == status
    email.refresh_from_db()
    assert email.status == OutboundEmailStatus.FAILED


def test_only_a_failed_e_mail_can_be_resent(client, owner):
    # given
    sent = OutboundEmail.objects.create(to="a@example.com", subject="sent", text="x", status=OutboundEmailStatus.SENT)
    client.force_login(owner)
    # when
    response = client.post(f"/api/admin/emails/{sent.pk}/retry")
    # then
    assert response.status_code == 404
    assert mail.outbox == []


def test_staff_read_why_the_outbox_gave_up_in_their_language(client, owner):
    # given an e-mail the outbox gave up on because its worker kept dying, and one the mail server refused
    from shop.outbox import LAPSED_ERROR

    _failed(last_error=LAPSED_ERROR)
    _failed()
    client.force_login(owner)
    # when
    arabic = client.get("/api/admin/dashboard", HTTP_ACCEPT_LANGUAGE="ar").json()["failedEmailList"]
    # then the shop's own reason reads in Arabic; the mail server's words are left as they are, with no reason
    assert sorted((e["reason"], e["lastError"]) for e in arabic) == [
        ("", "SMTPRecipientsRefused: 550 mailbox unavailable"),
        ("توقّف عامل الخلفية أثناء الإرسال في كل محاولة (أُوقف، أو نفدت الذاكرة، أو تجاوز المهلة).", LAPSED_ERROR),
    ]
