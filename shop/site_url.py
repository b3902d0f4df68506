"""The shop's public address, for links that leave the page (e-mails, payment providers)."""

from django.conf import settings
from django.http import HttpRequest
from rest_framework.request import Request


def site_url(request: HttpRequest | Request, path: str = "") -> str:
    """Return `path` on the shop's public address: SITE_URL when set, else this request's host.

    Behind a proxy that does not pass the public host on, only SITE_URL gives
    e-mail readers and Paymob's callback an address that reaches the shop.
    """
    base = settings.SITE_URL or request.build_absolute_uri("/").rstrip("/")
    return f"{base}{path}"
