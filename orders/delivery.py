"""Delivery by governorate: the shipping rate, the delivery time and cash on delivery
per governorate, and the date a parcel arrives, counted in the store's working days.

The store settings hold a default row (`shipping_rate`, `delivery_min_days`,
`delivery_max_days`, `cod_enabled`) and, in `shipping_zones`, the governorates
staff changed; every other governorate keeps its seeded row (SEEDED). An address
outside Egypt, or no governorate yet, uses the default row. Working days skip the
weekdays in `delivery_days_off` (Friday) and the dates in `delivery_holidays`.
"""

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from django.http import HttpRequest
from django.utils import dateformat, timezone, translation
from django.utils.translation import gettext as _
from rest_framework.request import Request

from accounts.user_cache import user_memo
from orders.places import GOVERNORATES, governorate_stored
from shop.errors import ShopError
from shop.models import StoreSettings
from shop.money import money_text, quantize
from shop.store_time import store_localdate, store_zone
from shop.validation import id_parse

CAIRO = "Cairo"
DAYS_MAX = 60


@dataclass(frozen=True)
class Zone:
    rate: Decimal
    min_days: int
    max_days: int
    cod: bool


def _zone(rate: str, min_days: int, max_days: int, cod: bool = True) -> dict[str, Any]:
    return {"rate": rate, "minDays": min_days, "maxDays": max_days, "cod": cod}


# Greater Cairo is next door; the Delta and the Canal a day further; Upper Egypt,
# the Red Sea, the Sinai, Matrouh and the New Valley are far (COD off in North Sinai).
_FAST, _NEAR = _zone("50.00", 1, 2), _zone("50.00", 2, 3)
_UPPER, _FAR = _zone("70.00", 3, 5), _zone("90.00", 4, 7)
SEEDED = {
    "Cairo": _FAST, "Giza": _FAST, "Qalyubia": _zone("50.00", 1, 3),
    "Alexandria": _NEAR, "Beheira": _NEAR, "Dakahlia": _NEAR, "Damietta": _NEAR, "Gharbia": _NEAR,
    "Kafr El Sheikh": _NEAR, "Monufia": _NEAR, "Sharqia": _NEAR, "Ismailia": _NEAR, "Port Said": _NEAR,
    "Suez": _NEAR, "Fayoum": _zone("60.00", 2, 4), "Beni Suef": _zone("60.00", 2, 4),
    "Minya": _UPPER, "Assiut": _UPPER, "Sohag": _UPPER, "Qena": _UPPER, "Luxor": _UPPER, "Aswan": _UPPER,
    "Red Sea": _FAR, "Matrouh": _FAR, "New Valley": _FAR, "South Sinai": _FAR,
    "North Sinai": _zone("90.00", 4, 7, cod=False),
}


class DeliveryError(ShopError):
    """A delivery setting staff can fix."""


def default_zone(store: StoreSettings) -> Zone:
    return Zone(quantize(store.shipping_rate), store.delivery_min_days, store.delivery_max_days,
                bool(store.cod_enabled))


def _row(name: str, store: StoreSettings) -> dict[str, Any]:
    return {**SEEDED[name], **((store.shipping_zones or {}).get(name) or {})}


def zone_for(*, governorate: str | None, store: StoreSettings) -> Zone:
    """The delivery row for `governorate` (English or Arabic name); the default row otherwise.

    Cash on delivery needs both the governorate's flag and the store's switch.
    """
    name = governorate_stored(governorate)
    if not name:
        return default_zone(store)
    row = _row(name, store)
    return Zone(quantize(Decimal(str(row["rate"]))), int(row["minDays"]), int(row["maxDays"]),
                bool(row["cod"]) and bool(store.cod_enabled))


def shipping_table(store: StoreSettings) -> list[dict[str, Any]]:
    """Every governorate's row as the settings screen and API show it (its own COD flag)."""
    rows = []
    for en, ar in GOVERNORATES:
        row = _row(en, store)
        rows.append({"governorate": en, "nameAr": ar, "rate": money_text(Decimal(str(row["rate"]))),
                     "minDays": int(row["minDays"]), "maxDays": int(row["maxDays"]), "cod": bool(row["cod"])})
    return rows


def shipping_zones_clean(rows: object) -> dict[str, dict[str, Any]]:
    """Staff's table [{governorate, rate, minDays, maxDays, cod}] → the stored `shipping_zones`.

    Only rows that differ from the seeded ones are stored, so a later change of
    the seeds reaches governorates nobody touched.
    """
    if not isinstance(rows, list):
        raise DeliveryError(_("Please check the delivery table"), field="shippingZones")
    stored = {}
    for index, row in enumerate(rows):
        field = f"shippingZones.{index}"
        if not isinstance(row, dict) or row.get("governorate") not in SEEDED:
            raise DeliveryError(_("Please choose a governorate from the list"), field=f"{field}.governorate")
        try:
            typed = Decimal(str(row.get("rate")))
            rate = quantize(typed)
            # stored to the piastre: a third decimal is refused (as the flat shipping rate's), not rounded away
            if not rate.is_finite() or rate < 0 or rate >= Decimal("1e9") or rate != typed:
                raise InvalidOperation
        except (InvalidOperation, ValueError, TypeError):
            raise DeliveryError(_("Please enter a valid amount"), field=f"{field}.rate") from None
        cod = row.get("cod", True)
        if not isinstance(cod, bool):  # the text "false" is not no (bool("false") is True)
            raise DeliveryError(_("Please check the delivery table"), field=f"{field}.cod")
        # the API's camel-case parser hands nested keys over in snake_case
        low = _days(row.get("minDays", row.get("min_days")), f"{field}.minDays")
        high = _days(row.get("maxDays", row.get("max_days")), f"{field}.maxDays")
        if high < low:
            raise DeliveryError(_("The longest delivery time cannot be shorter than the shortest"),
                                field=f"{field}.maxDays")
        clean = _zone(money_text(rate), low, high, cod)
        seeded = SEEDED[row["governorate"]]
        if clean != {**seeded, "rate": money_text(seeded["rate"])}:
            stored[row["governorate"]] = clean
    return stored


def _days(value: object, field: str) -> int:
    # ASCII digits only (Eastern Arabic ones are 0-9 by now): str.isdigit() also takes "²", which int() refused
    days = id_parse(str(value).strip()) if isinstance(value, (int, str)) and not isinstance(value, bool) else None
    if days is None or days > DAYS_MAX:
        raise DeliveryError(_("Please enter a number of working days"), field=field)
    return days


def days_off_clean(values: object) -> list[int]:
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 6
                                               for v in values) or len(set(values)) > 6:
        raise DeliveryError(_("Please choose the days without deliveries"), field="deliveryDaysOff")
    return sorted(set(values))


def holidays_clean(values: object) -> list[str]:
    """Holidays as ISO dates ("2026-12-25"), sorted, without repeats."""
    if not isinstance(values, list) or len(values) > 366:
        raise DeliveryError(_("Please enter holidays as dates like 2026-12-25"), field="deliveryHolidays")
    days = set()
    for value in values:
        try:
            days.add(date.fromisoformat(str(value).strip()).isoformat())
        except ValueError:
            raise DeliveryError(_("Please enter holidays as dates like 2026-12-25"),
                                field="deliveryHolidays") from None
    return sorted(days)


def store_today(store: StoreSettings) -> date:
    return store_localdate(zone=store_zone(store))  # a bad stored zone falls back, never breaks checkout


def add_working_days(start: date, days: int, store: StoreSettings) -> date:
    """The `days`-th working day after `start` (at least the next working day)."""
    return _working_day_after(start, days, frozenset(store.delivery_days_off or []),
                              frozenset(store.delivery_holidays or []))


# every cart answer asks for the same few (a day's start, each zone's days, the store's days off)
@lru_cache(maxsize=256)
def _working_day_after(start: date, days: int, days_off: frozenset[int], holidays: frozenset[str]) -> date:
    day, counted = start, 0
    for _step in range(days * 7 + 400):  # bounded even if staff mark every day a holiday
        day += timedelta(days=1)
        if day.weekday() not in days_off and day.isoformat() not in holidays:
            counted += 1
            if counted >= max(days, 1):
                return day
    return day


def delivery_window(*, governorate: str | None, store: StoreSettings, start: date | None = None) -> tuple[date, date]:
    """(earliest, latest) arrival dates for an order placed on `start` (today in the store's zone)."""
    zone = zone_for(governorate=governorate, store=store)
    start = start or store_today(store)
    return add_working_days(start, zone.min_days, store), add_working_days(start, zone.max_days, store)


def day_label(day: date | datetime, language: str) -> str:
    """"Sun 29 Nov" / "الأحد 29 نوفمبر": names in the language, Latin digits; the day number and its
    month joined by a no-break space, so that a line never ends with "1" and the next begins "Dec".

    A datetime counts as the day it is in the current time zone, the store's (shop.store_time: 23:30 UTC is
    already tomorrow in Cairo)."""
    if isinstance(day, datetime):
        day = (timezone.localtime(day) if timezone.is_aware(day) else day).date()
    with translation.override(language):
        return dateformat.format(day, "l j\u00a0F" if language == "ar" else "D j\u00a0M")


# every cart answer says it, for a handful of windows a day: worked out once per window and language
@lru_cache(maxsize=256)
def window_text(window: tuple[date, date], language: str) -> str:
    """"Arrives Sun 29 Nov – Tue 1 Dec" (one date when both ends are the same day)."""
    earliest, latest = window
    with translation.override(language):
        if earliest == latest:
            return _("Arrives %(date)s") % {"date": day_label(earliest, language)}
        return _("Arrives %(start)s – %(end)s") % {"start": day_label(earliest, language),
                                                    "end": day_label(latest, language)}


def delivery_estimate(*, governorate: str | None, store: StoreSettings, language: str) -> dict[str, Any]:
    """What the cart, checkout and product page show for `governorate`."""
    zone = zone_for(governorate=governorate, store=store)
    window = delivery_window(governorate=governorate, store=store)
    return {"governorate": governorate_stored(governorate), "rate": money_text(zone.rate), "cod": zone.cod,
            "minDays": zone.min_days, "maxDays": zone.max_days,
            "earliest": window[0].isoformat(), "latest": window[1].isoformat(),
            "text": window_text(window, language)}


SESSION_KEY = "governorate"


def shopper_governorate(request: HttpRequest | Request) -> str:
    """The shopper's last governorate this session (or their last order's), else ""."""
    session = getattr(request, "session", None)
    name = governorate_stored(session.get(SESSION_KEY, "")) if session is not None else ""
    user = getattr(request, "user", None)
    if not name and user is not None and user.is_authenticated:
        # read once and kept until the customer's orders change (accounts.user_cache)
        name = user_memo(user, "last-governorate", lambda: governorate_stored(
            user.orders.filter(country="EGY").order_by("-created_at").values_list("state", flat=True).first()))
    return name


def shopper_governorate_remember(request: HttpRequest | Request, governorate: str | None) -> str:
    name = governorate_stored(governorate)
    if name and getattr(request, "session", None) is not None and request.session.get(SESSION_KEY) != name:
        request.session[SESSION_KEY] = name
    return name
