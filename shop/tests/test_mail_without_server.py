"""A shop running in production with no mail server set (EMAIL_HOST empty) writes no e-mail into its logs
(before, Django's console backend printed each whole mail: names, addresses, password-reset links): every
mail waits in the outbox, unsent, with the reason staff and `manage.py doctor` read, and goes once the
server is set. With DEBUG on (a developer's machine) the console backend still shows them."""

import logging
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.core.mail import mail_admins
from django.utils import timezone

from shop.mail import mail_queue, mail_retry
from shop.models import OutboundEmailStatus
from shop.outbox import outbox_failed_list, outbox_send_due
from shop.tests.test_config import _manage

NO_SERVER = "shop.mail_backends.NoMailServerBackend"
RESET_LINK = "https://shop.example/reset/MQ/secret-token-abc123/"


def _backend(tmp_path, **env):
    result = _manage("shell", "-v", "0", "-c", "from django.conf import settings; print(settings.EMAIL_BACKEND)",
                     DATA_DIR=str(tmp_path), **{"EMAIL_HOST": "", **env})
    return result.stdout.strip() or result.stderr.strip()


def test_with_no_mail_server_production_keeps_mail_and_a_developer_still_sees_it(tmp_path):
    assert _backend(tmp_path, DEBUG="0") == NO_SERVER
    assert _backend(tmp_path, DEBUG="1") == "django.core.mail.backends.console.EmailBackend"
    assert _backend(tmp_path, DEBUG="0", EMAIL_HOST="smtp.example.com") == (
        "django.core.mail.backends.smtp.EmailBackend")


@pytest.mark.django_db
def test_a_mail_with_no_server_waits_in_the_outbox_and_nothing_of_it_reaches_the_logs(
        settings, caplog, capsys, django_capture_on_commit_callbacks):
    # given a shop in production with no mail server, and a password-reset mail to send
    settings.EMAIL_BACKEND = NO_SERVER
    settings.EMAIL_MAX_ATTEMPTS = 3
    with caplog.at_level(logging.DEBUG), time_machine.travel(timezone.now(), tick=False) as clock:
        with django_capture_on_commit_callbacks(execute=True):  # the worker's delivery right after the commit
            email = mail_queue(to="sara@example.com", subject="Reset your password at Nile Highlands Tea",
                               text=f"Hello Sara Adel,\n\n12 Nile St, Dokki\n{RESET_LINK}\n")
        # when the worker and the sweeps try it, every attempt it has
        for _ in range(4):
            clock.shift(timedelta(hours=5))
            outbox_send_due()
    # then it was never sent, and neither the logs nor the process's output hold any of it
    output = capsys.readouterr()
    written = "\n".join([output.out, output.err, *(record.getMessage() for record in caplog.records)])
    for secret in (RESET_LINK, "secret-token", "Sara Adel", "Nile St", "sara@example.com", "Reset your password"):
        assert secret not in written
    assert mail.outbox == []
    # and it is kept, given up, with the reason staff see on the dashboard's list of failed mail
    email.refresh_from_db()
    assert (email.status, email.attempts) == (OutboundEmailStatus.FAILED, 3)
    assert email.text.endswith(f"{RESET_LINK}\n")
    failed, = outbox_failed_list()
    assert failed.pk == email.pk and "EMAIL_HOST" in failed.last_error and "not sent" in failed.last_error
    # when the mail server is set, then staff's "send again" delivers it
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    with django_capture_on_commit_callbacks(execute=True):
        mail_retry(email=email)
    email.refresh_from_db()
    assert email.status == OutboundEmailStatus.SENT and [m.to for m in mail.outbox] == [["sara@example.com"]]


def test_an_error_report_to_the_admins_with_no_server_fails_quietly_as_asked(settings, capsys):
    # Django's own error mail (AdminEmailHandler) asks its backend to fail silently
    settings.EMAIL_BACKEND, settings.ADMINS = NO_SERVER, [("Owner", "owner@shop.example")]
    mail_admins("Server error", "Traceback with a customer's address", fail_silently=True)
    assert "customer's address" not in capsys.readouterr().out
    with pytest.raises(Exception, match="EMAIL_HOST"):
        mail_admins("Server error", "Traceback", fail_silently=False)
