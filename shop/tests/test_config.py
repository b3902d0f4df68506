import os
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.mark.skipif(bool(os.environ.get("REDIS_URL")), reason="the embedded broker is used only without Redis")
def test_the_embedded_broker_keeps_every_folder_under_the_data_folder(settings):
    folders = {k: v for k, v in settings.CELERY_BROKER_TRANSPORT_OPTIONS.items() if k.endswith("_folder")
               or k.startswith("data_folder")}
    assert {"data_folder_in", "data_folder_out", "processed_folder", "control_folder"} <= set(folders)
    for folder in folders.values():
        assert Path(folder).is_relative_to(settings.DATA_DIR)
