import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shop.celery import app
from shop.queue import enqueue
from shop.tasks import heartbeat

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args, **env):
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "shop.settings", **env}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=environment,
        capture_output=True, text=True, timeout=60,
    )


def test_a_bad_value_stops_start_up_with_one_line_naming_it(tmp_path):
    result = _manage("check", DEBUG="maybe", DATA_DIR=str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "Configuration error: DEBUG must be one of 1/0, true/false, yes/no (got 'maybe')"
    ]


def test_a_bad_database_url_is_named(tmp_path):
    result = _manage("check", DATABASE_URL="nosuchdb://x", DATA_DIR=str(tmp_path))
    assert result.returncode == 2
    assert "DATABASE_URL" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_secret_key_is_generated_once_and_kept(tmp_path):
    env = {"DATA_DIR": str(tmp_path), "SECRET_KEY": ""}
    assert _manage("check", **env).returncode == 0
    key = (tmp_path / "secret_key").read_text()
    assert _manage("check", **env).returncode == 0
    assert (tmp_path / "secret_key").read_text() == key
    assert len(key) >= 50


def test_processes_starting_together_all_read_the_one_key_the_first_wrote(tmp_path, monkeypatch):
    # given several processes' first start at once, each about to find no key file
    from concurrent.futures import ThreadPoolExecutor

    from shop.config import secret_key

    monkeypatch.setenv("SECRET_KEY", "")
    # when they each make and read it (threads: the same steps, interleaved as processes' would be)
    with ThreadPoolExecutor(8) as pool:
        keys = list(pool.map(lambda _n: secret_key(tmp_path), range(40)))
    # then every one has the same key, never an empty one, and no draft is left behind
    assert len(set(keys)) == 1 and len(keys[0]) >= 50
    assert [path.name for path in tmp_path.iterdir()] == ["secret_key"]


def test_the_generated_key_is_never_readable_by_other_users_not_even_while_it_is_written(tmp_path, monkeypatch):
    # another account on the machine reading the key, even for a moment, can sign tracking links and
    # sessions; so the draft is private from the moment it is created, whatever the umask
    from shop.config import secret_key

    monkeypatch.setenv("SECRET_KEY", "")
    seen = []
    link = os.link

    def link_and_look(source, target):
        seen.append(os.stat(source).st_mode & 0o777)
        return link(source, target)

    def no_chmod(self, mode):  # the draft's mode must not depend on a chmod after its bytes are in
        pass

    monkeypatch.setattr(os, "link", link_and_look)
    monkeypatch.setattr(Path, "chmod", no_chmod)
    old = os.umask(0o022)
    try:
        secret_key(tmp_path)
    finally:
        os.umask(old)
    assert seen == [0o600] and (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


@pytest.mark.skipif(bool(os.environ.get("REDIS_URL")), reason="the embedded broker is used only without Redis")
def test_the_embedded_broker_keeps_every_folder_under_the_data_folder(settings):
    folders = {k: v for k, v in settings.CELERY_BROKER_TRANSPORT_OPTIONS.items() if k.endswith("_folder")
               or k.startswith("data_folder")}
    assert {"data_folder_in", "data_folder_out", "processed_folder", "control_folder"} <= set(folders)
    for folder in folders.values():
        assert Path(folder).is_relative_to(settings.DATA_DIR)


@pytest.mark.skipif(bool(os.environ.get("REDIS_URL")), reason="the embedded broker is used only without Redis")
def test_a_job_queued_on_the_embedded_broker_lands_in_its_folder_and_logs_no_warning(settings, caplog):
    # kombu warned "No hostname was supplied" for every job (each order's e-mail) on a URL without a host
    folder = Path(settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_out"])
    before = set(folder.iterdir())
    eager, app.conf.task_always_eager = app.conf.task_always_eager, False
    try:
        with caplog.at_level(logging.WARNING):
            assert enqueue(heartbeat)
    finally:
        app.conf.task_always_eager = eager
    queued = set(folder.iterdir()) - before
    for message in queued:
        message.unlink()
    assert len(queued) == 1
    assert [record.getMessage() for record in caplog.records] == []


def _email_settings(tmp_path, **env):
    code = ("from django.conf import settings as s; "
            "print(s.EMAIL_PORT, s.EMAIL_USE_TLS, getattr(s, 'EMAIL_USE_SSL', None))")
    result = _manage("shell", "-v", "0", "-c", code, DATA_DIR=str(tmp_path), EMAIL_HOST="smtp.example.com", **env)
    return result.returncode, result.stdout.strip() or result.stderr.strip()


def test_a_mail_server_on_port_465_is_spoken_to_over_tls_from_the_first_byte(tmp_path):
    # port 465 (implicit TLS, what many hosts give) never answers STARTTLS: every mail would wait out
    # its timeout and fail
    assert _email_settings(tmp_path, EMAIL_PORT="465") == (0, "465 False True")
    assert _email_settings(tmp_path, EMAIL_PORT="587") == (0, "587 True False")
    assert _email_settings(tmp_path, EMAIL_PORT="2465", EMAIL_USE_SSL="1") == (0, "2465 False True")
    code, error = _email_settings(tmp_path, EMAIL_USE_SSL="1", EMAIL_USE_TLS="1")
    assert code == 2 and error.startswith("Configuration error: EMAIL_USE_SSL")


@pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")), reason="the SQLite file of the default install")
def test_the_sqlite_database_is_not_readable_by_other_accounts(tmp_path):
    # it holds every customer's name, address, phone and password hash, like the 0600 backups of it; the
    # write-ahead log beside it holds the latest writes
    code = ("import os; from django.db import connection; c = connection.cursor(); "
            "c.execute('CREATE TABLE probe (n int)'); c.execute('INSERT INTO probe VALUES (1)'); "
            "name = connection.settings_dict['NAME']; "
            "print({s: oct(os.stat(name + s).st_mode & 0o777) for s in ('', '-wal', '-shm')})")
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "shop.settings", "DATA_DIR": str(tmp_path)}
    environment.pop("DATABASE_URL", None)
    result = subprocess.run(["sh", "-c", 'umask 022 && exec "$0" manage.py shell -v 0 -c "$1"', sys.executable, code],
                            cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "{'': '0o640', '-wal': '0o640', '-shm': '0o640'}"
