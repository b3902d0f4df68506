"""The file cache (a shop without Redis) counts its folder now and then, and still stays bounded."""

import os
import pickle
import shutil
import time
from decimal import Decimal

import pytest
from django.core.cache import caches
from django.core.cache.backends.filebased import FileBasedCache

from shop.file_cache import FileCache


@pytest.fixture
def small_cache(tmp_path):
    return FileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 30}})


def test_a_write_does_not_list_the_folder_each_time(small_cache, monkeypatch):
    listed = []
    monkeypatch.setattr(small_cache, "_list_cache_files", lambda: listed.append(1) or [])
    for n in range(FileCache.CULL_CHECK_EVERY * 2):
        small_cache.set(f"key-{n}", n)
    assert len(listed) == 2


def test_past_its_entries_a_third_goes_at_the_next_count(small_cache, monkeypatch):
    monkeypatch.setattr(FileCache, "CULL_CHECK_EVERY", 10)
    counts = []
    for n in range(200):
        small_cache.set(f"key-{n}", n)
        counts.append(len(small_cache._list_cache_files()))
    assert max(counts) <= 30 + 10
    assert max(counts) > 30  # it did fill up between counts, and was culled back


def test_the_shop_without_redis_keeps_ten_thousand_entries(settings):
    if "FileCache" not in settings.CACHES["default"]["BACKEND"]:
        pytest.skip("Redis is the shared cache")
    assert caches["default"]._max_entries == 10_000


def test_a_key_s_file_name_is_worked_out_once(small_cache, monkeypatch):
    hashed = []
    make_key = small_cache.make_and_validate_key
    monkeypatch.setattr(small_cache, "make_and_validate_key", lambda key, version=None: hashed.append(key) or make_key(
        key, version=version))
    small_cache.set("a", 1)
    small_cache.set("b", 2, version=2)
    for _ in range(3):
        assert small_cache.get_many(["a", "b"]) == {"a": 1}
        assert small_cache.get("b", version=2) == 2
    assert hashed == ["a", "b", "b"]  # "b" once in version 2, once in the default version
    small_cache.delete("a")
    assert small_cache.get("a") is None


def test_the_kept_file_names_are_bounded(small_cache, monkeypatch):
    monkeypatch.setattr(FileCache, "FILE_NAMES_KEPT", 5)
    for n in range(12):
        small_cache.set(f"session-{n}", n)
    assert len(small_cache._file_names) <= 5
    assert [small_cache.get(f"session-{n}") for n in range(12)] == list(range(12))


def test_counting_makes_the_folder_once_and_only_when_it_is_missing(tmp_path, monkeypatch):
    cache = FileCache(str(tmp_path / "gone"), {})
    shutil.rmtree(tmp_path / "gone", ignore_errors=True)  # removed by hand while the shop runs
    made = []
    make = cache._createdir
    monkeypatch.setattr(cache, "_createdir", lambda: made.append(1) or make())
    assert [cache.count_hits(["a", "b"], 60) for _ in range(3)] == [[1, 1], [2, 2], [3, 3]]
    assert made == [1]  # the first count found no folder; no later one looked for it


def test_a_read_gets_what_django_s_file_cache_gets(small_cache, tmp_path, monkeypatch):
    django_s = FileBasedCache(str(tmp_path), {})  # the same folder: each reads the other's files
    page = "".join(f"<p>{n}</p>" for n in range(60_000))  # compressed, still over one 64 KiB read
    values = {"small": 1, "none": None, "settings": {"rate": Decimal("45.00")}, "page": page, "bytes": b"\x00" * 9}
    for key, value in values.items():
        django_s.set(key, value, timeout=None if key == "none" else 60)
    assert os.path.getsize(small_cache._key_to_file("page")) > 65536
    for key, value in values.items():
        assert small_cache.get(key, "missing") == django_s.get(key, "missing") == value
    assert small_cache.get("never-set", "missing") == "missing"
    open(small_cache._key_to_file("empty"), "wb").close()  # an empty file is expired, and goes
    assert small_cache.get("empty", "missing") == "missing"
    assert not os.path.exists(small_cache._key_to_file("empty"))
    small_cache.set("soon", 1, timeout=5)
    monkeypatch.setattr(time, "time", lambda: time.monotonic() + 2e9)  # long after it expired
    assert small_cache.get("soon", "missing") == "missing"
    assert not os.path.exists(small_cache._key_to_file("soon"))
    assert small_cache.get("none", "missing") is None  # no expiry: kept whatever the time


def test_a_small_value_is_stored_uncompressed_in_a_form_django_s_cache_reads(small_cache, tmp_path):
    django_s = FileBasedCache(str(tmp_path), {})
    small = {"rate": Decimal("45.00"), "text": "store settings " * 50}  # compresses well, but is small
    page = "<p>tea</p>" * 1000
    small_cache.set("small", small, 60)
    small_cache.set("page", page, 60)
    assert os.path.getsize(small_cache._key_to_file("small")) > len(pickle.dumps(small))  # not compressed
    assert os.path.getsize(small_cache._key_to_file("page")) < len(page) / 10  # compressed
    for key, value in (("small", small), ("page", page)):
        assert django_s.get(key) == small_cache.get(key) == value
    assert small_cache.touch("small", 120) and django_s.get("small") == small
