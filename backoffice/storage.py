"""Storage management: snapshots of the shop's main tables in the shared cache.

The old app kept a local copy of its remote tables; here the database is the
truth and the shared cache (Redis, or the file/database cache every process
shares) holds read snapshots of the tables the storefront reads most. The
Owner sees per table whether it is cached, how many rows and how old, and can
refresh, clear, switch caching off or pick the refresh interval. The
configuration lives in the same shared cache without expiry.
"""

from django.core.cache import cache
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from backoffice import audit_texts as texts
from backoffice.audit import audit_record
from backoffice.audit_texts import audit_text
from catalog.models import Category, Product
from shop.health import database_ok
from shop.models import Announcement, ExchangeRate, StoreSettings

INTERVALS = (1, 5, 10, 15, 30, 60)  # minutes (spec 9)
DEFAULT_CONFIG = {"enabled": True, "refresh_interval": 5}
_CONFIG_KEY = "backoffice:storage:config"
_TABLE_KEY = "backoffice:storage:table:{}"


def _tables():

    return {
        "products": lambda: list(Product.objects.values("id", "slug", "stock", "price_amount", "is_active")),
        "categories": lambda: list(Category.objects.values("id", "slug", "position")),
        "announcements": lambda: list(Announcement.objects.filter(is_active=True).values("id", "title")),
        "settings": lambda: list(StoreSettings.objects.values("id", "store_name", "maintenance_mode")),
        "exchange_rates": lambda: list(ExchangeRate.objects.values("from_currency", "to_currency", "rate")),
    }


def storage_config():
    return {**DEFAULT_CONFIG, **(cache.get(_CONFIG_KEY) or {})}


def storage_status():
    """Status per table (spec 3 'Storage status'): cached, itemCount, age in seconds."""

    config = storage_config()
    now = timezone.now()
    rows = []
    for table in _tables():
        entry = cache.get(_TABLE_KEY.format(table))
        cached_at = parse_datetime(entry["cached_at"]) if entry else None
        age = int((now - cached_at).total_seconds()) if cached_at else None
        rows.append({
            "table": table,
            "cached": entry is not None,
            "item_count": len(entry["items"]) if entry else 0,
            "age": age,
            "stale": age is None or age > config["refresh_interval"] * 60,
        })
    return {**config, "database_available": database_ok(), "intervals": list(INTERVALS), "cache_status": rows}


def storage_refresh(*, actor=None):
    """Snapshot every table into the shared cache (when caching is enabled)."""
    config = storage_config()
    if config["enabled"]:
        stamp = timezone.now().isoformat()
        for table, load in _tables().items():
            cache.set(_TABLE_KEY.format(table), {"items": _plain(load()), "cached_at": stamp}, timeout=None)
    if actor is not None:
        audit_record(actor=actor, action="storage.refresh", details=texts.ALL_TABLES)
    return storage_status()


def storage_clear(*, actor):
    cache.delete_many([_TABLE_KEY.format(t) for t in _tables()])
    audit_record(actor=actor, action="storage.clear", details=texts.ALL_TABLES)
    return storage_status()


def storage_configure(*, actor, enabled, refresh_interval=None):
    config = storage_config()
    config["enabled"] = bool(enabled)
    if refresh_interval is not None:
        config["refresh_interval"] = refresh_interval
    cache.set(_CONFIG_KEY, config, timeout=None)
    if not config["enabled"]:
        cache.delete_many([_TABLE_KEY.format(t) for t in _tables()])
    audit_record(actor=actor, action="storage.config",
                 details=audit_text(texts.STORAGE_ON if config["enabled"] else texts.STORAGE_OFF,
                                    interval=config["refresh_interval"]))
    return storage_status()


def _plain(rows):
    """Make rows cache-safe for every backend (Decimals as text)."""
    return [{k: (str(v) if not isinstance(v, (int, bool, str, type(None))) else v) for k, v in row.items()}
            for row in rows]
