"""manage.py doctor (issue 17): a production-ready shop passes; each misconfiguration is named and fails."""

from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.core.management import call_command
from django.utils import timezone

from shop.models import Heartbeat, OutboundEmail, OutboundWhatsApp

pytestmark = pytest.mark.django_db


@pytest.fixture
def production(settings, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "k" * 10 + "a-long-random-production-secret-0123456789")
    settings.SECRET_KEY = "k" * 10 + "a-long-random-production-secret-0123456789"
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["shop.example"]
    settings.SITE_URL = "https://shop.example"
    settings.CSRF_TRUSTED_ORIGINS = ["https://shop.example"]
    settings.SESSION_COOKIE_SECURE = True
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_SSL_REDIRECT = True
    settings.TRUSTED_PROXY_COUNT = 1
    settings.IMPORTER_ALLOW_PRIVATE_HOSTS, settings.AXES_ENABLED, settings.CELERY_TASK_ALWAYS_EAGER = False, True, False
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST_USER, settings.EMAIL_USE_TLS, settings.EMAIL_USE_SSL = "shop@shop.example", True, False
    settings.DEFAULT_FROM_EMAIL = "Nile Highlands Tea <shop@shop.example>"
    settings.PAYMENT_PROVIDER = "paymob"
    settings.PAYMENT_SANDBOX = False
    settings.PAYMOB_SECRET_KEY = "egy_sk_live_abc"
    settings.PAYMOB_PUBLIC_KEY = "egy_pk_live_abc"
    settings.PAYMOB_HMAC_SECRET = "hmac"
    settings.PAYMOB_INTEGRATION_IDS = ["12345"]
    settings.PAYMOB_API_KEY = "ZXlKaGJHY2lPaUpJVXpVeE1pSXNJblI1Y0NJNklrcFhWQ0o5"
    settings.PAYMOB_BASE_URL = "https://accept.paymob.com"
    settings.WHATSAPP_BACKEND = "cloud"
    settings.WHATSAPP_PHONE_NUMBER_ID = "1234567890"
    settings.WHATSAPP_ACCESS_TOKEN = "EAAG-token"
    settings.SENTRY_DSN = "https://key@errors.example/1"
    Heartbeat.objects.create(name="backup", seen_at=timezone.now() - timedelta(hours=3))
    Heartbeat.objects.create(name="worker")
    with mock.patch("shop.health.broker_ok", return_value=True):
        yield settings


def _doctor(capsys):
    try:
        call_command("doctor")
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    return code, capsys.readouterr().out


def test_a_production_ready_shop_passes(production, capsys):
    code, out = _doctor(capsys)
    assert code == 0, out
    assert "Nothing wrong found." in out and "PROBLEM" not in out


@pytest.mark.parametrize("change, topic, words", [
    ({"DEBUG": True}, "debug", "DEBUG is on"),
    ({"SECRET_KEY": "django-insecure-abcdefghijklmnopqrstuvwxyz0123456789"}, "secret key", "weak"),
    # what Django's own `check --deploy` calls too short (security.W009)
    ({"SECRET_KEY": "Zx8-q2LmN0pR7sT4vW9yB3cE6gH1jK5nQ8u"}, "secret key", "weak"),
    ({"ALLOWED_HOSTS": ["*"]}, "allowed hosts", "'*'"),
    ({"ALLOWED_HOSTS": ["localhost", "127.0.0.1"]}, "allowed hosts", "only has local"),
    ({"SITE_URL": "http://shop.example"}, "https", "use https://"),
    ({"SESSION_COOKIE_SECURE": False}, "https", "SESSION_COOKIE_SECURE"),
    ({"SECURE_HSTS_SECONDS": 0}, "https", "SECURE_HSTS_SECONDS"),
    ({"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}, "e-mail", "console backend"),
    # the console backend writes whole messages to the worker's output: reset links open accounts
    ({"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}, "e-mail", "password-reset links"),
    # production with no mail server: mail waits in the outbox, unsent, and none of it is logged
    ({"EMAIL_BACKEND": "shop.mail_backends.NoMailServerBackend"}, "e-mail", "EMAIL_HOST is empty"),
    ({"EMAIL_BACKEND": "shop.mail_backends.NoMailServerBackend"}, "e-mail", "waits in the outbox"),
    # the mail account's password would cross the network readable
    ({"EMAIL_USE_TLS": False}, "e-mail", "EMAIL_USE_TLS"),
    ({"PAYMENT_PROVIDER": "sandbox"}, "payments", "sandbox"),
    ({"PAYMENT_SANDBOX": True}, "payments", "PAYMENT_SANDBOX is on"),
    ({"PAYMOB_SECRET_KEY": "egy_sk_test_abc"}, "payments", "test key"),
    ({"PAYMOB_HMAC_SECRET": ""}, "payments", "PAYMOB_HMAC_SECRET"),
    # without it a payment whose callback is lost is never asked about: the order expires unpaid
    ({"PAYMOB_API_KEY": ""}, "payments", "PAYMOB_API_KEY"),
    ({"PAYMOB_PUBLIC_KEY": "egy_pk_test_abc"}, "payments", "PAYMOB_PUBLIC_KEY is a test key"),
    ({"PAYMOB_BASE_URL": "http://accept.paymob.com"}, "payments", "https://"),
    # payment returns and every e-mail link would answer 400 Bad Request
    ({"SITE_URL": "https://www.shop.example"}, "https", "not in ALLOWED_HOSTS"),
    ({"SITE_URL": ""}, "https", "SITE_URL is not set"),
    ({"WHATSAPP_BACKEND": "cloud", "WHATSAPP_ACCESS_TOKEN": ""}, "WhatsApp", "WHATSAPP_ACCESS_TOKEN"),
    # switches meant for tests and trials, left on in production
    ({"IMPORTER_ALLOW_PRIVATE_HOSTS": True}, "importer", "IMPORTER_ALLOW_PRIVATE_HOSTS"),
    ({"AXES_ENABLED": False}, "sign-in", "AXES_ENABLED"),
    ({"CELERY_TASK_ALWAYS_EAGER": True}, "jobs", "CELERY_TASK_ALWAYS_EAGER"),
    # https comes through a proxy: every shopper would share its address, and so one checkout limit
    # (20 an hour for the whole shop) and one sign-in lockout per account
    ({"TRUSTED_PROXY_COUNT": 0}, "proxy", "TRUSTED_PROXY_COUNT is 0"),
])
def test_each_misconfiguration_is_named_and_fails(production, capsys, change, topic, words):
    # given
    for name, value in change.items():
        setattr(production, name, value)
    # when
    code, out = _doctor(capsys)
    # then
    assert code == 1
    problem = next(line for line in out.splitlines() if line.startswith("PROBLEM") and f" {topic}:" in line)
    assert words in problem


def test_backups_not_run_recently_fail(production, capsys):
    Heartbeat.objects.filter(name="backup").update(seen_at=timezone.now() - timedelta(days=5))
    code, out = _doctor(capsys)
    assert code == 1 and "The last backup is 5 days old" in out


def test_no_backup_at_all_fails(production, capsys):
    Heartbeat.objects.filter(name="backup").delete()
    code, out = _doctor(capsys)
    assert code == 1 and "No backup has been made" in out


def test_a_dead_worker_fails(production, capsys):
    Heartbeat.objects.filter(name="worker").update(seen_at=timezone.now() - timedelta(minutes=30))
    code, out = _doctor(capsys)
    assert code == 1 and "No worker heartbeat" in out


def test_mail_the_server_has_not_taken_fails(production, capsys):
    # given: a mail waiting its retries for an hour (the mail server refuses, or its password changed)
    waiting = OutboundEmail.objects.create(to="sara@example.com", subject="Your order", text="x", attempts=5,
                                           last_error="SMTPAuthenticationError: (535, b'bad credentials')")
    OutboundEmail.objects.filter(pk=waiting.pk).update(created_at=timezone.now() - timedelta(hours=1))
    # when
    code, out = _doctor(capsys)
    # then
    problem = next(line for line in out.splitlines() if line.startswith("PROBLEM") and " e-mail:" in line)
    assert code == 1 and "1 e-mail has waited" in problem and "SMTPAuthenticationError" in problem


def test_given_up_mail_is_named(production, capsys):
    OutboundEmail.objects.create(to="sara@example.com", subject="Your order", text="x", status="failed")
    code, out = _doctor(capsys)
    assert code == 0 and "1 e-mail was given up" in out


def test_whatsapp_messages_not_taken_fail_like_mail(production, capsys):
    # given: an order update waiting its retries for an hour (the Cloud API token expired)
    waiting = OutboundWhatsApp.objects.create(to="201012345678", text="Your order is on its way.", attempts=4,
                                              last_error="HTTP 401: token expired")
    OutboundWhatsApp.objects.filter(pk=waiting.pk).update(created_at=timezone.now() - timedelta(hours=1))
    # when
    code, out = _doctor(capsys)
    # then
    problem = next(line for line in out.splitlines() if line.startswith("PROBLEM") and " WhatsApp:" in line)
    assert code == 1 and "1 WhatsApp message has waited more than 15 minutes" in problem
    assert "HTTP 401: token expired" in problem and "e-mail" not in problem


def test_given_up_whatsapp_messages_are_named(production, capsys):
    OutboundWhatsApp.objects.create(to="201012345678", text="x", status="failed")
    OutboundWhatsApp.objects.create(to="201012345679", text="y", status="failed")
    code, out = _doctor(capsys)
    assert code == 0 and "2 WhatsApp messages were given up" in out


@pytest.mark.parametrize("name", ["MEDIA_ROOT", "DATA_DIR"])
def test_a_folder_the_shop_cannot_write_fails(production, capsys, tmp_path, name):
    # uploads, the cache, the job queue and backups would fail only when first used; a path under a file
    # stands for a read-only mount or a wrong owner (the tests run as root, which may write anywhere)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    setattr(production, name, blocker / "sub")
    code, out = _doctor(capsys)
    problem = next(line for line in out.splitlines() if line.startswith("PROBLEM") and " folders:" in line)
    assert code == 1 and name in problem and str(blocker / "sub") in problem


def test_whatsapp_updates_only_logged_are_a_note(production, capsys):
    production.WHATSAPP_BACKEND = "console"
    code, out = _doctor(capsys)
    assert code == 0 and "WHATSAPP_BACKEND is console" in out


def test_a_csp_only_reported_is_a_note(production, capsys):
    production.CONTENT_SECURITY_POLICY_REPORT_ONLY = production.CONTENT_SECURITY_POLICY
    production.CONTENT_SECURITY_POLICY = None
    code, out = _doctor(capsys)
    assert code == 0 and "CSP_REPORT_ONLY" in out


def test_notes_alone_do_not_fail(production, capsys):
    production.SENTRY_DSN = ""
    code, out = _doctor(capsys)
    assert code == 0 and "note" in out and "SENTRY_DSN" in out


@pytest.mark.django_db(transaction=True)  # the backup reads committed data, like in production
def test_a_backup_makes_the_backup_check_pass(production, capsys, tmp_path):
    # given
    Heartbeat.objects.filter(name="backup").delete()
    # when
    call_command("backup", output=str(tmp_path))
    # then
    code, out = _doctor(capsys)
    assert code == 0, out


@pytest.mark.parametrize("fstype", ["nfs4", "cifs", "fuse.sshfs"])
def test_a_sqlite_database_on_a_network_share_fails(production, capsys, tmp_path, monkeypatch, fstype):
    # SQLite's WAL needs shared memory on one machine: web processes on two machines sharing the folder
    # over the network corrupt the database
    from django.db import connection

    from shop import doctor

    if connection.vendor != "sqlite":
        pytest.skip("the SQLite install")
    share = str(Path(connection.settings_dict["NAME"]).resolve().parent)
    mounts = tmp_path / "mounts"
    mounts.write_text(f"/dev/sda1 / ext4 rw 0 0\nfiler:/export {share} {fstype} rw 0 0\n")
    monkeypatch.setattr(doctor, "MOUNTS", mounts)
    code, out = _doctor(capsys)
    problem = next(line for line in out.splitlines() if line.startswith("PROBLEM") and " database:" in line)
    assert code == 1 and fstype in problem
    # a local disk is fine
    mounts.write_text("/dev/sda1 / ext4 rw 0 0\n")
    assert _doctor(capsys)[0] == 0


def test_a_nearly_full_disk_fails(production, capsys, monkeypatch):
    # daily archives pile up in DATA_DIR/backups beside the database and the pictures: a full disk stops
    # every write (orders, sessions) at once
    from collections import namedtuple

    from shop import doctor

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(doctor.shutil, "disk_usage", lambda path: usage(100 * 2**30, 99.5 * 2**30, 2**29))
    code, out = _doctor(capsys)
    problem = next(line for line in out.splitlines() if line.startswith("PROBLEM") and " disk:" in line)
    assert code == 1 and "0.5 GB free" in problem
    monkeypatch.setattr(doctor.shutil, "disk_usage", lambda path: usage(100 * 2**30, 50 * 2**30, 50 * 2**30))
    assert _doctor(capsys)[0] == 0


def test_an_owner_or_manager_without_two_step_sign_in_is_named_in_a_note(production, capsys, owner, manager,
                                                                          support):
    # given an Owner with two-step sign-in on, a Manager and a Support member without it, and a deactivated
    # Manager without it
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from accounts.models import Role, User

    TOTPDevice.objects.create(user=owner, name="authenticator", confirmed=True)
    User.objects.create_user(username="gone", email="gone@staff.example", password="x", is_staff=True,
                             role=Role.MANAGER, is_active=False)
    root = User.objects.create_superuser(username="root", email="root@staff.example", password="x")
    # when
    code, out = _doctor(capsys)
    # then only the active Manager and the superuser are named: the password alone opens the orders and the
    # customer exports
    note = next(line for line in out.splitlines() if line.startswith("note") and " sign-in:" in line)
    assert code == 0 and "Two-step sign-in is off for manager, root (" in note
    TOTPDevice.objects.create(user=root, name="authenticator", confirmed=True)
    # and an Owner whose app was never confirmed (a QR code shown, never scanned) counts as without it
    TOTPDevice.objects.filter(user=owner).update(confirmed=False)
    TOTPDevice.objects.create(user=manager, name="authenticator", confirmed=True)
    note = next(line for line in _doctor(capsys)[1].splitlines() if line.startswith("note") and " sign-in:" in line)
    assert "Two-step sign-in is off for owner (" in note
    # and with both on, nothing is said
    TOTPDevice.objects.filter(user=owner).update(confirmed=True)
    assert " sign-in:" not in _doctor(capsys)[1]


@pytest.fixture
def latest_migrations_after():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_migrations_not_applied_after_an_upgrade_fail(production, capsys, latest_migrations_after):
    # given an upgrade whose `manage.py migrate` was not run: django-otp's tables (two-step sign-in) and the
    # newsletter's confirmed_at are missing, so staff sign-in and the footer's form answer 500
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    MigrationExecutor(connection).migrate([("otp_totp", None), ("shop", "0009_exchange_rate_refused")])
    # when
    code, out = _doctor(capsys)
    # then
    problem = next(line for line in out.splitlines() if line.startswith("PROBLEM") and " database:" in line)
    assert code == 1 and "manage.py migrate" in problem and "otp_totp" in problem and "shop" in problem


def test_a_superuser_without_a_role_and_without_two_step_sign_in_is_named_as_an_owner_is(production, capsys):
    # given a superuser with no role (the superuser box ticked in Django's admin): it has the Owner's dashboard
    # (User.staff_role), where it turns two-step sign-in on as the Owner does
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from accounts.models import User

    root = User.objects.create_user(username="root", email="root@staff.example", password="x", is_staff=True,
                                    is_superuser=True, role="")
    # when
    note = next(line for line in _doctor(capsys)[1].splitlines() if line.startswith("note") and " sign-in:" in line)
    # then
    assert "Two-step sign-in is off for root (" in note
    TOTPDevice.objects.create(user=root, name="authenticator", confirmed=True)
    assert " sign-in:" not in _doctor(capsys)[1]
