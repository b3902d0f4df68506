"""Whole-page caching for visitors who have no session yet.

Most storefront traffic is people (and crawlers) who have not signed in and
have no cart: for them a page depends only on its URL, the language, the
catalogue, the exchange rate and the store settings. Their pages are kept in
the shared cache for a short while. Anyone with a session (a cart, a sign-in,
a flash message) always gets a freshly rendered page.

The per-visitor parts of such a page are the CSRF token in its forms and the
Content-Security-Policy nonce on its script and style tags: both are stored
as placeholders and filled in on every hit, with the visitor's own CSRF token
(which also sets their CSRF cookie as a normal render would) and this
response's fresh nonce (which django-csp then puts in the header). Security
headers are added by middleware outside the view, so a hit gets them all.

The page's canonical, og:url and hreflang links carry the scheme and host the
request arrived with, so both are part of the key: one request with a forged
Host or X-Forwarded-Proto can only ever fill its own entry.
"""

import hashlib
import re
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from catalog.cache import catalog_version
from shop.rates import rate_get
from shop.store_settings import store_settings_get

SECONDS = 60
MAX_URL_LENGTH = 300  # longer URLs (odd or hostile) are rendered, never stored
_PLACEHOLDER = "__CSRF_TOKEN__"
_NONCE_PLACEHOLDER = "__CSP_NONCE__"
_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')
_KEPT_HEADERS = ("Content-Type", "Content-Language", "Vary")


def _is_fresh_visitor(request):
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "messages" not in request.COOKIES
        and not request.user.is_authenticated
    )


def _key(request):
    store = store_settings_get()
    parts = ":".join(str(part) for part in (
        request.scheme, request.get_host(), catalog_version(), get_language(), request.get_full_path(),
        request.headers.get("X-Fragment", ""), store.updated_at.timestamp(), rate_get("KES", "EGP").rate,
    ))
    # hashed: URLs are visitor-controlled and may be long or odd
    return "page:" + hashlib.sha256(parts.encode()).hexdigest()


def cache_for_visitors(view):
    """Serve `view`'s page from the shared cache to visitors without a session."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not _is_fresh_visitor(request) or len(request.get_full_path()) > MAX_URL_LENGTH:
            return view(request, *args, **kwargs)
        key = _key(request)
        stored = cache.get(key)
        if stored is not None:
            status, content, headers = stored
            content = content.replace(_PLACEHOLDER, get_token(request))
            if _NONCE_PLACEHOLDER in content:
                # django-csp's middleware gives every request its lazy nonce;
                # reading it here is what puts it in this response's header
                content = content.replace(_NONCE_PLACEHOLDER, str(getattr(request, "csp_nonce", "")))
            response = HttpResponse(content, status=status)
            for name, value in headers.items():
                response[name] = value
            return response
        response = view(request, *args, **kwargs)
        if response.status_code in (200, 404) and not response.streaming and not response.has_header("Location"):
            content = _TOKEN.sub(rf"\g<1>{_PLACEHOLDER}\g<2>", response.content.decode(response.charset))
            nonce = getattr(request, "_csp_nonce", None)  # set only when the page used one
            if nonce:
                content = content.replace(f'nonce="{nonce}"', f'nonce="{_NONCE_PLACEHOLDER}"')
            headers = {name: response[name] for name in _KEPT_HEADERS if response.has_header(name)}
            cache.set(key, (response.status_code, content, headers), SECONDS)
        return response

    return wrapper
