"""Read the store settings through the shared cache."""

from django.core.cache import cache

from shop.models import STORE_SETTINGS_CACHE_KEY, StoreSettings
from shop.validation import NAME_MAX, clean_text, clean_url

SOCIAL_NETWORKS = ("facebook", "instagram", "twitter")

CACHE_SECONDS = 300


def store_settings_get():
    """Return the StoreSettings row, creating it with the defaults if missing."""
    settings = cache.get(STORE_SETTINGS_CACHE_KEY)
    if settings is None:
        settings, _ = StoreSettings.objects.get_or_create(pk=1)
        cache.set(STORE_SETTINGS_CACHE_KEY, settings, CACHE_SECONDS)
    return settings


def store_settings_update(**fields):
    """Change settings fields and save (which also drops the shared cache)."""
    if "store_name" in fields:
        # the store name goes into every e-mail subject: one line, no control characters
        fields["store_name"] = clean_text(fields["store_name"], field="store_name", max_length=NAME_MAX)
    if "social_media" in fields:
        fields["social_media"] = social_links_clean(fields["social_media"])
    settings, _ = StoreSettings.objects.get_or_create(pk=1)
    for name, value in fields.items():
        setattr(settings, name, value)
    settings.full_clean()
    settings.save()
    return settings


def social_links_clean(links):
    """The social profile links as stored: absolute http(s) addresses or blank."""
    links = links if isinstance(links, dict) else {}
    return {name: clean_url(links.get(name, ""), field=f"social_media.{name}", allow_relative=False)
            for name in SOCIAL_NETWORKS}
