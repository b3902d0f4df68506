"""Fixtures for the shop's own tests: Redis made unreachable without touching the real server."""

import functools
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache

ROOT = Path(__file__).resolve().parents[2]


def _closed_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def redis_cache_at(url):
    """The shop's Redis cache configuration (shop/settings.py), aimed at `url`."""
    from shop import settings as shop_settings

    if not shop_settings.REDIS_URL:  # an SQLite run: build what REDIS_URL would give
        config = settings_with_redis()["CACHES"]["default"]
    else:
        config = dict(shop_settings.CACHES["default"])
    return {"default": {**config, "LOCATION": url}}


@functools.cache
def settings_with_redis():
    """CACHES, SESSION_ENGINE and AXES_HANDLER as shop/settings.py sets them when REDIS_URL is set."""
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "shop.settings", "REDIS_URL": "redis://127.0.0.1:1/0"}
    code = ("import json; from django.conf import settings; "
            "print(json.dumps({'CACHES': settings.CACHES, 'SESSION_ENGINE': settings.SESSION_ENGINE, "
            "'AXES_HANDLER': settings.AXES_HANDLER}))")
    result = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=environment,
                            capture_output=True, text=True, timeout=60, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.fixture
def redis_down(settings):
    settings.CACHES = redis_cache_at(f"redis://127.0.0.1:{_closed_port()}/0")
    yield
    cache.close()
