"""KES↔EGP exchange rates: the stored ExchangeRate row is the truth.

This module is the one the storefront and importer read. The importer issue
adds the provider chain that refreshes the row (`rates_refresh`).
"""

import logging
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from catalog.cache import catalog_changed_now_and_on_commit
from shop.models import ExchangeRate
from shop.money import to_decimal
from shop.outbound import DeadlinePassed, call_within, outside_transaction

log = logging.getLogger(__name__)

CACHE_SECONDS = 6 * 60 * 60


@dataclass(frozen=True)
class Rate:
    from_currency: str
    to_currency: str
    rate: Decimal
    last_updated: datetime | None
    source: str
    is_fallback: bool  # no stored rate: the configured fallback is in use


def _cache_key(from_currency: str, to_currency: str) -> str:
    return f"rate:{from_currency}:{to_currency}"


def rate_get(from_currency: str = "KES", to_currency: str = "EGP") -> Rate | None:
    """Return the rate for a pair; EGP→KES is the inverse of KES→EGP; None for a pair we never stored."""
    from_currency, to_currency = from_currency.upper(), to_currency.upper()
    if from_currency == to_currency:
        return Rate(from_currency, to_currency, Decimal("1"), None, "identity", False)
    if (from_currency, to_currency) == ("EGP", "KES"):
        base = kes_egp_rate()
        return Rate("EGP", "KES", Decimal("1") / base.rate, base.last_updated, base.source, base.is_fallback)
    if (from_currency, to_currency) == ("KES", "EGP"):
        return kes_egp_rate()
    return _stored_rate(from_currency, to_currency)


def kes_egp_rate() -> Rate:
    """The KES→EGP rate the shop prices with: the stored one, else the configured fallback."""
    return _stored_rate("KES", "EGP") or Rate(
        "KES", "EGP", Decimal(settings.EXCHANGE_RATE_FALLBACK), None, "fallback", True)


def _stored_rate(from_currency: str, to_currency: str) -> Rate | None:
    key = _cache_key(from_currency, to_currency)
    found: Rate | None = cache.get(key)
    if found is not None:
        return found
    row = ExchangeRate.objects.filter(from_currency=from_currency, to_currency=to_currency).first()
    if row is None:
        return None
    found = Rate(from_currency, to_currency, row.rate, row.last_updated, row.source, False)
    cache.set(key, found, CACHE_SECONDS)
    return found


def rate_forget(from_currency: str = "KES", to_currency: str = "EGP") -> None:
    """Drop the cached copy after the row changes (and the stored pages, which show prices in it)."""
    cache.delete(_cache_key(from_currency.upper(), to_currency.upper()))
    catalog_changed_now_and_on_commit()


# an amount at or past this is no price (the money columns hold 12 digits, two of them piasters): a bad amount
CONVERT_MAX = Decimal("1e10")


def convert(amount: object, rate: object) -> Decimal:
    """Apply the spec's conversion rules: a bad amount gives 0, a bad rate the amount. An amount no price can
    be (CONVERT_MAX or more: "1e30", 10**40) is a bad one; rounding its product to piasters would raise."""
    value = to_decimal(amount)
    if value is None or value <= 0 or value >= CONVERT_MAX:
        return Decimal("0")
    factor = to_decimal(rate)
    if factor is None or factor <= 0:
        return value
    return value * factor


# --- Provider chain ----------------------------------------------------------
#
# Each item of settings.EXCHANGE_RATE_PROVIDERS is `URL#PATH`: URL and PATH may
# hold {from}, {to}, {from_lower}, {to_lower}; PATH is a dotted path into the
# JSON answer. Providers are tried in order and the first good rate wins.

# A KES→EGP rate outside this band is an inverted or garbage answer.
SANE_BANDS = {("KES", "EGP"): (Decimal("0.25"), Decimal("0.60"))}
# A service's rate further than this from the stored one, per day since the stored one was set (a day at
# least), is refused: the stored rate stays and staff are told. Inside the band a wrong answer would
# otherwise reprice the whole catalogue; a real move that large is for staff to confirm by setting the
# rate by hand (`rate_set_by_hand`), and one that persists is followed after a few days (30 % after two).
RATE_MAX_DAILY_MOVE = Decimal("0.15")
HAND_SOURCE = "staff"  # the source of a rate staff set by hand
USER_AGENT = "NileHighlandsTea-rates/1.0 (+https://nilehighlands.example/contact)"


class RateError(Exception):
    """A provider gave no usable rate; `permanent` when retrying cannot help."""

    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent


@dataclass(frozen=True)
class RefreshResult:
    rate: Rate | None
    refreshed: bool  # a provider answered with a good rate just now
    errors: list[str]  # one "source: reason" line per provider that failed
    refused: Decimal | None = None  # a rate refused for moving too far from the stored one (none was taken)


def _fill(template: str, from_currency: str, to_currency: str) -> str:
    return (
        template.replace("{from}", from_currency)
        .replace("{to}", to_currency)
        .replace("{from_lower}", from_currency.lower())
        .replace("{to_lower}", to_currency.lower())
    )


def _dig(data: Any, path: str) -> Any:
    for part in path.split("."):
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, dict) and part.lower() in data:
            data = data[part.lower()]
        elif isinstance(data, dict) and part.upper() in data:
            data = data[part.upper()]
        else:
            raise RateError(f"no '{path}' in the answer", permanent=True)
    return data


def provider_fetch(item: str, from_currency: str, to_currency: str, *, timeout: float | None = None) -> Decimal:
    """Ask one `URL#PATH` provider for a rate; raise RateError when it gives none."""

    url, _, path = item.partition("#")
    url = _fill(url.strip(), from_currency, to_currency)
    path = _fill(path.strip() or "rate", from_currency, to_currency)
    outside_transaction("the exchange-rate service")
    limit = timeout or settings.EXCHANGE_RATE_TIMEOUT  # for the whole answer, however slowly it comes
    try:
        response = call_within(limit, "the exchange-rate service", requests.get, url, timeout=limit,
                               headers={"User-Agent": USER_AGENT, "Accept": "application/json"})
    except DeadlinePassed as exc:
        raise RateError(f"no answer within {limit:g} s") from exc
    except requests.RequestException as exc:
        raise RateError(f"network error: {exc.__class__.__name__}") from exc
    if response.status_code != 200:
        raise RateError(f"HTTP {response.status_code}", permanent=400 <= response.status_code < 500)
    try:
        data = response.json()
    except ValueError as exc:
        raise RateError("the answer is not JSON") from exc
    # Some services answer 200 with an error inside (exchangerate.host without a key).
    if isinstance(data, dict) and (data.get("success") is False or data.get("result") == "error"):
        reason = data.get("error") or data.get("error-type") or "error"
        if isinstance(reason, dict):
            reason = reason.get("type") or reason.get("info") or "error"
        raise RateError(f"the service reported an error: {reason}", permanent=True)
    return rate_checked(_dig(data, path), from_currency, to_currency)


def rate_checked(rate: object, from_currency: str, to_currency: str) -> Decimal:
    """`rate` as a stored rate (8 places), whoever gave it (a service, staff): a positive number inside the
    pair's sane band, else RateError."""
    value = to_decimal(rate)
    if value is None or value <= 0:
        raise RateError("the rate is not a positive number", permanent=True)
    band = SANE_BANDS.get((from_currency.upper(), to_currency.upper()))
    if band is not None and not (band[0] <= value <= band[1]):
        raise RateError(f"rate {value} outside {band[0]}–{band[1]}", permanent=True)
    return value.quantize(Decimal("0.00000001"))


def _source_name(item: str) -> str:

    return urlsplit(item.partition("#")[0]).netloc or item[:60]


def rates_refresh(from_currency: str = "KES", to_currency: str = "EGP", *, force: bool = False,
                  providers: list[str] | None = None) -> RefreshResult:
    """Refresh the stored rate from the provider chain, keeping the last good one on failure.

    Without `force`, a row younger than the cache lifetime is kept as it is, so
    beat can call this hourly and the services are asked at most every 6 hours.
    """

    from_currency, to_currency = from_currency.upper(), to_currency.upper()
    now = timezone.now()
    row = ExchangeRate.objects.filter(from_currency=from_currency, to_currency=to_currency).first()
    if not force and row is not None and (now - row.last_updated).total_seconds() < CACHE_SECONDS:
        return RefreshResult(rate_get(from_currency, to_currency), False, [])

    errors = []
    refused: Decimal | None = None
    for item in providers if providers is not None else settings.EXCHANGE_RATE_PROVIDERS:
        source = _source_name(item)
        try:
            value = provider_fetch(item, from_currency, to_currency)
            if row is not None:
                _move_check(value, row, now)
        except RateJump as exc:
            log.warning("rates: %s refused: %s", source, exc)
            errors.append(f"{source}: {exc}")
            refused = refused or exc.value
            continue  # the next service may answer a rate in line with the stored one
        except RateError as exc:
            errors.append(f"{source}: {exc}")
            continue
        return RefreshResult(_rate_take(from_currency, to_currency, value, source=source, now=now), True, errors)

    # Every provider failed: keep the last good row (else the fallback) and say why.
    reason = "; ".join(errors)[:2000] or "no providers configured"
    if row is not None:
        ExchangeRate.objects.filter(pk=row.pk).update(last_attempt_at=now, last_error=reason)
        if refused is not None and _refusal_record(row=row, refused=refused, now=now):
            _refusal_tell(row=row, refused=refused)
    else:  # nothing stored yet: the fallback is in use; remember why for the dashboard
        cache.set(_error_key(from_currency, to_currency), reason, CACHE_SECONDS)
    rate_forget(from_currency, to_currency)
    return RefreshResult(rate_get(from_currency, to_currency), False, errors, refused)


class RateJump(RateError):
    """A service's rate moved further from the stored one than RATE_MAX_DAILY_MOVE allows."""

    def __init__(self, message: str, *, value: Decimal) -> None:
        super().__init__(message, permanent=True)
        self.value = value


def rate_move(value: Decimal, stored: Decimal) -> Decimal:
    """How far `value` is from `stored`, as a fraction of `stored` (0.40 for 40 %)."""
    return abs(value - stored) / stored


def _move_check(value: Decimal, row: ExchangeRate, now: datetime) -> None:
    days = max(Decimal(1), Decimal((now - row.last_updated).total_seconds()) / 86400)
    limit = RATE_MAX_DAILY_MOVE * days
    move = rate_move(value, row.rate)
    if move > limit:
        raise RateJump(f"rate {value.normalize()} is {move * 100:.0f} % from the stored {row.rate.normalize()}, "
                       f"more than {limit * 100:.0f} % in {days:.1f} day(s)", value=value)


def _refusal_record(*, row: ExchangeRate, refused: Decimal, now: datetime) -> bool:
    """Store the refused rate; True when it is the first since a rate was last taken (staff are told once,
    however many refreshes run at once: the row read at their start may be older than another's refusal)."""
    first = ExchangeRate.objects.filter(pk=row.pk, refused_rate__isnull=True).update(
        refused_rate=refused, refused_at=now)
    if not first:
        ExchangeRate.objects.filter(pk=row.pk).update(refused_rate=refused, refused_at=now)
    return bool(first)


def _refusal_tell(*, row: ExchangeRate, refused: Decimal) -> None:
    # imported here: the staff alerts read the catalogue and orders, which read this module
    from backoffice.alerts import rate_refused_send  # noqa: PLC0415

    rate_refused_send(stored=row.rate, refused=refused, move=rate_move(refused, row.rate), limit=RATE_MAX_DAILY_MOVE)


def rate_set_by_hand(*, rate: object, from_currency: str = "KES", to_currency: str = "EGP") -> Rate:
    """Store a rate staff typed: no move limit (a real jump is confirmed this way), the band still holds."""
    from_currency, to_currency = from_currency.upper(), to_currency.upper()
    return _rate_take(from_currency, to_currency, rate_checked(rate, from_currency, to_currency), source=HAND_SOURCE,
                      now=timezone.now())


def _rate_take(from_currency: str, to_currency: str, value: Decimal, *, source: str, now: datetime) -> Rate:
    """Store `value` as the pair's rate as of `now`, clear any failure or refusal, and read it back."""
    ExchangeRate.objects.update_or_create(
        from_currency=from_currency, to_currency=to_currency,
        defaults={"rate": value, "source": source, "last_updated": now,
                  "last_attempt_at": now, "last_error": "", "refused_rate": None, "refused_at": None},
    )
    rate_forget(from_currency, to_currency)
    found = rate_get(from_currency, to_currency)
    assert found is not None
    return found


def _error_key(from_currency: str, to_currency: str) -> str:
    return f"rate-error:{from_currency}:{to_currency}"


@dataclass(frozen=True)
class RateStatus:
    """What the dashboard's system status and the importer say about a rate."""

    rate: Decimal
    source: str
    last_updated: datetime | None
    is_fallback: bool
    last_attempt_at: datetime | None
    last_error: str
    # the last refresh failed and an older stored rate is in use
    is_stale: bool
    # a rate a service answered that moved too far from the stored one, and how far in % (refused)
    refused_rate: Decimal | None = None
    refused_percent: int | None = None

    @property
    def ok(self) -> bool:
        """A provider has answered and the last refresh worked."""
        return not self.is_fallback and not self.is_stale


def rate_status(from_currency: str = "KES", to_currency: str = "EGP") -> RateStatus:
    """The rate with its source, staleness and the last refresh's error."""
    rate = rate_get(from_currency, to_currency)
    if rate is None:
        raise ValueError(f"no {from_currency}→{to_currency} rate is kept")
    row = ExchangeRate.objects.filter(
        from_currency=from_currency.upper(), to_currency=to_currency.upper()
    ).first()
    return RateStatus(
        rate=rate.rate, source=rate.source, last_updated=rate.last_updated, is_fallback=rate.is_fallback,
        last_attempt_at=row.last_attempt_at if row else None,
        last_error=row.last_error if row else (cache.get(_error_key(from_currency.upper(), to_currency.upper())) or ""),
        is_stale=bool(row and row.last_error),
        refused_rate=row.refused_rate.normalize() if row and row.refused_rate else None,
        refused_percent=round(rate_move(row.refused_rate, row.rate) * 100) if row and row.refused_rate else None,
    )
