"""Watched keys are answered from this process's copy while Redis says they are unchanged (shop.redis_watch).

The catalogue version is read on every stored page; on PostgreSQL + Redis that round trip was most of
what a hit cost (issue 14). A copy must never outlive a change: a write from another process (another
cache object here), a flush, a lost connection or a server that cannot track keys all send the next
read to Redis.
"""

import os
import time
import uuid

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from shop import redis_watch
from shop.cache import FailOpenRedisCache
from shop.redis_watch import KeyWatch

needs_redis = pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                                 reason="needs the Redis of the PostgreSQL + Redis run")


class FakeConnection:
    """A watching connection: what arrives on it is up to the test."""

    def __init__(self, *, refuse=None):
        self.refuse = refuse
        self.arrived = []
        self.sent = []
        self.closed = False

    def connect(self):
        if isinstance(self.refuse, RedisConnectionError):
            raise self.refuse

    def send_command(self, *args):
        self.sent.append(args)

    def read_response(self, push_request=False):
        if self.sent and self.sent[-1][:2] == ("CLIENT", "TRACKING"):
            self.sent.append(("read",))
            if isinstance(self.refuse, ResponseError):
                raise self.refuse
            return b"OK"
        if not self.arrived:
            raise AssertionError("read with nothing to read")
        message = self.arrived.pop(0)
        if isinstance(message, Exception):
            raise message
        return message

    def can_read(self, timeout=0):
        if self.arrived and isinstance(self.arrived[0], Exception):
            raise self.arrived.pop(0)
        return bool(self.arrived)

    def disconnect(self):
        self.closed = True


class Store:
    """Redis as far as the watch sees it: a dict, and a count of reads."""

    def __init__(self, **values):
        self.values = values
        self.reads = 0

    def read(self, keys):
        self.reads += 1
        return {key: self.values.get(key) for key in keys}


def _watch(connections, retry_seconds=2):
    return KeyWatch(["version"], ["shop:1:version"], lambda: connections.pop(0), retry_seconds)


def test_a_copy_answers_until_something_arrives_on_the_watching_connection():
    connection = FakeConnection()
    watch, store = _watch([connection]), Store(version=1)
    assert watch.get_many(["version"], store.read) == {"version": 1}
    assert connection.sent[0] == ("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "shop:1:version")
    assert watch.get_many(["version"], store.read) == {"version": 1}
    assert store.reads == 1

    store.values["version"] = 2
    connection.arrived.append([b"invalidate", [b"shop:1:version"]])
    assert watch.get_many(["version"], store.read) == {"version": 2}
    assert store.reads == 2
    assert watch.get_many(["version"], store.read) == {"version": 2}
    assert store.reads == 2


def test_only_watched_keys_are_kept_and_the_rest_are_read_in_the_same_call():
    watch, store = _watch([FakeConnection()]), Store(version=1, session="s")
    watch.get_many(["version"], store.read)
    assert watch.get_many(["session", "version"], store.read) == {"session": "s", "version": 1}
    store.values["session"] = "t"
    assert watch.get_many(["session", "version"], store.read) == {"session": "t", "version": 1}
    assert store.reads == 3


def test_a_missing_key_is_not_kept():
    watch, store = _watch([FakeConnection()]), Store()
    assert watch.get_many(["version"], store.read) == {"version": None}
    store.values["version"] = 5
    assert watch.get_many(["version"], store.read) == {"version": 5}


def test_a_change_announced_while_reading_is_not_kept():
    connection = FakeConnection()
    watch, store = _watch([connection]), Store(version=1)

    def read_then_changed(keys):
        found = store.read(keys)
        connection.arrived.append([b"invalidate", [b"shop:1:version"]])  # the change came right after the read
        store.values["version"] = 2
        return found

    assert watch.get_many(["version"], read_then_changed) == {"version": 1}
    assert watch.get_many(["version"], store.read) == {"version": 2}


def test_a_copy_is_read_again_after_its_longest_life(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(redis_watch.time, "monotonic", lambda: now[0])
    watch, store = _watch([FakeConnection()]), Store(version=1)
    watch.get_many(["version"], store.read)
    now[0] += redis_watch.MAX_AGE_SECONDS / 2
    watch.get_many(["version"], store.read)
    assert store.reads == 1
    now[0] += redis_watch.MAX_AGE_SECONDS
    watch.get_many(["version"], store.read)
    assert store.reads == 2


def test_a_lost_connection_drops_the_copies_and_waits_before_opening_another(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(redis_watch.time, "monotonic", lambda: now[0])
    first, second = FakeConnection(), FakeConnection()
    watch, store = _watch([first, second], retry_seconds=2), Store(version=1)
    watch.get_many(["version"], store.read)
    first.arrived.append(RedisConnectionError("Connection closed by server."))
    assert watch.get_many(["version"], store.read) == {"version": 1}
    assert first.closed and store.reads == 2
    now[0] += 1
    watch.get_many(["version"], store.read)
    assert store.reads == 3 and not second.sent  # no copies, and no new connection yet
    now[0] += 2
    watch.get_many(["version"], store.read)
    watch.get_many(["version"], store.read)
    assert second.sent and store.reads == 4


def test_a_server_that_cannot_track_keys_is_read_every_time_without_asking_again():
    refusing = FakeConnection(refuse=ResponseError("unknown subcommand 'TRACKING'"))
    watch, store = _watch([refusing]), Store(version=1)
    for _ in range(3):
        assert watch.get_many(["version"], store.read) == {"version": 1}
    assert store.reads == 3 and refusing.closed


def test_a_forked_process_opens_its_own_connection(monkeypatch):
    parent, child = FakeConnection(), FakeConnection()
    watch, store = _watch([parent, child]), Store(version=1)
    watch.get_many(["version"], store.read)
    monkeypatch.setattr(redis_watch.os, "getpid", lambda: -1)
    watch.get_many(["version"], store.read)
    assert child.sent and store.reads == 2


# --- against Redis ---------------------------------------------------------------------------

def _cache(prefix):
    return FailOpenRedisCache(os.environ["REDIS_URL"], {
        "KEY_PREFIX": prefix,
        "OPTIONS": {"RETRY_SECONDS": 2, "WATCHED_KEYS": ("catalog:version",), "socket_timeout": 1}})


@pytest.fixture
def two_processes():
    """Two cache objects with their own connections, as two web processes have."""
    prefix = f"watch-{uuid.uuid4().hex[:8]}"
    here, there = _cache(prefix), _cache(prefix)
    yield here, there
    there.delete_many(["catalog:version", "other"])
    for each in (here, there):
        if each._watch is not None:
            each._watch.stop()


@needs_redis
def test_another_process_s_change_is_seen_by_the_next_read(two_processes, monkeypatch):
    here, there = two_processes
    monkeypatch.setattr(redis_watch, "MAX_AGE_SECONDS", 3600)  # a slow run keeps its copies too
    there.set("catalog:version", 1, None)
    generations = []  # the watch's count of dropped copies at each read from Redis
    call = here._call

    def reading(operation, *args):
        if operation == "get_many":
            generations.append(here._watch._generation)
        return call(operation, *args)

    monkeypatch.setattr(here, "_call", reading)
    assert here.get("catalog:version") == 1
    for expected in range(2, 202):
        assert here.get("catalog:version") == expected - 1
        there.incr("catalog:version")
        assert here.get("catalog:version") == expected  # at once: no wait, no retry
    # each change read once, every other read from the copy: never two reads without a drop between
    # them (Redis tells every watcher of any flush, so other test processes' cache.clear() drops too)
    assert len(generations) >= 1 + 200
    assert len(set(generations)) == len(generations)


@needs_redis
def test_a_copy_is_not_kept_across_a_delete_an_expiry_or_a_flush(two_processes, monkeypatch):
    here, there = two_processes
    monkeypatch.setattr(redis_watch, "MAX_AGE_SECONDS", 3600)  # only Redis's messages drop the copies
    there.set("catalog:version", 7, None)
    assert here.get("catalog:version") == 7
    there.delete("catalog:version")
    assert here.get("catalog:version") is None
    there.set("catalog:version", 8, 1)
    assert here.get("catalog:version") == 8
    _wait_until_gone(here, seconds=5)  # Redis expires keys in the background: its message comes then
    assert here.get("catalog:version") is None
    there.set("catalog:version", 9, None)
    assert here.get("catalog:version") == 9
    there._cache.get_client(write=True).flushdb()
    # a flush's message can reach this socket a moment after the flush's answer (shop.redis_watch)
    _wait_until_gone(here, seconds=1)
    assert here.get("catalog:version") is None


def _wait_until_gone(cache, *, seconds):
    deadline = time.monotonic() + seconds
    while cache.get("catalog:version") is not None and time.monotonic() < deadline:
        time.sleep(0.005)


@needs_redis
def test_this_process_s_own_change_is_seen_by_its_next_read(two_processes):
    here, _there = two_processes
    here.set("catalog:version", 1, None)
    for expected in range(2, 50):
        assert here.get("catalog:version") == expected - 1
        here.incr("catalog:version")
        assert here.get("catalog:version") == expected


@needs_redis
def test_a_killed_watching_connection_is_replaced_and_nothing_stale_is_served(two_processes):
    here, there = two_processes
    there.set("catalog:version", 1, None)
    assert here.get("catalog:version") == 1
    watching = here._watch._connection
    watching.send_command("CLIENT", "ID")
    there._cache.get_client(write=True).client_kill_filter(_id=watching.read_response())
    there.incr("catalog:version")
    assert here.get("catalog:version") == 2
    here._watch._retry_at = 0  # the wait after a lost connection, over
    assert here.get("catalog:version") == 2
    there.incr("catalog:version")
    assert here.get("catalog:version") == 3


@needs_redis
def test_keys_not_watched_are_always_read_and_no_watching_connection_is_opened_for_them(two_processes):
    here, there = two_processes
    there.set("other", "a")
    assert here.get("other") == "a"
    there.set("other", "b")
    assert here.get("other") == "b" and here.get_many(["other"]) == {"other": "b"}
    assert here._watch._connection is None
