"""A Redis cache that fails open: while Redis is unreachable, every read is a miss.

Everything the shop keeps in the shared cache (store settings, exchange rates,
the page cache, catalogue fragments, rate-limit counters) can be rebuilt from
the database, so an unreachable Redis must slow nothing down and break nothing.
Django's RedisCache raises on a refused or timed-out connection; this one
answers as if the key were missing (reads) or silently drops the write, logs
once a minute, and stops calling Redis for RETRY_SECONDS after a failure, so
that an outage costs a page no more than one short connect timeout.

A write that could not reach Redis leaves whatever Redis held before (an old
copy of the settings, a session from before a sign-out): such keys are
remembered and deleted as soon as Redis answers again, so stale values never
outlive the outage in this process.
"""

import logging
import time
from contextlib import contextmanager

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import OutOfMemoryError, ReadOnlyError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from shop.redis_watch import KeyWatch

log = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
# a Redis that answers but writes nothing: out of memory under `noeviction` (OOM), a replica after a failover
# (READONLY), its disk full so that it cannot save (MISCONF, a plain ResponseError); a script's write refused
# names the same reason in its error
REFUSING_WRITES = (OutOfMemoryError, ReadOnlyError)
_REFUSAL_WORDS = ("OOM", "READONLY", "MISCONF", "maxmemory", "read only replica")


def redis_failing(exc):
    """Whether `exc` says Redis cannot serve the cache: unreachable, or refusing every write. The cache
    then fails open the same way; any other error (a bug of ours) is raised."""
    if isinstance(exc, UNREACHABLE + REFUSING_WRITES):
        return True
    return isinstance(exc, ResponseError) and any(word in str(exc) for word in _REFUSAL_WORDS)
LOG_EVERY_SECONDS = 60
MAX_PENDING_DELETES = 10_000

# FailOpenRedisCache.count_hits: each key made with a life of ARGV[1] seconds if missing, then counted
COUNT_HITS_SCRIPT = """
local counts = {}
for i, key in ipairs(KEYS) do
    redis.call('SET', key, 0, 'EX', ARGV[1], 'NX')
    counts[i] = redis.call('INCR', key)
end
return counts
"""


class ReusedRedisClient(RedisCacheClient):
    """Django's Redis client with one `redis.Redis` per connection pool, made once.

    Django builds a new `redis.Redis` for every cache call, and each one fills a table of some 250
    reply handlers: with four or five cache reads a request that was a third of the CPU of a page
    stitched for a visitor with a session. A `redis.Redis` is safe to share between threads (each
    command takes a connection from the pool) and its pool reconnects after a fork.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)  # kept by Django for the life of the process
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class FailOpenRedisCache(RedisCache):
    def __init__(self, server, params):
        options = dict(params.get("OPTIONS") or {})
        self.retry_seconds = float(options.pop("RETRY_SECONDS", 2))
        watched = options.pop("WATCHED_KEYS", ())
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = ReusedRedisClient
        self._count_script = None
        self._down_until = 0.0
        self._logged_at = 0.0
        self._pending_deletes = set()
        self._watch = KeyWatch(watched, [self.make_and_validate_key(key) for key in watched],
                               self._new_connection, self.retry_seconds) if watched else None

    def _new_connection(self):
        """A connection of its own to this cache's Redis, in RESP3 (for shop.redis_watch)."""
        pool = self._cache._get_connection_pool(write=False)
        return pool.connection_class(**{**pool.connection_kwargs, "protocol": 3})

    # --- bookkeeping ------------------------------------------------------
    def _remember(self, keys):
        if keys and len(self._pending_deletes) < MAX_PENDING_DELETES:
            self._pending_deletes.update(keys)

    def _failed(self, operation, exc):
        now = time.monotonic()
        self._down_until = now + self.retry_seconds
        if now - self._logged_at >= LOG_EVERY_SECONDS:
            self._logged_at = now
            log.warning("Redis cache unreachable or refusing writes (%s: %s); serving without it", operation, exc)

    def _available(self):
        """False while a recent failure says Redis is down; else clear what went stale."""
        if time.monotonic() < self._down_until:
            return False
        if self._pending_deletes:
            stale, self._pending_deletes = self._pending_deletes, set()
            with self._failing_open("delete_many"):
                super().delete_many(list(stale))
                log.warning("Redis cache reachable again; %d stale keys dropped", len(stale))
                return True
            self._remember(stale)
            return False
        return True

    @contextmanager
    def _failing_open(self, operation):
        """Run the block; when Redis cannot serve it (redis_failing), note the failure and go on after the
        block, which then answers as if Redis were away. Any other error (a bug of ours) is raised."""
        try:
            yield
        except (*UNREACHABLE, ResponseError) as exc:
            if not redis_failing(exc):
                raise
            self._failed(operation, exc)

    def _call(self, operation, written_keys, fallback, *args):
        """Run RedisCache.<operation>; on an outage remember the keys it would have written."""
        if self._watch is not None and not self._watch.keys.isdisjoint(written_keys):
            self._watch.drop()  # this process's own change: not to wait for Redis's message about it
        if not self._available():
            self._remember(written_keys)
            return fallback
        with self._failing_open(operation):
            return getattr(super(), operation)(*args)
        self._remember(written_keys)
        return fallback

    # --- the cache API ----------------------------------------------------
    def get(self, key, default=None, version=None):
        if self._watch is not None and key in self._watch.keys and version is None:
            return self.get_many([key]).get(key, default)
        return self._call("get", (), default, key, default, version)

    def get_many(self, keys, version=None):
        keys = list(keys)
        if (self._watch is not None and version is None and not self._watch.keys.isdisjoint(keys)
                and self._available()):
            # watched keys from this process's copies while Redis says they are unchanged (shop.redis_watch)
            return self._watch.get_many(keys, lambda rest: self._call("get_many", (), {}, rest, None))
        return self._call("get_many", (), {}, keys, version)

    def has_key(self, key, version=None):
        return self._call("has_key", (), False, key, version)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("add", (key,), False, key, value, timeout, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set", (key,), None, key, value, timeout, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set_many", tuple(data), [], data, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("touch", (), False, key, timeout, version)

    def delete(self, key, version=None):
        return self._call("delete", (key,), False, key, version)

    def delete_many(self, keys, version=None):
        return self._call("delete_many", tuple(keys), None, keys, version)

    def clear(self):
        if self._watch is not None:
            self._watch.drop()
        return self._call("clear", (), None)

    def forget_all(self):
        """Delete this cache's own keys (the KEY_PREFIX's), nothing else: `clear()` flushes the whole Redis
        database, and the job queue lives in the same one (REDIS_URL)."""
        if self._watch is not None:
            self._watch.drop()
        client = self._cache.get_client(None, write=True)
        keys = list(client.scan_iter(match=f"{self.key_prefix}:*", count=1000))
        for start in range(0, len(keys), 500):
            client.delete(*keys[start:start + 500])

    def incr(self, key, delta=1, version=None):
        # a counter that cannot be read counts from zero: rate limits and
        # lockouts are degraded (never blocking) while Redis is down
        return self._call("incr", (key,), delta, key, delta, version)

    def count_hits(self, keys, seconds):
        """Add one to each counter in `keys`, one made with a life of `seconds` when missing; their counts.

        One command for them all (a rate-limited write counts its address and its session; `incr`
        alone is two round trips each, EXISTS then INCR): a script, which Redis runs whole, so a
        counter never outlives its window without an expiry, and which costs this process one
        command to write and read where a MULTI/EXEC pipeline of the same cost six. While Redis
        is down every count is 0: nothing is limited.
        """
        if not self._available():
            return [0] * len(keys)
        with self._failing_open("count_hits"):
            client = self._cache.get_client(write=True)
            if self._count_script is None or self._count_script.registered_client is not client:
                self._count_script = client.register_script(COUNT_HITS_SCRIPT)
            return self._count_script(keys=[self.make_and_validate_key(key) for key in keys], args=[seconds])
        return [0] * len(keys)


def cache_forget_all(backend):
    """Empty the shop's shared cache `backend` (after a restore: nothing cached from the data it replaced)."""
    if isinstance(backend, FailOpenRedisCache):
        backend.forget_all()
    else:
        backend.clear()
