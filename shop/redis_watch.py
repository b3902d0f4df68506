"""Copies of a few shared-cache keys in this process, kept while Redis says they are unchanged (issue 14).

A stored page is served only while the catalogue version it was stored under is current, so every hit
asked Redis for the version: one round trip per page, on PostgreSQL + Redis most of what a hit costs.
Redis can instead tell a client when keys change (server-assisted client-side caching, `CLIENT
TRACKING`, Redis 6 and later). A `KeyWatch` holds one connection on which Redis was asked to track the
watched keys (BCAST mode: every change to them, whoever reads them) and then sends a message whenever
one is written, deleted, expires or is evicted, or the database is flushed. While that connection is up
and nothing has arrived on it, a copy read after it was opened is still what Redis holds.

Anything arriving, a lost connection or an error drops every copy, and the next read asks Redis again.
Redis queues the message before it answers the write, so by the time the writer's request is answered
the message is waiting here; checking for it is one poll of the socket. A flush's message can come a
moment after the flush's answer (2 reads in 3,000 made at once found the old copy), which is no later
than a read begun a moment earlier would have been. A copy is also kept at most
MAX_AGE_SECONDS, which bounds what a connection that died without a word (a network partition) could
cost. Writes made through this cache object drop the copies at once (FailOpenRedisCache).

Django makes a cache object per thread, so a watch is only ever used by one thread.
"""

import logging
import os
import time
from collections.abc import Callable, Iterable
from typing import Any

from redis.exceptions import RedisError, ResponseError

log = logging.getLogger(__name__)

MAX_AGE_SECONDS = 1.0


class KeyWatch:
    def __init__(self, keys: Iterable[str], redis_keys: Iterable[str], connect: Callable[[], Any],
                 retry_seconds: float) -> None:
        """`keys`: the cache's names for the watched keys; `redis_keys`: the same, as stored in Redis;
        `connect()`: a new connection to the cache's Redis (not from its pool); `retry_seconds`: how long
        to read without copies after the connection could not be opened or was lost."""
        self.keys = frozenset(keys)
        self._redis_keys = tuple(redis_keys)
        self._connect = connect
        self._retry_seconds = retry_seconds
        self._retry_at = 0.0
        self._unsupported = False  # the server refused to track (older than Redis 6, or a proxy)
        self._connection: Any = None
        self._pid = 0
        self._copies: dict[str, tuple[Any, float]] = {}
        self._generation = 0  # moves whenever the copies are dropped

    def get_many(self, keys: list[str], read: Callable[[list[str]], dict[str, Any]]) -> dict[str, Any]:
        """The values of `keys`: watched keys from their copies while those hold, the rest by `read(rest)`."""
        now = time.monotonic()
        watching = self._watching()
        found = {}
        if watching:
            for key in keys:
                copy = self._copies.get(key)
                if copy is not None and now - copy[1] < MAX_AGE_SECONDS:
                    found[key] = copy[0]
        rest = [key for key in keys if key not in found]
        if rest:
            generation = self._generation
            values = read(rest)
            to_keep = [key for key in rest if key in self.keys and values.get(key) is not None]
            # kept only when nothing arrived while reading: a message then may be about what was read
            if to_keep and watching and self._watching() and self._generation == generation:
                for key in to_keep:
                    self._copies[key] = (values[key], now)
            found.update(values)
        return found

    def drop(self) -> None:
        """Forget every copy (this process changed a watched key, or the cache was cleared)."""
        self._copies.clear()
        self._generation += 1

    def _start(self) -> None:
        """Open the watching connection. Raises on failure, with nothing left open."""
        self.stop()
        self._connection, self._pid = self._connect(), os.getpid()
        try:
            self._connection.connect()
            prefixes = [arg for key in self._redis_keys for arg in ("PREFIX", key)]
            self._connection.send_command("CLIENT", "TRACKING", "ON", "BCAST", *prefixes)
            self._connection.read_response()
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Close the watching connection and forget every copy; the next read opens it again."""
        connection, self._connection = self._connection, None
        self.drop()
        if connection is not None:
            try:
                connection.disconnect()  # in a forked child this closes the copy of the socket only
            except (RedisError, OSError):
                pass

    def _watching(self) -> bool:
        """True when copies can be trusted: the connection is up (opened if need be) and nothing is news.

        Whatever has arrived is read and drops the copies. An error closes the connection, and the
        keys are read from Redis for `retry_seconds` before it is opened again.
        """
        if self._unsupported:
            return False
        try:
            if self._connection is None or self._pid != os.getpid():
                if time.monotonic() < self._retry_at:
                    return False
                self._start()
            elif self._connection.can_read(0):
                self.drop()
                while self._connection.can_read(0):
                    self._connection.read_response(push_request=True)
            return True
        except ResponseError as exc:
            log.warning("Redis does not track keys (%s); the watched keys are read from Redis every time", exc)
            self._unsupported = True
        except (RedisError, OSError) as exc:
            log.info("Redis key watch closed (%s); reading the watched keys from Redis for a while", exc)
            self._retry_at = time.monotonic() + self._retry_seconds
        self.stop()
        return False
