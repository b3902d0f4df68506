"""A version number for everything the catalogue shows, so rendered fragments can be
cached in the shared cache and dropped at once when a product or review changes."""

import secrets

from django.core.cache import cache
from django.db import transaction

from shop.request_scope import shared_forget, shared_get, shared_put

VERSION_KEY = "catalog:version"
# A write that bypasses the services (a data fix in the Django admin) shows within this time.
FRAGMENT_SECONDS = 120


def _first_version() -> int:
    # a random start, never a number used before: pages kept in a process's memory
    # (shop.page_cache) must not match again after the shared cache was flushed
    return secrets.randbits(48)


def catalog_version() -> int:
    version = shared_get(VERSION_KEY)
    if version is None:
        cache.add(VERSION_KEY, _first_version(), None)
        version = cache.get(VERSION_KEY) or _first_version()
        shared_put(VERSION_KEY, version)
    return int(version)


def catalog_changed() -> None:
    """Call after any write that changes what a product card or page shows."""
    shared_forget(VERSION_KEY)
    try:
        cache.incr(VERSION_KEY)
    except ValueError:  # not set yet (or evicted)
        cache.set(VERSION_KEY, _first_version(), None)


def catalog_changed_now_and_on_commit() -> None:
    """Bump the version now, and again once the transaction commits.

    The second bump stops a request that read the old rows before the commit
    from caching them under the new version.
    """

    catalog_changed()
    transaction.on_commit(catalog_changed)
