"""A version number for everything the catalogue shows, so rendered fragments can be
cached in the shared cache and dropped at once when a product or review changes."""

from django.core.cache import cache

VERSION_KEY = "catalog:version"
# A write that bypasses the services (a data fix in the Django admin) shows within this time.
FRAGMENT_SECONDS = 120


def catalog_version():
    version = cache.get(VERSION_KEY)
    if version is None:
        cache.add(VERSION_KEY, 1, None)
        version = cache.get(VERSION_KEY) or 1
    return version


def catalog_changed():
    """Call after any write that changes what a product card or page shows."""
    try:
        cache.incr(VERSION_KEY)
    except ValueError:  # not set yet (or evicted)
        cache.set(VERSION_KEY, 2, None)


def catalog_changed_now_and_on_commit():
    """Bump the version now, and again once the transaction commits.

    The second bump stops a request that read the old rows before the commit
    from caching them under the new version.
    """
    from django.db import transaction

    catalog_changed()
    transaction.on_commit(catalog_changed)
