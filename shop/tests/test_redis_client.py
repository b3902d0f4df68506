"""The Redis cache makes one `redis.Redis` per connection pool, not one per call (issue 14: building one
was a third of the CPU of a page stitched for a visitor with a session)."""

import os
import threading

import pytest
import redis

from shop.cache import FailOpenRedisCache


def _cache(url):
    return FailOpenRedisCache(url, {"OPTIONS": {"RETRY_SECONDS": 0, "socket_connect_timeout": 0.05,
                                                 "socket_timeout": 0.5}})


def test_every_call_shares_one_client(monkeypatch):
    made = []

    class CountedRedis(redis.Redis):
        def __init__(self, *args, **kwargs):
            made.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(redis, "Redis", CountedRedis)
    cache = _cache("redis://127.0.0.1:1/0")  # nothing listens: every call fails open, after asking
    for n in range(5):
        cache.set(f"k{n}", n)
        assert cache.get(f"k{n}") is None
        cache.delete(f"k{n}")
    assert len(made) == 1


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs the Redis of the PostgreSQL + Redis run")
def test_the_shared_client_serves_threads_at_once():
    cache = _cache(os.environ["REDIS_URL"])
    prefix = f"test-client-{os.getpid()}"
    errors = []
    cache.set(f"{prefix}:count", 0)

    def work(n):
        try:
            for i in range(50):
                cache.set(f"{prefix}:{n}:{i}", (n, i))
                assert cache.get(f"{prefix}:{n}:{i}") == (n, i)
                cache.incr(f"{prefix}:count")
        except Exception as exc:  # noqa: BLE001 (collected for the main thread)
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert cache.get(f"{prefix}:7:49") == (7, 49) and cache.get(f"{prefix}:count") == 8 * 50
    cache.delete_many([f"{prefix}:{n}:{i}" for n in range(8) for i in range(50)] + [f"{prefix}:count"])
