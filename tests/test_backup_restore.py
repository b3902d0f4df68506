"""manage.py backup and restore (issue 17): make orders, back up, restore into a fresh data folder,
and find every order, product, customer and image there. On SQLite always; on PostgreSQL when the
suite runs on it (DATABASE_URL), restoring into a new database next to the test database."""

import io
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection

from shop.backup import BackupError, pg_tool
from shop.models import Heartbeat
from tests.factories import make_category, make_order, make_product

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parent.parent
PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
       b"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")


@pytest.fixture
def a_shop_with_orders(alice):
    image = Path(settings.MEDIA_ROOT) / "products" / "backup-test-kericho.png"
    image.parent.mkdir(parents=True, exist_ok=True)
    image.write_bytes(PNG)
    tea = make_product(title_en="Kericho Gold", title_ar="كيريتشو جولد", category=make_category(),
                       images=["/media/products/backup-test-kericho.png"], price="100")
    green = make_product(title_en="Green Mist", price="50")
    orders = [
        make_order(lines=[(tea, 2)], user=alice, email=alice.email),
        make_order(lines=[(green, 1)], email="guest@example.com", first_name="منى"),
        make_order(lines=[(tea, 1), (green, 3)], payment_status="cod", status="pending"),
    ]
    yield {"orders": sorted(o.number for o in orders), "products": sorted([tea.slug, green.slug]),
           "customers": [alice.email], "image": "products/backup-test-kericho.png"}
    image.unlink(missing_ok=True)


def _fresh_env(data_dir, database_url=None):
    env = {key: value for key, value in os.environ.items()
           if key not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "MEDIA_ROOT")}
    env.update(DATA_DIR=str(data_dir), DJANGO_SETTINGS_MODULE="shop.settings", DEBUG="0")
    if database_url:
        env["DATABASE_URL"] = database_url
    return env


def _manage(env, *args):
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


READ_BACK = (
    "import json; from orders.models import Order; from catalog.models import Product; "
    "from accounts.models import User; "
    "print(json.dumps({'orders': sorted(Order.objects.values_list('number', flat=True)), "
    "'products': sorted(Product.objects.values_list('slug', flat=True)), "
    "'customers': sorted(User.objects.filter(is_staff=False).values_list('email', flat=True)), "
    "'images': sorted(i for p in Product.objects.all() for i in p.images), "
    "'titles_ar': sorted(t or '' for t in Product.objects.values_list('title_ar', flat=True))}))"
)


def _backup_and_restore(tmp_path, shop, database_url=None):
    # when: back up
    call_command("backup", output=str(tmp_path / "backups"))
    archive, = (tmp_path / "backups").glob("nile-tea-*.tar.gz")
    # then: one dated archive with the database and the picture
    with tarfile.open(archive) as tar:
        names = tar.getnames()
    assert "manifest.json" in names and f"media/{shop['image']}" in names
    assert Heartbeat.objects.filter(name="backup").exists()
    # when: restore into a fresh data folder
    fresh = tmp_path / "fresh"
    env = _fresh_env(fresh, database_url)
    restored = _manage(env, "restore", str(archive))
    assert restored.returncode == 0, restored.stderr
    # then: every order, product, customer and image is there
    read = _manage(env, "shell", "-v", "0", "-c", READ_BACK)
    output = read.stdout
    assert "{" in output, read.stderr
    found = json.loads(next(line for line in output.splitlines() if line.startswith("{")))
    assert found["orders"] == shop["orders"]
    assert found["products"] == shop["products"]
    assert found["customers"] == shop["customers"]
    assert "/media/products/backup-test-kericho.png" in found["images"]
    assert "كيريتشو جولد" in found["titles_ar"]
    assert (fresh / "media" / shop["image"]).read_bytes() == PNG
    # and the generated key that signed the links in customers' e-mails came along
    if not os.environ.get("SECRET_KEY"):
        assert (fresh / "secret_key").read_text() == (Path(settings.DATA_DIR) / "secret_key").read_text()
        assert "restart the web and worker processes" in restored.stdout
    # and a second restore into the now full install is refused
    again = _manage(env, "restore", str(archive))
    assert again.returncode != 0 and "already has" in again.stderr


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite half of the pair")
def test_sqlite_backup_restores_into_a_fresh_data_folder(tmp_path, a_shop_with_orders):
    _backup_and_restore(tmp_path, a_shop_with_orders)


@pytest.fixture
def empty_postgres_database():
    yield from _scratch_database("restore")


@pytest.fixture
def older_postgres_database():
    yield from _scratch_database("older")


def _scratch_database(suffix):
    import psycopg

    params = connection.settings_dict
    name = f"{params['NAME']}_{suffix}"[:63]
    admin = dict(host=params.get("HOST") or None, port=params.get("PORT") or None,
                 user=params.get("USER") or None, password=params.get("PASSWORD") or None, dbname="postgres")
    with psycopg.connect(**{k: v for k, v in admin.items() if v}, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    auth = params.get("USER") or ""
    if params.get("PASSWORD"):
        auth += f":{params['PASSWORD']}"
    yield f"postgres://{auth}@{params.get('HOST') or '127.0.0.1'}:{params.get('PORT') or 5432}/{name}"
    with psycopg.connect(**{k: v for k, v in admin.items() if v}, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.skipif(connection.vendor != "postgresql", reason="runs when the suite runs on PostgreSQL")
def test_postgresql_backup_restores_into_an_empty_database(tmp_path, a_shop_with_orders, empty_postgres_database):
    _backup_and_restore(tmp_path, a_shop_with_orders, database_url=empty_postgres_database)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="runs when the suite runs on PostgreSQL")
def test_an_older_releases_postgresql_archive_restores_into_a_new_install_that_has_migrated(
        tmp_path, older_postgres_database, empty_postgres_database):
    # given an archive of an install one table behind (shop.FailedJob came in shop 0007) with a product
    older = _fresh_env(tmp_path / "older", older_postgres_database)
    make = "from tests.factories import make_product; make_product(slug='kericho')"
    for command in (("migrate", "-v", "0"), ("migrate", "shop", "0006", "-v", "0"), ("shell", "-v", "0", "-c", make),
                    ("backup", "--output", str(tmp_path / "backups"))):
        done = _manage(older, *command)
        assert done.returncode == 0, done.stderr
    archive, = (tmp_path / "backups").glob("nile-tea-*.tar.gz")
    # and a new install that ran its migrations (`make run` does) and holds nothing yet
    new = _fresh_env(tmp_path / "new", empty_postgres_database)
    assert _manage(new, "migrate", "-v", "0").returncode == 0
    # when
    restored = _manage(new, "restore", str(archive))
    # then the archive's data is there and brought up to date
    assert restored.returncode == 0, restored.stderr
    read = _manage(new, "shell", "-v", "0", "-c",
                   "from catalog.models import Product; from shop.models import FailedJob; "
                   "print(list(Product.objects.values_list('slug', flat=True)), FailedJob.objects.count())")
    assert read.stdout.strip() == "['kericho'] 0", read.stderr


def test_an_archive_of_the_other_engine_or_no_archive_is_refused(tmp_path):
    with pytest.raises(CommandError, match="No archive"):
        call_command("restore", str(tmp_path / "missing.tar.gz"))


def test_pg_dump_is_chosen_to_match_the_server(monkeypatch, tmp_path):
    # given: three client versions installed
    for major in (13, 15, 16):
        tool = tmp_path / str(major) / "pg_dump"
        tool.parent.mkdir()
        tool.write_text(f"#!/bin/sh\necho 'pg_dump (PostgreSQL) {major}.2'\n")
        tool.chmod(0o755)
    monkeypatch.setattr("shop.backup._candidates", lambda name: sorted(str(p) for p in tmp_path.glob("*/pg_dump")))
    # then: the exact version, else a newer one, never an older one
    assert pg_tool("pg_dump", server_major=15).endswith("/15/pg_dump")
    assert pg_tool("pg_dump", server_major=14).endswith("/16/pg_dump")
    with pytest.raises(BackupError, match="PostgreSQL 17 or newer"):
        pg_tool("pg_dump", server_major=17)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the archive's name is the same on both engines")
def test_backups_in_cairos_repeated_autumn_hour_and_in_one_second_each_keep_their_archive(tmp_path):
    # given Cairo's clocks going back at midnight on the last Thursday of October 2026: 23:30 Cairo
    # happens twice, an hour apart in UTC
    from datetime import UTC, datetime

    from shop.backup import backup_create

    first_2330, second_2330 = datetime(2026, 10, 29, 20, 30, tzinfo=UTC), datetime(2026, 10, 29, 21, 30, tzinfo=UTC)
    # when a backup is made at each, and two more in one second
    names = [backup_create(output_dir=tmp_path, now=when)[0].name
             for when in (first_2330, second_2330, second_2330)]
    # then every archive is kept under its own name, named in UTC and in the order they were made
    assert names == ["nile-tea-20261029-203000Z.tar.gz", "nile-tea-20261029-213000Z.tar.gz",
                     "nile-tea-20261029-213000Z-2.tar.gz"]
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(names)


def test_a_backup_killed_halfway_leaves_nothing_behind_for_long(tmp_path, monkeypatch):
    # given what a backup killed a day ago left, and one of a backup running now
    import time

    from shop import backup

    old, running = tmp_path / f".nile-tea-old{backup.PARTIAL}", tmp_path / f".nile-tea-now{backup.PARTIAL}"
    old.write_bytes(b"half")
    running.write_bytes(b"half")
    os.utime(old, (time.time() - 25 * 3600,) * 2)
    # and a backup that fails while writing its archive
    monkeypatch.setattr(backup, "_generated_key_file", lambda: tmp_path / "no-such-key")
    # when
    with pytest.raises(FileNotFoundError):
        backup.backup_create(output_dir=tmp_path)
    # then the old leftover is gone, the running one's file is left alone, and the failed one left nothing
    assert sorted(path.name for path in tmp_path.iterdir()) == [running.name]


def test_a_picture_deleted_while_the_backup_runs_does_not_fail_the_backup(tmp_path, monkeypatch):
    # given two pictures, one of which staff delete (or the importer replaces) while the archive is written
    from shop import backup

    media = Path(settings.MEDIA_ROOT) / "products"
    media.mkdir(parents=True, exist_ok=True)
    kept, deleted = media / "backup-race-kept.png", media / "backup-race-deleted.png"
    kept.write_bytes(PNG)
    deleted.write_bytes(PNG)
    add = tarfile.TarFile.add

    def add_while_staff_delete(self, name, *args, **kwargs):
        deleted.unlink(missing_ok=True)  # gone after the listing, before its turn in the archive
        return add(self, name, *args, **kwargs)

    monkeypatch.setattr(tarfile.TarFile, "add", add_while_staff_delete)
    try:
        # when
        archive, manifest = backup.backup_create(output_dir=tmp_path)
    finally:
        kept.unlink(missing_ok=True)
        deleted.unlink(missing_ok=True)
    # then the backup is made, with what was there; the manifest counts what the archive holds
    with tarfile.open(archive) as tar:
        names = tar.getnames()
    assert "media/products/backup-race-kept.png" in names and "media/products/backup-race-deleted.png" not in names
    assert manifest["media_files"] == sum(name.startswith("media/") for name in names)


def test_an_archive_is_readable_by_its_owner_only(tmp_path):
    from shop import backup

    archive, _manifest = backup.backup_create(output_dir=tmp_path / "backups")
    # it holds every customer's name, address and phone, and maybe the secret key
    assert archive.stat().st_mode & 0o777 == 0o600


def test_a_manifest_naming_a_database_outside_the_archive_is_refused(tmp_path):
    # the manifest says which file is the database; it must be the archive's own, never a path to any
    # SQLite file or dump on this machine
    from shop.backup import restore_archive

    elsewhere = tmp_path / "elsewhere.sqlite3"
    elsewhere.write_bytes(b"")
    archive = tmp_path / "crafted.tar.gz"
    manifest = json.dumps({"format": 1, "engine": connection.vendor, "database": str(elsewhere)}).encode()
    with tarfile.open(archive, "w:gz") as tar:
        info = tarfile.TarInfo("manifest.json")
        info.size = len(manifest)
        tar.addfile(info, fileobj=io.BytesIO(manifest))
    with pytest.raises(BackupError, match="database"):
        restore_archive(archive=archive, force=True)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="restores over the test database in this process")
def test_after_a_restore_the_shop_reads_the_restored_settings_not_the_cached_ones(tmp_path):
    # the install restored into was running (make run) and cached its own settings: without a fresh cache,
    # checkouts charged its shipping rate, not the restored shop's, until the cache entry expired
    from decimal import Decimal

    from shop.backup import backup_create, restore_archive
    from shop.store_settings import store_settings_get, store_settings_update

    store_settings_update(shipping_rate=Decimal("65.00"))
    archive, _manifest = backup_create(output_dir=tmp_path)
    store_settings_update(shipping_rate=Decimal("50.00"))
    assert store_settings_get().shipping_rate == Decimal("50.00")  # cached now
    # when
    restore_archive(archive=archive, force=True)
    # then
    assert store_settings_get().shipping_rate == Decimal("65.00")


@pytest.fixture
def an_owner_with_two_step_on(owner):
    """An Owner with an authenticator app and recovery codes, one of them already used; a confirmed newsletter
    subscriber, one awaiting confirmation, and a Paymob payment with the integrations it was made for."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from backoffice.two_step import _recovery_codes_new, code_verify
    from orders.models import Payment
    from shop.models import NewsletterSubscriber

    TOTPDevice.objects.create(user=owner, name="authenticator", confirmed=True)
    used, unused, *_rest = _recovery_codes_new(user=owner)
    assert code_verify(user=owner, code=used)
    NewsletterSubscriber.objects.create(email="confirmed@example.com", confirmed_at="2026-11-01T10:00:00Z")
    NewsletterSubscriber.objects.create(email="pending@example.com")
    order = make_order(payment_status="awaiting", status="pending")
    Payment.objects.create(order=order, provider="paymob", payment_id="pay-backup-1", amount="150.00",
                           integration_ids=["4097558", "4097559"])
    return {"used": used, "unused": unused}


TWO_STEP_READ_BACK = (
    "import json; from accounts.models import User; from orders.models import Payment; "
    "from shop.models import NewsletterSubscriber; from backoffice import two_step; "
    "owner = User.objects.get(username='owner'); "
    "print(json.dumps({{'on': two_step.two_step_enabled(owner), 'left': two_step.recovery_codes_left(owner), "
    "'unused': two_step.code_verify(user=owner, code={unused!r}), "
    "'used': two_step.code_verify(user=owner, code={used!r}), "
    "'subscribers': sorted((s.email, s.status) for s in NewsletterSubscriber.objects.all()), "
    "'integrations': Payment.objects.get(payment_id='pay-backup-1').integration_ids}}))"
)


def _two_step_survives(tmp_path, codes, database_url=None):
    # when: back up, and restore into a fresh data folder
    call_command("backup", output=str(tmp_path / "backups"))
    archive, = (tmp_path / "backups").glob("nile-tea-*.tar.gz")
    env = _fresh_env(tmp_path / "fresh", database_url)
    restored = _manage(env, "restore", str(archive))
    assert restored.returncode == 0, restored.stderr
    # then the Owner still needs a code; the recovery code used before the backup stays used, the others work
    # (the unused one is tried first: django-otp makes the try after a wrong code wait a second)
    read = _manage(env, "shell", "-v", "0", "-c", TWO_STEP_READ_BACK.format(**codes))
    found = json.loads(next((line for line in read.stdout.splitlines() if line.startswith("{")), "{}") or "{}")
    assert found, read.stderr
    assert found["on"] is True
    assert found["left"] == 9
    assert found["used"] is False and found["unused"] is True
    # and the newsletter's confirmations and the payment's integrations came along
    assert found["subscribers"] == [["confirmed@example.com", "active"], ["pending@example.com", "pending"]]
    assert found["integrations"] == ["4097558", "4097559"]


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite half of the pair")
def test_sqlite_restore_keeps_two_step_sign_in_and_spent_recovery_codes(tmp_path, an_owner_with_two_step_on):
    _two_step_survives(tmp_path, an_owner_with_two_step_on)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="runs when the suite runs on PostgreSQL")
def test_postgresql_restore_keeps_two_step_sign_in_and_spent_recovery_codes(
        tmp_path, an_owner_with_two_step_on, empty_postgres_database):
    _two_step_survives(tmp_path, an_owner_with_two_step_on, database_url=empty_postgres_database)
