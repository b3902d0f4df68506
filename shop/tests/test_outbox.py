"""The outbox: one way to send, stored with its change, never in the request, retried until delivered."""

import re
import time
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.db import DatabaseError, transaction
from django.test import override_settings
from django.utils import timezone

from shop.mail import mail_queue
from shop.models import ContactMessage, OutboundEmail, OutboundEmailStatus
from shop.outbox import outbox_deliver, outbox_failed_list, outbox_prune, outbox_send_due, retry_wait
from shop.tasks import outbox_deliver_task
from shop.tests.smtp_server import SilentSmtpServer, SmtpServer
from tests.factories import make_message

pytestmark = pytest.mark.django_db


def _smtp(port, timeout=5):
    return override_settings(
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1", EMAIL_PORT=port, EMAIL_USE_TLS=False, EMAIL_USE_SSL=False,
        EMAIL_HOST_USER="", EMAIL_HOST_PASSWORD="", EMAIL_TIMEOUT=timeout,
    )


@pytest.fixture
def broker(monkeypatch):
    """A broker that takes every delivery task and runs none, like one no worker has reached yet."""
    taken = []
    monkeypatch.setattr(outbox_deliver_task, "apply_async", lambda args, **options: taken.append(args[0]))
    return taken


def _queue(**overrides):
    fields = {"to": "sara@example.com", "subject": "Your order", "text": "Hello", **overrides}
    return mail_queue(**fields)


# --- no request waits on the mail server ---------------------------------------

def _post_contact(client):
    return client.post("/api/contact", {"name": "Sara", "email": "sara@example.com", "subject": "Tea",
                                        "message": "Hello"}, content_type="application/json")


def _post_newsletter(client):
    return client.post("/api/newsletter", {"email": "sara@example.com"}, content_type="application/json")


def _post_reply(client):
    from accounts.models import Role, User

    staff = User.objects.create_user(username="agent", email="agent@staff.example", password="x",
                                     is_staff=True, role=Role.SUPPORT)
    client.force_login(staff)
    message = make_message()
    return client.post(f"/api/admin/messages/{message.pk}/reply", {"replyMessage": "Thanks"},
                       content_type="application/json")


@pytest.mark.django_db(transaction=True)  # real commits: on_commit work runs inside the request
@pytest.mark.parametrize("post", [_post_contact, _post_newsletter, _post_reply],
                         ids=["contact", "newsletter", "staff reply"])
def test_a_mail_server_that_never_answers_does_not_hold_up_the_request(client, broker, post):
    # given
    with SilentSmtpServer() as server, _smtp(server.port, timeout=4):
        # when
        started = time.monotonic()
        response = post(client)
        took = time.monotonic() - started

        # then: the answer came at once and the mail waits in the outbox for a worker
        assert response.status_code in (200, 201)
        assert took < 2
        email = OutboundEmail.objects.get()
        assert email.status == OutboundEmailStatus.QUEUED
        assert broker == [email.pk]

        # when: a worker tries, the server stays silent
        outbox_deliver(email_id=email.pk)

    # then: the worker gave up on this attempt and kept the mail for later
    email.refresh_from_db()
    assert (email.status, email.attempts) == (OutboundEmailStatus.QUEUED, 1)
    assert "timed out" in email.last_error


# --- retried until delivered, exactly once -------------------------------------

def test_a_refused_mail_is_retried_later_and_delivered_exactly_once(django_capture_on_commit_callbacks):
    # given: a mail server that turns the first connection away
    with SmtpServer(refuse_next=1) as server, _smtp(server.port):
        with django_capture_on_commit_callbacks(execute=True):
            email = _queue()
        email.refresh_from_db()
        assert (email.status, email.attempts, server.messages) == (OutboundEmailStatus.QUEUED, 1, [])
        assert "421" in email.last_error

        # when: the sweep runs before the retry is due, then after it
        early = outbox_send_due()
        with time_machine.travel(timezone.now() + retry_wait(1) + timedelta(seconds=1)):
            due = outbox_send_due()
            again = outbox_send_due()

    # then
    assert (early, due, again) == (0, 1, 0)
    assert len(server.messages) == 1
    assert server.messages[0]["message"]["Subject"] == "Your order"
    email.refresh_from_db()
    assert (email.status, email.attempts, email.last_error) == (OutboundEmailStatus.SENT, 2, "")


def test_an_address_the_mail_server_says_does_not_exist_is_given_up_at_once_and_others_still_go(broker):
    # given: a server that answers "no such user" (5xx: permanent) for one address and "busy" (4xx) for another
    refusals = {"gone@example.com": "550 5.1.1 no such user", "busy@example.com": "450 4.2.1 mailbox busy"}
    with SmtpServer(refuse_recipients=refusals) as server, _smtp(server.port):
        for to in ("gone@example.com", "busy@example.com", "sara@example.com"):
            _queue(to=to)
        # when
        sent = outbox_send_due()
    # then: no later attempt can reach the missing address, so it is failed now (listed for staff) instead of
    # being retried for hours and holding /healthz at "degraded"; the busy one is tried again; the third went
    assert sent == 1 and [m["to"] for m in server.messages] == [["sara@example.com"]]
    outcome = {e.to: (e.status, e.attempts) for e in OutboundEmail.objects.all()}
    assert outcome == {"gone@example.com": (OutboundEmailStatus.FAILED, 1),
                       "busy@example.com": (OutboundEmailStatus.QUEUED, 1),
                       "sara@example.com": (OutboundEmailStatus.SENT, 1)}
    assert "550" in OutboundEmail.objects.get(to="gone@example.com").last_error
    assert [e.to for e in outbox_failed_list()] == ["gone@example.com"]


def test_a_refused_mail_is_logged_without_the_recipients_address(broker, caplog):
    # logs go to log services and stay for months: the row's id finds the mail, the address is personal data
    refusals = {"gone@example.com": "550 5.1.1 no such user", "busy@example.com": "450 4.2.1 mailbox busy"}
    with SmtpServer(refuse_recipients=refusals) as server, _smtp(server.port):
        for to in refusals:
            _queue(to=to)
        with caplog.at_level("WARNING", logger="shop.outbox"):
            outbox_send_due()
    assert "given up" in caplog.text and "will retry" in caplog.text and "@example.com" in caplog.text
    assert "gone@" not in caplog.text and "busy@" not in caplog.text


def test_the_wait_between_retries_doubles_up_to_four_hours(settings):
    settings.EMAIL_RETRY_SECONDS = 60
    assert [retry_wait(n).total_seconds() for n in (1, 2, 3, 4)] == [60, 120, 240, 480]
    assert retry_wait(9) == timedelta(hours=4)
    assert retry_wait(500) == timedelta(hours=4)


def test_a_mail_one_worker_holds_is_not_sent_again_by_another(broker):
    # given: a worker claimed the mail and is talking to the server
    email = _queue()
    OutboundEmail.objects.filter(pk=email.pk).update(
        status=OutboundEmailStatus.SENDING, locked_until=timezone.now() + timedelta(minutes=5))
    # when
    sent = outbox_send_due() + outbox_deliver(email_id=email.pk)
    # then
    assert sent == 0 and mail.outbox == []


def test_a_mail_whose_worker_died_is_sent_once_its_claim_runs_out(broker):
    # given
    email = _queue()
    OutboundEmail.objects.filter(pk=email.pk).update(
        status=OutboundEmailStatus.SENDING, attempts=1, locked_until=timezone.now() - timedelta(seconds=1))
    # when
    sent = outbox_send_due()
    # then
    assert sent == 1 and len(mail.outbox) == 1
    email.refresh_from_db()
    assert (email.status, email.attempts) == (OutboundEmailStatus.SENT, 2)


def test_a_mail_is_given_up_after_the_attempt_limit(settings, broker):
    # given
    settings.EMAIL_MAX_ATTEMPTS = 3
    settings.EMAIL_BACKEND = "shop.tests.mail_backends.RefusingBackend"
    email = _queue()
    # when
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for _ in range(5):
            outbox_send_due()
            clock.shift(timedelta(hours=5))
    # then
    email.refresh_from_db()
    assert (email.status, email.attempts) == (OutboundEmailStatus.FAILED, 3)
    assert email.last_error.startswith("SMTPServerDisconnected")


def test_a_mail_whose_worker_dies_on_every_attempt_is_given_up_and_shown_as_failed(settings, broker):
    # given: the last allowed attempt's worker died while sending (killed, out of memory)
    settings.EMAIL_MAX_ATTEMPTS = 3
    email = _queue()
    OutboundEmail.objects.filter(pk=email.pk).update(
        status=OutboundEmailStatus.SENDING, attempts=3, locked_until=timezone.now() - timedelta(seconds=1))
    # when: sweeps run long after
    with time_machine.travel(timezone.now() + timedelta(hours=1)):
        sent = outbox_send_due() + outbox_send_due()
    # then: no fourth attempt, and staff see it among the failed mail
    email.refresh_from_db()
    assert sent == 0 and mail.outbox == []
    assert (email.status, email.attempts) == (OutboundEmailStatus.FAILED, 3)
    assert "worker stopped" in email.last_error
    assert [e.pk for e in outbox_failed_list()] == [email.pk]


# --- stored with the change that causes it --------------------------------------

def test_a_mail_queued_in_a_transaction_that_rolls_back_is_never_sent(django_capture_on_commit_callbacks):
    # when
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RuntimeError), transaction.atomic():
            _queue()
            raise RuntimeError("the change failed")
    # then
    assert callbacks == []
    assert not OutboundEmail.objects.exists()
    assert mail.outbox == []


def test_a_contact_message_and_its_notification_are_stored_together(client, broker):
    # when
    response = _post_contact(client)
    # then
    assert response.status_code == 201
    message = ContactMessage.objects.get()
    email = OutboundEmail.objects.get()
    assert (email.to, email.subject, email.reply_to) == ("hello@nilehighlandstea.example", "[Nile Highlands Tea] Tea",
                                                          "sara@example.com")
    assert message.language == "en"


# --- jobs that cannot be queued are not lost -------------------------------------

def test_mail_whose_task_cannot_be_queued_is_sent_by_the_sweep_command(client, monkeypatch,
                                                                        django_capture_on_commit_callbacks):
    # given: the broker is down
    def broker_down(*args, **kwargs):
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(outbox_deliver_task, "apply_async", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        response = _post_newsletter(client)
    assert response.status_code == 201
    assert OutboundEmail.objects.get().status == OutboundEmailStatus.QUEUED and mail.outbox == []
    # when
    call_command("send_queued_mail", stdout=open("/dev/null", "w"))
    # then
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "Confirm your subscription to the Nile Highlands Tea newsletter"


def test_beat_sweeps_the_outbox_every_minute():
    from shop.celery import app

    entry = app.conf.beat_schedule["outbox-send-due"]
    assert (entry["task"], entry["schedule"]) == ("shop.tasks.outbox_send_due_task", 60.0)


# --- headers ---------------------------------------------------------------------

@pytest.mark.parametrize("to", ["sara@example.com\r\nBcc: x@evil.example", "not an address", ""])
def test_it_refuses_a_recipient_that_is_not_one_clean_address(to):
    with pytest.raises(ValueError):
        _queue(to=to)


def test_a_stored_subject_with_line_breaks_cannot_add_headers(broker):
    email = _queue(subject="Tea\r\nBcc: x@evil.example")
    assert email.subject == "Tea Bcc: x@evil.example"


def test_the_contact_form_refuses_a_subject_with_a_line_break(client):
    response = client.post("/api/contact", {"name": "Sara", "email": "sara@example.com",
                                            "subject": "Hi\r\nBcc: x@evil.example", "message": "Hello"},
                           content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "subject"
    assert not ContactMessage.objects.exists() and not OutboundEmail.objects.exists()


def test_the_store_name_cannot_carry_a_line_break(client, owner):
    client.force_login(owner)
    response = client.put("/api/admin/settings", {"storeName": "Tea\r\nBcc: x@evil.example"},
                          content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "storeName"


# --- one way to send ---------------------------------------------------------------

def test_no_code_but_the_outbox_talks_to_the_mail_server():
    root = Path(__file__).resolve().parents[2]
    senders = ("send_mail", "send_mass_mail", "EmailMessage", "EmailMultiAlternatives", "mail_admins",
               "get_connection")
    offenders = []
    for path in root.rglob("*.py"):
        relative = path.relative_to(root)
        if relative.parts[0] in (".venv", "node_modules", "var") or "tests" in relative.parts:
            continue
        text = path.read_text(encoding="utf-8")
        if any(re.search(rf"\b{name}\b", text) for name in senders):  # whole names (not _get_connection_pool)
            offenders.append(str(relative))
    assert offenders == ["shop/outbox.py"]


# --- a dead mail server does not hold the worker ------------------------------------

def test_a_sweep_stops_at_the_first_sign_the_mail_server_is_down(settings, broker):
    # given
    settings.EMAIL_BACKEND = "shop.tests.mail_backends.RefusingBackend"
    for n in range(3):
        _queue(subject=f"mail {n}")
    # when
    outbox_send_due()
    # then: one attempt told the sweep enough; the others wait, untouched, for the next sweep
    assert sorted(OutboundEmail.objects.values_list("attempts", flat=True)) == [0, 0, 1]


def test_a_sweep_goes_on_after_a_server_refuses_one_recipient(settings, broker):
    # given
    settings.EMAIL_BACKEND = "shop.tests.mail_backends.RecipientRefusingBackend"
    for n in range(3):
        _queue(subject=f"mail {n}")
    # when
    outbox_send_due()
    # then
    assert list(OutboundEmail.objects.values_list("attempts", flat=True)) == [1, 1, 1]


def test_a_sweep_hands_its_worker_back_when_its_time_is_up(broker):
    # given
    for n in range(3):
        _queue(subject=f"mail {n}")
    # when
    sent = outbox_send_due(budget=timedelta(microseconds=1))
    # then
    assert sent == 1 and OutboundEmail.objects.filter(status=OutboundEmailStatus.QUEUED).count() == 2


def test_a_mail_server_that_trickles_its_greeting_is_given_up_at_the_deadline_and_the_mail_kept(broker,
                                                                                               monkeypatch):
    # given two mails, and a server greeting a byte every 0.1 s (each well within EMAIL_TIMEOUT, which bounds
    # only each wait for bytes; the greeting alone some 3 s) where the deadline for a mail is 1 s
    from shop.tests.trickle_server import SMTP_GREETING, TrickleServer

    monkeypatch.setattr("shop.outbox.SEND_DEADLINE", 1)
    for n in range(2):
        _queue(subject=f"mail {n}")
    with TrickleServer(SMTP_GREETING, reads_first=False) as server, _smtp(server.port, timeout=1):
        # when the sweep runs
        started = time.monotonic()
        sent = outbox_send_due()
        waited = time.monotonic() - started
    # then it gave up on the first at the deadline and stopped there (the server counts as down): both mails
    # wait in the outbox for a later sweep, and the worker is free again
    assert sent == 0 and waited < 1 + 0.6
    assert sorted(OutboundEmail.objects.values_list("status", "attempts")) == [
        (OutboundEmailStatus.QUEUED, 0), (OutboundEmailStatus.QUEUED, 1)]
    assert "DeadlinePassed" in OutboundEmail.objects.get(attempts=1).last_error


def test_a_mail_given_up_at_the_deadline_is_hung_up_on_rather_than_left_to_finish(broker, monkeypatch):
    # given a server that takes the mail and trickles its "250 queued" a byte every 0.2 s (some 3 s), where the
    # deadline for a mail is 1 s
    monkeypatch.setattr("shop.outbox.SEND_DEADLINE", 1)
    email = _queue(subject="Your order")
    with SmtpServer(data_reply_every=0.2) as server, _smtp(server.port, timeout=1):
        # when a worker sends it
        started = time.monotonic()
        outbox_deliver(email_id=email.pk)
        waited = time.monotonic() - started
        # then it gave up at the deadline and hung up: the attempt left behind does not go on to finish, the
        # mail taken after all while the outbox keeps it for a retry
        assert waited < 1 + 0.6
        assert server.hung_up.wait(2), "the attempt given up still holds the connection"
    email.refresh_from_db()
    assert (email.status, email.attempts) == (OutboundEmailStatus.QUEUED, 1)


def test_sent_mail_is_forgotten_after_thirty_days_and_failed_mail_is_kept():
    # given
    old = timezone.now() - timedelta(days=31)
    OutboundEmail.objects.create(to="a@example.com", subject="old", text="x", status="sent", sent_at=old)
    OutboundEmail.objects.create(to="a@example.com", subject="recent", text="x", status="sent",
                                 sent_at=timezone.now() - timedelta(days=29))
    OutboundEmail.objects.create(to="a@example.com", subject="failed", text="x", status="failed")
    # when
    deleted = outbox_prune()
    # then
    assert deleted == 1
    assert sorted(OutboundEmail.objects.values_list("subject", flat=True)) == ["failed", "recent"]


def test_a_database_blip_in_the_worker_loses_no_mail(broker, monkeypatch, django_capture_on_commit_callbacks):
    # given: a queued e-mail whose delivery job dies on the database in the worker
    import shop.tasks

    def blip(**kwargs):
        raise DatabaseError("server closed the connection unexpectedly")

    with django_capture_on_commit_callbacks(execute=True):
        email = _queue()
    monkeypatch.setattr(shop.tasks, "outbox_deliver", blip)
    with pytest.raises(DatabaseError):
        outbox_deliver_task(*broker)
    assert mail.outbox == []
    # when: the database is back and beat sweeps
    monkeypatch.undo()
    sent = outbox_send_due()
    # then
    assert sent == 1 and len(mail.outbox) == 1
    email.refresh_from_db()
    assert email.status == OutboundEmailStatus.SENT
