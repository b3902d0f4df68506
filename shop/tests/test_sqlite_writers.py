"""shop.sqlite: a transaction on SQLite holds a file lock beside the database while it lasts, so the
next writer is let in the moment it ends (SQLite's own busy handler sleeps up to 100 ms a try)."""

import fcntl
import os

import pytest
from django.db import OperationalError, connection, transaction

from shop.models import StoreSettings

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite backend's writer lock"),
]


def _held() -> bool:
    """Whether some transaction holds the writer lock (tried from a file of our own)."""
    probe = os.open(f"{connection.settings_dict['NAME']}-writer.lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(probe)
    return False


def test_a_transaction_holds_the_lock_until_it_commits():
    assert not _held()
    with transaction.atomic():
        StoreSettings.objects.update(maintenance_mode=False)
        assert _held()
    assert not _held()


def test_and_until_it_rolls_back():
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        assert _held()
        1 / 0
    assert not _held()


def test_a_writer_that_waits_past_the_busy_timeout_is_told_the_database_is_locked(monkeypatch):
    probe = os.open(f"{connection.settings_dict['NAME']}-writer.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(probe, fcntl.LOCK_EX)  # another process's transaction
    monkeypatch.setitem(connection.settings_dict["OPTIONS"], "timeout", 0.05)
    try:
        with pytest.raises(OperationalError, match="database is locked"), transaction.atomic():
            pass
        assert not connection.in_atomic_block
    finally:
        os.close(probe)
    with transaction.atomic():  # and the next one, once it is free, goes in
        StoreSettings.objects.update(maintenance_mode=False)
