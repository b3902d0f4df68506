"""Django's SQLite backend whose writers queue on a file lock instead of sleeping in SQLite's busy handler.

SQLite lets one transaction write at a time. Another writer's BEGIN IMMEDIATE finds the database
locked and SQLite's busy handler sleeps and tries again, after 1, 2, 5, 10, 15, 20, 25, 25, 25, 50,
50, then 100 ms a time: a write that held the lock for a millisecond kept the one behind it asleep
for ten (issue 14: with three web processes, cart writes ran at half the rate their CPU allowed, with
a p99 of 0.5 to 0.9 s). So a transaction first takes an exclusive `flock` on a file beside the
database, and lets it go when the transaction ends; a waiter tries the file again every half
millisecond, so it goes in at most that long after the writer before it is done. Writes outside a
transaction (autocommit) still wait in SQLite's busy handler; they never wait for the file, so
nothing waits in a circle. The file only orders the writers:
SQLite's own lock still guards the data, so a process that shares another's open file (a fork after
connecting) is merely not ordered.

Its cursor also remembers each statement's placeholders in SQLite's style (CursorWrapper).
"""

import fcntl
import os
import time
from functools import lru_cache

from django.db import OperationalError
from django.db.backends.sqlite3.base import FORMAT_QMARK_REGEX, SQLiteCursorWrapper
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteDatabaseWrapper

# how long a waiting writer sleeps between tries at most: the file is polled (`flock` cannot time
# out), and the wait is bounded by the database's busy timeout like SQLite's own
POLL_SECONDS = 0.0005


@lru_cache(maxsize=1024)
def _qmark_style(query):
    return FORMAT_QMARK_REGEX.sub("?", query).replace("%%", "%")


class CursorWrapper(SQLiteCursorWrapper):
    """Django's, with each statement's placeholders turned into SQLite's once per process: Django runs
    a regular expression over the whole statement at every execution, 4 % of a cart write's
    instructions (its statements name every column of the product; issue 14)."""

    def convert_query(self, query, *, param_names=None):
        if param_names is None:
            return _qmark_style(query)
        return super().convert_query(query, param_names=param_names)


def _others_shut_out(name):
    """Take other accounts' read access off the database file and its WAL files (created with the umask's
    mode: 0644): they hold every customer's address and password hash. The group keeps its access, for
    installs whose processes share a group."""
    for path in (f"{name}", f"{name}-wal", f"{name}-shm"):
        try:
            mode = os.stat(path).st_mode
            if mode & 0o007:
                os.chmod(path, mode & 0o7770)
        except OSError:  # not there (an in-memory database, no WAL yet) or not ours
            continue


class DatabaseWrapper(SQLiteDatabaseWrapper):
    _writer_file: int | None = None

    def get_new_connection(self, conn_params):
        connection = super().get_new_connection(conn_params)
        _others_shut_out(self.settings_dict["NAME"])
        return connection

    def create_cursor(self, name=None):
        return self.connection.cursor(factory=CursorWrapper)

    def _start_transaction_under_autocommit(self):
        self._writer_lock()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._writer_unlock()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._writer_unlock()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._writer_unlock()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._writer_unlock()
            if self._writer_file is not None:
                os.close(self._writer_file)
                self._writer_file = None

    def _writer_lock(self):
        if self.is_in_memory_db():
            return
        if self._writer_file is None:
            self._writer_file = os.open(f"{self.settings_dict['NAME']}-writer.lock", os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + float(self.settings_dict.get("OPTIONS", {}).get("timeout", 5))
        while True:
            try:
                fcntl.flock(self._writer_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise OperationalError("database is locked") from None
                time.sleep(POLL_SECONDS)

    def _writer_unlock(self):
        if self._writer_file is not None:
            fcntl.flock(self._writer_file, fcntl.LOCK_UN)
