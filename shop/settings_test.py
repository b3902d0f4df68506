"""Test settings: the real settings, with a throwaway data folder and fast hashing."""

import hashlib
import os
import tempfile
from pathlib import Path

# one data folder per checkout, so test runs of two work trees never share a cache
# (and one per pytest-xdist worker, which also gets a Redis database of its own,
# because cache.clear() empties a whole Redis database)
_checkout = hashlib.sha1(str(Path(__file__).resolve().parent.parent).encode()).hexdigest()[:8]
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
os.environ["DATA_DIR"] = str(Path(tempfile.gettempdir()) / f"nile-tea-test-{_checkout}{_worker}")
if _worker and os.environ.get("REDIS_URL"):
    _base, _, _db = os.environ["REDIS_URL"].rpartition("/")
    _db = int(_db) if _db.isdigit() else 0
    os.environ["REDIS_URL"] = f"{_base}/{_db + 1 + int(_worker.removeprefix('gw'))}"
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SESSION_COOKIE_SECURE", "0")
os.environ.setdefault("IMPORTER_ALLOW_PRIVATE_HOSTS", "1")

from shop.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}  # noqa: F405
CELERY_TASK_ALWAYS_EAGER = True
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
PAYMENT_SANDBOX = True
IMPORTER_DELAY_SECONDS = float(os.environ.get("IMPORTER_DELAY_SECONDS", "0.3"))
if DATABASES["default"]["ENGINE"] == "shop.sqlite":  # noqa: F405
    # A test database in a file, not in memory: with an in-memory one the browser tests' live server
    # shares the test thread's very connection, and a request still answering when a test writes puts
    # both threads into one transaction ("on_commit() cannot be used in manual transaction
    # management"). With a file each thread has its own connection, as on PostgreSQL.
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / "test.sqlite3")}  # noqa: F405
if not REDIS_URL:  # noqa: F405
    # each test run gets a clean shared cache
    CACHES["default"]["LOCATION"] = str(DATA_DIR / "cache")  # noqa: F405
# right after the request log (which must stay first): the browser fixtures wait until the
# live server answers nothing (tests/live_requests.py)
MIDDLEWARE = [MIDDLEWARE[0], "tests.live_requests.CountRequestsMiddleware", *MIDDLEWARE[1:]]  # noqa: F405
