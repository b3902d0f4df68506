"""The store's time zone (StoreSettings.timezone, set in the dashboard's settings): the one place that
turns it into a zone. Days and hours the shop counts by (the dashboard's figures, its date filters, its
exports, delivery dates) are the store's, not settings.TIME_ZONE's (the zone the server was set up in).

So is every date and time the shop shows: StoreTimeZoneMiddleware makes the store's zone Django's current
one for each request, and shop.celery.StoreTimeTask for each background job, so templates and code that
format with the current zone (the `date` filter, orders.delivery.day_label) need nothing of their own."""

from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone


@lru_cache(maxsize=16)
def zone_named(name: str) -> ZoneInfo:
    """The zone called `name`; settings.TIME_ZONE when there is none of that name (a stored zone the
    settings form would refuse now must not break a page)."""
    try:
        return ZoneInfo(name)
    except Exception:  # ZoneInfoNotFoundError, ValueError for a malformed key
        return ZoneInfo(settings.TIME_ZONE)


def store_zone(store=None) -> ZoneInfo:
    """The store's time zone (`store`: a StoreSettings row already read, else it is read)."""
    if store is None:
        # shop.store_settings imports orders.delivery, which imports this module
        from shop.store_settings import store_settings_get  # noqa: PLC0415

        store = store_settings_get()
    return zone_named(store.timezone or settings.TIME_ZONE)


def store_localtime(moment: datetime, zone: ZoneInfo | None = None) -> datetime:
    """`moment` as the store's wall-clock time."""
    return timezone.localtime(moment, zone or store_zone())


def store_localdate(moment: datetime | None = None, zone: ZoneInfo | None = None) -> date:
    """The store's calendar day that holds `moment` (now when None)."""
    return store_localtime(moment or timezone.now(), zone).date()


def store_day_start(day: date, zone: ZoneInfo | None = None) -> datetime:
    """The first moment of the store's calendar day `day` (01:00 on a day whose midnight the clocks skip)."""
    return timezone.make_aware(datetime.combine(day, time.min), zone or store_zone())


def store_day_end(day: date, zone: ZoneInfo | None = None) -> datetime:
    """The last whole second of the store's day `day`: a second before the next day starts (on the day the
    clocks go back that is the second 23:59:59, an hour after the first)."""
    zone = zone or store_zone()
    # counted in UTC: arithmetic on a local time counts wall-clock hours, and would land on the first 23:59:59
    return store_localtime(store_day_start(day + timedelta(days=1), zone).astimezone(UTC) - timedelta(seconds=1),
                           zone)


def store_time_active(store=None) -> timezone.override:
    """Show dates and times in the store's zone inside `with` (Django's current time zone: the `date` filter,
    {% now %}, timezone.localtime and localdate, DRF's datetimes); the zone before it afterwards."""
    return timezone.override(store_zone(store))


# paths that show no date and read no store setting: a request to them reads none for the zone either
_NO_DATES = ("/static/", "/media/", "/healthz", "/lang/")


class StoreTimeZoneMiddleware:
    """Every date and time a request shows (pages, invoices, e-mails it sends) is the store's.

    Right after shop.middleware.MaintenanceModeMiddleware, which has read the store settings for every
    storefront path, once per request (shop.request_scope): the zone costs no read of its own. Pages kept
    by shop.page_cache were rendered in the zone, and a settings change (a new zone) drops them."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(_NO_DATES):
            return self.get_response(request)
        with store_time_active():
            return self.get_response(request)
