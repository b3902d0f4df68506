"""Read the store settings through the shared cache."""

import pickle
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _

from catalog.cache import VERSION_KEY
from orders.delivery import DeliveryError, days_off_clean, holidays_clean, shipping_zones_clean
from shop.models import STORE_SETTINGS_CACHE_KEY, StoreSettings
from shop.request_scope import shared_get, shared_put
from shop.rows import instance_copy
from shop.validation import EMAIL_MAX, LINE_MAX, NAME_MAX, clean_fields, clean_url
from shop.whatsapp import whatsapp_number

SOCIAL_NETWORKS = ("facebook", "instagram", "twitter")
# the store name and e-mail go into every order e-mail's headers: single line
LIMITS = {"store_name": NAME_MAX, "store_email": EMAIL_MAX, "store_phone": 40, "whatsapp_number": 32,
          "tax_registration_number": 40,
          "store_description": (2000, True), "currency": 3, "timezone": 64,
          "store_name_ar": NAME_MAX, "store_description_ar": (2000, True),
          "maintenance_message": (2000, True), "maintenance_message_ar": (2000, True)}
SEO_LIMITS = {"metaTitle": LINE_MAX, "metaDescription": 500, "keywords": 80}

CACHE_SECONDS = 300
# what store_settings_get reads in one round trip: every page that reads one reads the other
_KEYS = (STORE_SETTINGS_CACHE_KEY, VERSION_KEY)


def store_settings_get() -> StoreSettings:
    """Return the StoreSettings row, creating it with the defaults if missing.

    Read once per request (shop.request_scope), with the catalogue version:
    every page that reads one reads the other.
    """
    global _last_unpickled
    payload: bytes | None = shared_get(STORE_SETTINGS_CACHE_KEY, with_keys=_KEYS)
    if payload is None:
        row, _created = StoreSettings.objects.get_or_create(pk=1)
        payload = pickle.dumps(row, pickle.HIGHEST_PROTOCOL)
        cache.set(STORE_SETTINGS_CACHE_KEY, payload, CACHE_SECONDS)
        shared_put(STORE_SETTINGS_CACHE_KEY, payload)
        _last_unpickled = (payload, row)
    return _unpickled(payload)


# Every request reads the settings, and unpickling the row (its Decimals, datetimes and JSON) cost more
# than reading it from the shared cache (about 30 µs, on Redis as on files; issue 14). So the shared cache
# holds the row pickled here, as bytes, and a process unpickles the same bytes once: (bytes, their row).
_last_unpickled: tuple[bytes, StoreSettings] | None = None


def _unpickled(payload: bytes) -> StoreSettings:
    """The row pickled in `payload`, as a copy of the row last unpickled from the same bytes, if any.

    Each caller gets a copy, so a field set on it (and not saved) goes no further; the JSON fields are
    shared between the copies, and nothing changes them in place (store_settings_update sets new ones).
    """
    global _last_unpickled
    last = _last_unpickled
    if last is None or last[0] != payload:
        last = _last_unpickled = (payload, pickle.loads(payload))
    return instance_copy(last[1])


def store_settings_keys(session_key: str, user_id: str | None) -> tuple[str, ...]:
    """The keys store_settings_get reads, named with every session (shop.sessions.SESSION_PREFETCHES).

    A request with a session reads the settings anyway (the maintenance check), but often after the
    session (the user is read at once: shop.middleware.UserAuthenticationMiddleware): named with it,
    they come in the session's round trip, whichever of the two is read first.
    """
    return _KEYS


def store_settings_update(**fields: Any) -> StoreSettings:
    """Change settings fields and save (which also drops the shared cache)."""
    fields = clean_fields(fields, LIMITS)
    if fields.get("social_media") is not None:
        fields["social_media"] = social_links_clean(fields["social_media"])
    if fields.get("seo") is not None:
        names = {"metaTitle": "seo.meta_title", "metaDescription": "seo.meta_description", "keywords": "seo.keywords"}
        fields["seo"] = clean_fields(fields["seo"], SEO_LIMITS, names=names)
    if fields.get("seo_ar") is not None:
        names = {"metaTitle": "seo_ar.meta_title", "metaDescription": "seo_ar.meta_description",
                 "keywords": "seo_ar.keywords"}
        fields["seo_ar"] = clean_fields(fields["seo_ar"], SEO_LIMITS, names=names)
    _delivery_clean(fields)
    settings, _created = StoreSettings.objects.get_or_create(pk=1)
    _delivery_days_check(fields, settings)
    for name, value in fields.items():
        setattr(settings, name, value)
    settings.full_clean()
    settings.save()
    return settings


def social_links_clean(links: object) -> dict[str, str]:
    """The social profile links as stored: absolute http(s) addresses or blank."""
    links = links if isinstance(links, dict) else {}
    return {name: clean_url(links.get(name, ""), field=f"social_media.{name}", allow_relative=False)
            for name in SOCIAL_NETWORKS}


def _delivery_clean(fields: dict[str, Any]) -> None:
    """Delivery table, days off, holidays and the WhatsApp number as stored (orders.delivery owns the rules)."""
    if "shipping_zones" in fields:
        fields["shipping_zones"] = shipping_zones_clean(fields["shipping_zones"])
    if "delivery_days_off" in fields:
        fields["delivery_days_off"] = days_off_clean(fields["delivery_days_off"])
    if "delivery_holidays" in fields:
        fields["delivery_holidays"] = holidays_clean(fields["delivery_holidays"])
    if fields.get("whatsapp_number"):
        number = whatsapp_number(fields["whatsapp_number"])
        if not number:
            raise DeliveryError(_("Please enter a WhatsApp number with its country code, like +20 100 123 4567"),
                                field="whatsappNumber")
        fields["whatsapp_number"] = number


def _delivery_days_check(fields: dict[str, Any], stored: StoreSettings) -> None:
    """Refuse a default delivery window that ends before it starts, a side not sent read as stored.

    A save may send one of the two days (the dashboard sends only what changed): 5 as the shortest
    against a stored longest of 4 would promise shoppers "5 to 4 working days".
    """
    if "delivery_min_days" not in fields and "delivery_max_days" not in fields:
        return
    low = fields.get("delivery_min_days", stored.delivery_min_days)
    high = fields.get("delivery_max_days", stored.delivery_max_days)
    if low is None or high is None or high >= low:
        return
    if "delivery_max_days" in fields:
        raise DeliveryError(_("The longest delivery time cannot be shorter than the shortest"),
                            field="deliveryMaxDays")
    raise DeliveryError(_("The shortest delivery time cannot be longer than the longest"), field="deliveryMinDays")
