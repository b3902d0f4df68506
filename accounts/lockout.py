from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def lockout_message():
    return _("Too many failed sign-in attempts. Please try again in 15 minutes.")


def lockout_response(request, credentials=None, *args, **kwargs):
    """Answer a locked-out sign-in without saying whether the account exists."""
    message = lockout_message()
    if request.path.startswith("/api/"):
        return JsonResponse({"error": message, "message": message}, status=429)
    return render(request, "shop/locked_out.html", {"message": message}, status=429)


def client_ip(request):
    """The visitor's address for lockout counters, trusting only our own proxies.

    Behind a reverse proxy every request comes from the proxy's address, so
    counting REMOTE_ADDR would let five bad guesses lock out every shopper.
    Each of the TRUSTED_PROXY_COUNT proxies appends the address it saw to
    X-Forwarded-For; the client is that many entries from the right (entries
    further left were written by the client and may be forged).
    """
    remote = request.META.get("REMOTE_ADDR")
    count = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if count <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    return forwarded[-count] if len(forwarded) >= count else remote
