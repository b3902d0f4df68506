"""What `manage.py doctor` checks: the settings and habits a production shop needs.

Each check returns Findings: a problem (the shop is unsafe or will lose something: exit 1)
or a note (worth a look, not wrong in every setup). The texts are for the operator, in
English, like the rest of the command line.
"""

import os
import shutil
import tempfile
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.db import connection
from django.db.models import Q
from django.http.request import validate_host
from django.utils import timezone

from orders.payments.services import bad_hmac_mark
from shop import health
from shop.models import Heartbeat, OutboundEmail, OutboundWhatsApp
from shop.outbox import LATE_AFTER, outbox_failed_count, outbox_late_count, outbox_late_error

PROBLEM, NOTE = "problem", "note"
BACKUP_MAX_AGE = timedelta(hours=48)
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}


@dataclass
class Finding:
    level: str
    topic: str
    text: str


def _problem(topic, text):
    return Finding(PROBLEM, topic, text)


def _note(topic, text):
    return Finding(NOTE, topic, text)


def check_debug():
    if settings.DEBUG:
        return [_problem("debug", "DEBUG is on: error pages show code and settings to anyone. Set DEBUG=0.")]
    return []


def check_secret_key():
    key = settings.SECRET_KEY
    if key.startswith("django-insecure") or len(set(key)) < 5 or len(key) < 50:  # as check --deploy (W009)
        return [_problem("secret key", "SECRET_KEY is weak, short or a placeholder: set a random one of 50 "
                                       "characters or more.")]
    if not os.environ.get("SECRET_KEY"):
        return [_note("secret key", "SECRET_KEY is the one generated into DATA_DIR/secret_key; set SECRET_KEY "
                                    "when several machines serve the shop, so they all share it.")]
    return []


def check_hosts():
    hosts = set(settings.ALLOWED_HOSTS)
    if "*" in hosts:
        return [_problem("allowed hosts", "ALLOWED_HOSTS has '*': name the shop's own host names.")]
    if hosts <= LOCAL_HOSTS:
        return [_problem("allowed hosts", "ALLOWED_HOSTS only has local addresses: add the shop's host name.")]
    return []


def check_https():
    found = []
    site = urlsplit(settings.SITE_URL or "")
    if not settings.SITE_URL:
        found.append(_problem("https", "SITE_URL is not set: e-mails and payment return links use whatever "
                                       "host a request names. Set it to the public https:// address."))
    elif site.scheme != "https":
        found.append(_problem("https", f"SITE_URL is {settings.SITE_URL}: use https://."))
    if settings.SITE_URL and not validate_host(site.hostname or "", settings.ALLOWED_HOSTS):
        found.append(_problem("https", f"SITE_URL's host {site.hostname} is not in ALLOWED_HOSTS: payment returns "
                                       "and every link in the e-mails answer 400 Bad Request. Add it."))
    if not settings.SESSION_COOKIE_SECURE:
        found.append(_problem("https", "SESSION_COOKIE_SECURE is off: sign-in cookies travel over plain http."))
    if not settings.SECURE_HSTS_SECONDS:
        found.append(_problem("https", "SECURE_HSTS_SECONDS is 0: browsers are not told to stay on https."))
    if not settings.SECURE_SSL_REDIRECT:
        found.append(_note("https", "SECURE_SSL_REDIRECT is off: make sure the proxy redirects http to https."))
    if site.scheme == "https" and f"https://{site.netloc}" not in settings.CSRF_TRUSTED_ORIGINS:
        found.append(_note("https", f"CSRF_TRUSTED_ORIGINS does not list https://{site.netloc}; forms fail "
                                    "behind a proxy that does not pass the Host header on."))
    return found


def check_proxy():
    """gunicorn serves plain http (Procfile): an https SITE_URL means a proxy in front, whose address every
    request then comes from unless TRUSTED_PROXY_COUNT says to read X-Forwarded-For."""
    if urlsplit(settings.SITE_URL or "").scheme == "https" and not settings.TRUSTED_PROXY_COUNT:
        return [_problem("proxy", "TRUSTED_PROXY_COUNT is 0 but SITE_URL is https, so a proxy stands in front: "
                                  "every shopper has the proxy's address, and shares one checkout and sign-in "
                                  "limit (RATE_LIMIT_CHECKOUT for the whole shop) and one lockout per account. "
                                  "Set TRUSTED_PROXY_COUNT=1 (one proxy that sets X-Forwarded-For).")]
    return []


def check_email():
    if settings.EMAIL_BACKEND == "shop.mail_backends.NoMailServerBackend":
        return [_problem("e-mail", "No mail server is set (EMAIL_HOST is empty): customers get no confirmations. "
                                   "Every e-mail waits in the outbox unsent (none is written to the logs), and is "
                                   f"given up after {settings.EMAIL_MAX_ATTEMPTS} attempts; the dashboard's "
                                   "overview lists those and can send them again. Set EMAIL_HOST and its account.")]
    backend = settings.EMAIL_BACKEND.rsplit(".", 2)[-2]
    if backend != "smtp":
        return [_problem("e-mail", f"E-mail goes to the {backend} backend, not a mail server: customers get "
                                   "no confirmations"
                                   + (", and every message, password-reset links and addresses included, is written "
                                      "to the worker's output (its logs)" if backend == "console" else "")
                                   + ". Set EMAIL_HOST and its account.")]
    found = []
    if settings.EMAIL_HOST_USER and not (settings.EMAIL_USE_TLS or settings.EMAIL_USE_SSL):
        found.append(_problem("e-mail", "EMAIL_USE_TLS and EMAIL_USE_SSL are off: the mail account's password "
                                        "and every e-mail cross the network readable. Turn one on."))
    if "@localhost" in settings.DEFAULT_FROM_EMAIL:
        found.append(_problem("e-mail", f"DEFAULT_FROM_EMAIL is {settings.DEFAULT_FROM_EMAIL}: use the shop's "
                                        "own address, or mail is refused as spam."))
    return found


@dataclass(frozen=True)
class _Outbox:
    model: type
    topic: str
    noun: str  # one message, "e-mail"; the plural adds an s
    fix: str  # what to check when messages are late
    failed_where: str  # where staff see the given-up messages


_OUTBOXES = [
    _Outbox(OutboundEmail, "e-mail", "e-mail", "check the mail server's address and account, and that a worker runs",
            "the dashboard's overview lists them and can send them again"),
    _Outbox(OutboundWhatsApp, "WhatsApp", "WhatsApp message",
            "check WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_ACCESS_TOKEN, and that a worker runs",
            "Django's admin lists them with their last error"),
]


def check_outbox():
    found = []
    for outbox in _OUTBOXES:
        late = outbox_late_count(outbox.model)
        if late:
            error = outbox_late_error(outbox.model)
            found.append(_problem(outbox.topic, f"{_count(late, outbox.noun)} {'has' if late == 1 else 'have'} waited "
                                                f"more than {int(LATE_AFTER.total_seconds() // 60)} minutes to be sent"
                                                f"{f' (last error: {error[:200]})' if error else ''}: {outbox.fix}."))
        failed = outbox_failed_count(outbox.model)
        if failed:
            found.append(_note(outbox.topic, f"{_count(failed, outbox.noun)} {'was' if failed == 1 else 'were'} "
                                             f"given up after every attempt: {outbox.failed_where}."))
    return found


def _count(count, noun):
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def check_payments():
    found = []
    if settings.PAYMENT_PROVIDER != "paymob":
        found.append(_problem("payments", "PAYMENT_PROVIDER is the sandbox: card orders are never really paid. "
                                          "Set PAYMENT_PROVIDER=paymob with its keys."))
    else:
        missing = [name for name in ("PAYMOB_SECRET_KEY", "PAYMOB_PUBLIC_KEY", "PAYMOB_HMAC_SECRET")
                   if not getattr(settings, name)]
        if not settings.PAYMOB_INTEGRATION_IDS:
            missing.append("PAYMOB_INTEGRATION_IDS")
        if missing:
            found.append(_problem("payments", f"Paymob is chosen but {', '.join(missing)} is empty."))
        if not settings.PAYMOB_API_KEY:
            found.append(_problem("payments", "PAYMOB_API_KEY is empty: the shop cannot ask Paymob about a payment "
                                              "whose callback was lost, so such an order expires unpaid after 30 "
                                              "minutes although the customer paid."))
        for name in ("PAYMOB_SECRET_KEY", "PAYMOB_PUBLIC_KEY"):
            key = getattr(settings, name) or ""
            if "_test_" in key or key.startswith(("sk_test", "pk_test")):
                found.append(_problem("payments", f"{name} is a test key: no real money moves."))
        rejected = Heartbeat.objects.filter(name=bad_hmac_mark("paymob")).first()
        if rejected is not None:
            found.append(_problem("payments", f"Paymob called back about one of the shop's payments "
                                              f"({timezone.localtime(rejected.seen_at):%Y-%m-%d %H:%M}) with a "
                                              "signature that did not match PAYMOB_HMAC_SECRET: copy the HMAC "
                                              "secret from Paymob's dashboard. Until then every callback is "
                                              "refused and payments wait for the shop to ask Paymob."))
        if urlsplit(settings.PAYMOB_BASE_URL).scheme != "https":
            found.append(_problem("payments", f"PAYMOB_BASE_URL is {settings.PAYMOB_BASE_URL}: the keys would "
                                              "cross the network readable; use https://."))
    if settings.PAYMENT_SANDBOX:
        found.append(_problem("payments", "PAYMENT_SANDBOX is on: anyone can mark an order paid on the test "
                                          "page. Set PAYMENT_SANDBOX=0."))
    return found


def check_whatsapp():
    if settings.WHATSAPP_BACKEND != "cloud":
        return [_note("WhatsApp", "WHATSAPP_BACKEND is console: customers who ask for order updates on WhatsApp "
                                  "at checkout get none (they are only logged). Set WHATSAPP_BACKEND=cloud with "
                                  "WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_ACCESS_TOKEN.")]
    missing = [name for name in ("WHATSAPP_PHONE_NUMBER_ID", "WHATSAPP_ACCESS_TOKEN") if not getattr(settings, name)]
    if missing:
        return [_problem("WhatsApp", f"WHATSAPP_BACKEND is cloud but {', '.join(missing)} is empty: no order "
                                     "update is sent.")]
    return []


def _writable(folder):
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-"):
            return True
    except OSError:
        return False


def check_folders():
    """DATA_DIR (cache, embedded job queue, backups) and MEDIA_ROOT (uploads): written only when first used,
    so a read-only mount or a wrong owner shows up as a failed upload or a lost backup."""
    return [_problem("folders", f"{name} ({folder}) cannot be written by this user: "
                                f"{'uploads' if name == 'MEDIA_ROOT' else 'the cache, job queue and backups'} fail.")
            for name in ("DATA_DIR", "MEDIA_ROOT") if not _writable(folder := getattr(settings, name))]


DISK_MIN_FREE = 2**30  # bytes; and at least DISK_MIN_SHARE of the disk
DISK_MIN_SHARE = 0.05


def check_disk():
    """The disks of DATA_DIR (the database, backups, cache, job queue) and MEDIA_ROOT: full, every write
    fails at once (orders, sessions), and the daily backups fill them a little more each night."""
    found, seen = [], set()
    for name in ("DATA_DIR", "MEDIA_ROOT"):
        folder = Path(getattr(settings, name))
        try:
            usage = shutil.disk_usage(folder)
        except OSError:  # not there: check_folders says so
            continue
        if (usage.total, usage.free) in seen:
            continue
        seen.add((usage.total, usage.free))
        if usage.free < DISK_MIN_FREE or usage.free < usage.total * DISK_MIN_SHARE:
            found.append(_problem("disk", f"The disk of {name} ({folder}) has {usage.free / 2**30:.1f} GB free "
                                          f"({usage.free * 100 // usage.total}%): when it fills, no order can be "
                                          "written. Free space, or keep fewer backups in DATA_DIR/backups."))
    return found


MOUNTS = Path("/proc/mounts")
NETWORK_FILESYSTEMS = ("nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "ceph", "glusterfs", "fuse.sshfs",
                       "fuse.glusterfs", "fuse.s3fs", "fuse.rclone")


def _filesystem_of(path):
    """The type of the file system `path` is on, from MOUNTS (the longest mount point above it); None when
    it cannot be read (not Linux)."""
    try:
        lines = MOUNTS.read_text().splitlines()
    except OSError:
        return None
    found = ("", None)
    for line in lines:
        parts = line.split()
        if len(parts) < 3:
            continue
        mount = parts[1].replace("\\040", " ")
        if (path == mount or path.startswith(mount.rstrip("/") + "/")) and len(mount) >= len(found[0]):
            found = (mount, parts[2])
    return found[1]


def check_database():
    """SQLite on a network share: its WAL needs memory shared on one machine, so processes on two machines
    sharing the folder corrupt it (one machine's several processes are fine)."""
    if connection.vendor != "sqlite":
        return []
    folder = str(Path(connection.settings_dict["NAME"]).resolve().parent)
    filesystem = _filesystem_of(folder)
    if filesystem in NETWORK_FILESYSTEMS:
        return [_problem("database", f"The SQLite database is on a network share ({filesystem}, {folder}): "
                                     "it is corrupted when processes on more than one machine use it. Keep "
                                     "DATA_DIR on a local disk, or use PostgreSQL (DATABASE_URL).")]
    return []


def check_migrations():
    """An upgrade whose `manage.py migrate` was not run: the code reads tables and columns that are not there
    (django-otp's for staff two-step sign-in, a new field), and those pages answer 500."""
    from django.db.migrations.executor import MigrationExecutor  # noqa: PLC0415  (loads every migration)

    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if not plan:
        return []
    apps = sorted({migration.app_label for migration, _backwards in plan})
    return [_problem("database", f"{_count(len(plan), 'migration')} of {', '.join(apps)} "
                                 f"{'is' if len(plan) == 1 else 'are'} not applied: pages and jobs that use what "
                                 "they add fail. Run `manage.py migrate` after each upgrade, before starting the "
                                 "web and worker processes.")]


def check_two_step():
    """Owners and Managers (and superusers) edit orders and the shop's settings and export every customer's
    details: with no two-step sign-in, their password alone is enough for whoever learns it."""
    from accounts.models import Role, User  # noqa: PLC0415
    from backoffice.two_step import with_two_step  # noqa: PLC0415

    users = with_two_step(User.objects.filter(is_active=True, is_staff=True)
                          .filter(Q(role__in=[Role.OWNER, Role.MANAGER]) | Q(is_superuser=True)))
    names = sorted(user.username for user in users if not user.two_step_on)
    if not names:
        return []
    return [_note("sign-in", f"Two-step sign-in is off for {', '.join(names)} (Owner, Manager or superuser): "
                             "their password alone opens the orders, the shop's settings and the export of "
                             "every customer's name, e-mail and phone. Each turns it on from the dashboard's "
                             "Roles screen (Two-step sign-in).")]


def check_switches():
    """Switches for tests and trials that must be off in production."""
    found = []
    if settings.IMPORTER_ALLOW_PRIVATE_HOSTS:
        found.append(_problem("importer", "IMPORTER_ALLOW_PRIVATE_HOSTS is on: staff (or a producer's page that "
                                          "links there) can make the importer fetch this machine's and the "
                                          "network's private addresses. Set it to 0."))
    if not settings.AXES_ENABLED:
        found.append(_problem("sign-in", "AXES_ENABLED is off: passwords can be guessed without any lockout."))
    if settings.CELERY_TASK_ALWAYS_EAGER:
        found.append(_problem("jobs", "CELERY_TASK_ALWAYS_EAGER is on: every job (mail, imports) runs inside the "
                                      "request that queued it, which waits for the mail server. Set it to 0."))
    if settings.CONTENT_SECURITY_POLICY is None:
        found.append(_note("security", "CSP_REPORT_ONLY is on: the Content-Security-Policy is only reported, not "
                                       "enforced."))
    return found


def check_backups(*, now=None):
    now = now or timezone.now()
    mark = Heartbeat.objects.filter(name="backup").first()
    if mark is None:
        return [_problem("backups", "No backup has been made: run `manage.py backup` daily from cron and "
                                    "copy the archives off this machine.")]
    if now - mark.seen_at > BACKUP_MAX_AGE:
        days = (now - mark.seen_at).days
        return [_problem("backups", f"The last backup is {days} days old (`manage.py backup` should run daily).")]
    return []


def check_background():
    found = []
    if not health.broker_ok():
        found.append(_problem("jobs", "The job queue (broker) does not answer: e-mails and imports wait."))
    worker_ok, _seen = health.worker_seen_recently()
    if not worker_ok:
        found.append(_problem("jobs", "No worker heartbeat for 3 minutes: start `celery -A shop worker` "
                                      "and exactly one `celery -A shop beat`."))
    return found


def check_errors():
    if not getattr(settings, "SENTRY_DSN", ""):
        return [_note("errors", "SENTRY_DSN is not set: server errors are only in the logs.")]
    return []


CHECKS = [check_migrations, check_debug, check_secret_key, check_hosts, check_https, check_proxy, check_email,
          check_outbox, check_payments, check_whatsapp, check_switches, check_two_step, check_database, check_disk,
          check_folders, check_backups, check_background, check_errors]


def doctor_run():
    findings = []
    for check in CHECKS:
        try:
            findings += check()
        except Exception as error:  # a check that cannot run is itself a finding
            findings.append(_problem(check.__name__.removeprefix("check_"), f"could not be checked: {error}"))
    return findings
