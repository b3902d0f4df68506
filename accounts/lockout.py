import ipaddress
from datetime import timedelta
from functools import lru_cache
from typing import Any

from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _


def lockout_message() -> str:
    return _("Too many failed sign-in attempts. Please try again in 15 minutes.")


def lockout_response(request: HttpRequest, credentials: object = None, *args: Any, **kwargs: Any) -> HttpResponse:
    """Answer a locked-out sign-in without saying whether the account exists."""
    message = lockout_message()
    if request.path.startswith("/api/"):
        return JsonResponse({"error": message, "message": message}, status=429)
    return render(request, "shop/locked_out.html", {"message": message}, status=429)


def lockout_username(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str | None:
    """The name a sign-in attempt is counted under (AXES_USERNAME_CALLABLE): trimmed and in lower case.

    Customers sign in with their e-mail in any case, so "Alice@…" and "alice@…" are one account and must
    share one counter; otherwise each spelling would get its own five guesses. (A staff username differing
    only in case shares the counter too: stricter, never looser.) Upper case first: PostgreSQL's
    case-insensitive lookup compares UPPER() of both sides, which makes "alıce" (dotless ı) alice's
    account, and "alıce".lower() alone would give it a counter of its own.
    """
    if credentials:
        name = credentials.get("username")
    else:
        data = getattr(request, "data", None) or request.POST
        name = data.get("username") or data.get("email")
    return name.strip().upper().lower() if isinstance(name, str) else None


def client_ip(request: HttpRequest) -> str:
    """The visitor's address as lockouts and limits count it, trusting only our own proxies.

    Behind a reverse proxy every request comes from the proxy's address, so
    counting REMOTE_ADDR would let five bad guesses lock out every shopper.
    Each of the TRUSTED_PROXY_COUNT proxies appends the address it saw to
    X-Forwarded-For; the client is that many entries from the right (entries
    further left were written by the client and may be forged). An IPv6
    visitor is their /64 network (`visitor_network`).
    """
    remote = request.META.get("REMOTE_ADDR")
    count = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if count > 0:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        # an entry that is no address (a proxy count set too high, a shop reached past its proxy, a
        # forged header) is not taken: it would be stored where an address goes (a 500 on PostgreSQL)
        remote = (_address(forwarded[-count]) or remote) if len(forwarded) >= count else remote
    return visitor_network(remote) if remote and ":" in remote else remote


def _address(entry: str) -> str | None:
    """The IP address an X-Forwarded-For entry names (some proxies add the port), or None."""
    for candidate in (entry, entry.rpartition(":")[0].strip("[]")):
        try:
            return str(ipaddress.ip_address(candidate))
        except ValueError:
            continue
    return None


@lru_cache(maxsize=4096)
def visitor_network(address: str) -> str:
    """An IPv6 address as the /64 network it belongs to (written as its first address); an IPv4 address
    written as IPv6 (`::ffff:198.51.100.7`) as that IPv4 address; anything else as it is.

    One IPv6 host holds a whole /64 (a home's network, a phone's mobile connection, a rented server) and
    may send each request from another address of it: counted one by one, its lockouts and rate limits
    would never fill. The /64 is what one IPv4 address is.
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False).network_address)
    return address


def lockouts_active() -> QuerySet[AccessAttempt]:
    """The username-and-address pairs locked out right now, newest first (the dashboard lists them)."""


    since = timezone.now() - timedelta(hours=settings.AXES_COOLOFF_TIME)
    return AccessAttempt.objects.filter(
        failures_since_start__gte=settings.AXES_FAILURE_LIMIT, attempt_time__gte=since,
    ).order_by("-attempt_time")


def lockout_reset(*, username: str) -> int:
    """Forget every failed sign-in of `username`, from every address; return how many counters went.

    Counters are in the database with either configuration (see AXES_HANDLER),
    so this also works where `axes_reset` used to fail on the cache handler.
    """

    deleted, _rows = AccessAttempt.objects.filter(username__iexact=username.strip()).delete()
    return deleted
