"""Rate limits on anonymous writes, per client address and per session.

Each scope (checkout, contact, newsletter, …) has a rate in settings.RATE_LIMITS
("30/hour"), set well above what a real shopper ever does. Every write request
counts once against the visitor's address (`accounts.lockout.client_ip`, which
honours TRUSTED_PROXY_COUNT) and once against their session or account; going
over either answers 429. Counters are fixed windows in the shared cache, so
every web process sees the same counts; when the cache is down the limit is
simply not applied (shop/cache.py fails open), never a 500.

The API uses `ScopedRateLimit` (in DRF's DEFAULT_THROTTLE_CLASSES; a view opts
in with `throttle_scope`, and a read that costs a call to an outside service also
counts its GETs with `throttle_reads = True`), the HTML form posts call
`rate_limit_exceeded`.
"""

import hashlib
import time
from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from rest_framework.throttling import BaseThrottle

from accounts.lockout import client_ip

_PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


def rate_limit_message():
    return _("Too many requests. Please wait a moment and try again.")


@lru_cache(maxsize=64)
def parse_rate(rate):
    """'30/hour' → (30, 3600)."""
    count, _sep, period = rate.partition("/")
    return int(count), _PERIODS[period.strip().rstrip("s")]


def count_hits(keys, seconds):
    """Add one to each counter in `keys` for the current window; their counts."""
    window = int(time.time() // seconds)
    keys = [f"{key}:{window}" for key in keys]
    # Redis (shop.cache): all of them in one round trip; the file cache (shop.file_cache): appends
    return cache.count_hits(keys, seconds)


def address_mail_allowed(kind: str, email: str, *, per_hour: int) -> bool:
    """Count one more e-mail of `kind` to `email`; whether it may go (at most `per_hour` in a clock hour).

    For e-mails sent to an address a visitor typed (reset links, confirmations): the rate limits count
    who asks, this counts whose mailbox it is, so asking from many addresses cannot flood one.
    """
    key = f"mail:{kind}:" + hashlib.sha256(email.strip().lower().encode()).hexdigest()
    return count_hits([key], 60 * 60)[0] <= per_hour


def _identities(request):

    yield "address", client_ip(request) or "unknown"
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        yield "user", str(user.pk)
    else:
        session = getattr(request, "session", None)
        if session is not None and session.session_key:
            yield "session", session.session_key


# a visitor's counters are named at each of their writes: hashed once per process (while kept)
@lru_cache(maxsize=4096)
def _counter_key(scope, kind, value):
    """The name of one counter: the address, session or account hashed, so no cache key holds them."""
    return f"ratelimit:{scope}:{kind}:{hashlib.sha256(value.encode()).hexdigest()[:32]}"


def rate_limit_exceeded(request, scope):
    """Count this request in `scope`; True when the address or the session went over the limit.

    Seconds to wait are left in `request.rate_limit_wait` for a Retry-After header.
    """
    rate = settings.RATE_LIMITS.get(scope)
    if not rate:
        return False
    limit, seconds = parse_rate(rate)
    keys = [_counter_key(scope, kind, value) for kind, value in _identities(request)]
    over = any(count > limit for count in count_hits(keys, seconds))
    request.rate_limit_wait = seconds - int(time.time()) % seconds if over else None
    return over


class ScopedRateLimit(BaseThrottle):
    """DRF throttle for write methods of views that name a `throttle_scope`, and for their reads too
    when they set `throttle_reads` (a read that may ask an outside service, e.g. payment verify)."""

    def allow_request(self, request, view):
        # the Django request: DRF's session and user are the same objects, and every attribute DRF's
        # request passes on to it is an AttributeError caught first
        request = request._request
        scope = getattr(view, "throttle_scope", None)
        if not scope or request.method == "OPTIONS":
            return True
        if request.method in ("GET", "HEAD") and not getattr(view, "throttle_reads", False):
            return True
        self._request = request
        return not rate_limit_exceeded(request, scope)

    def wait(self):
        return getattr(self._request, "rate_limit_wait", None)


def rate_limit_posts(scope: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Decorate a page view: a POST over the `scope` limit gets a translated 429 page."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST" and rate_limit_exceeded(request, scope):
                response = render(request, "shop/rate_limited.html", {"message": rate_limit_message()}, status=429)
                response["Retry-After"] = str(request.rate_limit_wait)
                return response
            return view(request, *args, **kwargs)

        return wrapper

    return decorate
