"""Whole-page caching for visitors who have no session yet.

Most storefront traffic is people (and crawlers) who have not signed in and
have no cart: for them a page depends only on its URL, the language, the
catalogue, the exchange rate and the store settings. Their pages are kept in
the shared cache for a short while. Views opt in with @cache_for_visitors.

`PageCacheMiddleware` serves them. It sits right after the middleware every
response needs (SecurityMiddleware, django-csp, Permissions-Policy) and before
the ones a stored page does not (sessions, locale, CSRF, auth, messages,
maintenance, axes, URL resolving, the view): a hit is one cache read (the page
and the catalogue version, fetched together) and no database query.

A hit behaves like the rendered page it replays:
- headers set inside the stack (Content-Language, Vary, X-Frame-Options, …)
  are stored with the page; the outer middleware adds the security headers
  and the Content-Security-Policy on every response, hit or miss;
- the CSRF token in its forms and the CSP nonce on its script and style tags
  are stored as placeholders and filled in on every hit, with the visitor's
  own CSRF token (setting their CSRF cookie as CsrfViewMiddleware would) and
  this response's fresh nonce (which django-csp then puts in the header);
- a page is stored with the catalogue version read *before* it was rendered
  and served only while that version is current. Product, stock, review,
  store-settings (maintenance mode!) and exchange-rate changes bump it, so a
  page stored before such a change is never served after it;
- only the default language is served at unprefixed URLs: a first visit whose
  cookie or browser asks for Arabic goes down the stack to its redirect.

The page's canonical, og:url and hreflang links carry the scheme and host the
request arrived with, so both are part of the key: one request with a forged
Host or X-Forwarded-Proto can only ever fill its own entry.

Visitors with a session (a cart, a sign-in) go through the whole stack; the
view decorator then serves them the stored body with their own parts stitched
in (shop.stitch), or renders the page when there is none.
"""

import hashlib
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, wraps

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH, CsrfViewMiddleware
from django.utils.translation import activate, get_language, trans_real

from catalog.cache import VERSION_KEY, catalog_version
from shop.middleware import ShopLocaleMiddleware
from shop.stitch import render_part

SECONDS = 60
MAX_URL_LENGTH = 300  # longer URLs (odd or hostile) are rendered, never stored
CSRF_PLACEHOLDER = "__CSRF_TOKEN__"
NONCE_PLACEHOLDER = "__CSP_NONCE__"
_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')
# the holes in a stored page: the two placeholders and the visitor parts (shop.stitch)
_HOLES = re.compile(f"({CSRF_PLACEHOLDER}|{NONCE_PLACEHOLDER}|<!--vp:[^>]*-->.*?<!--/vp-->)", re.S)
_PART = re.compile(r"<!--vp:([^>]*)-->", re.S)
# the headers a view sets itself (the stack adds the rest when a page is stitched inside it)
_VIEW_HEADERS = ("Content-Type", "Content-Language", "Vary")
# set per response (Content-Length after the fill-in) or by the outer middleware
_NOT_STORED = {"content-length", "set-cookie"}
# paths a page can never be at: nothing to look up
_NOT_PAGES = ("/api/", "/static/", "/media/", "/django-admin/", "/healthz", "/lang/", "/payment/",
              "/robots.txt", "/sitemap.xml", "/favicon.ico")


def cache_for_visitors(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Let PageCacheMiddleware store `view`'s pages (200 and 404) for visitors without a session."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not is_fresh_visitor(request):
            response = serve_stitched(request)
            if response is not None:
                return response
        response = view(request, *args, **kwargs)
        response.page_cacheable = True
        return response

    return wrapper


def can_stitch(request):
    user = getattr(request, "user", None)
    return user is not None and not user.is_staff


def serve_stitched(request):
    """This visitor's page from the stored body, or None when it has to be rendered."""
    if not can_stitch(request):
        return None
    found = page_lookup(request)
    if found is None:
        return None
    entry = found[2] or _store_for_visitors(request, found[0])
    if entry is None:
        return None
    _version, _stored_at, status, segments, headers = entry
    return page_response(
        request, status, segments, headers,
        visitor_part=lambda label, stored: render_part(request, label, stored, CSRF_PLACEHOLDER),
        in_stack=True,
    )


# what makes a request a visitor's own: without them it is a visitor without a session. The browser's
# language goes too: the page's language is in the key already (a cookie that chose English on an
# Arabic browser asks for the page a visitor without a preference gets). And its encodings: nobody
# reads that answer, so it is not gzipped for nothing.
_NOT_FOR_VISITORS = ("HTTP_COOKIE", "HTTP_AUTHORIZATION", "CSRF_COOKIE", "CSRF_COOKIE_NEEDS_UPDATE",
                     "HTTP_ACCEPT_LANGUAGE", "HTTP_ACCEPT_ENCODING")
_not_stored = {}  # key -> until when a page found not to be one to store is not tried again


@lru_cache(maxsize=1)
def _stack():
    """The whole middleware stack and URLconf, loaded once per process when first needed."""
    return WSGIHandler()


def _store_for_visitors(request, key):
    """Render this page as a visitor without a session gets it, through the whole stack, which stores it.

    Stored pages age out (SECONDS); without this, visitors with a session (a quiet shop's returning
    customers) would each get the page rendered until a visitor without one came by. The request is
    built anew from the same URL and headers without the cookies, so nothing of this visitor can
    reach the stored body. Returns the stored entry, or None when there is none to serve.
    """
    if time.monotonic() < _not_stored.get(key, 0):
        return None  # tried lately: that page is not one to store (a redirect, a cookie), so render it once only
    environ = {name: value for name, value in request.META.items() if name not in _NOT_FOR_VISITORS}
    language = get_language()
    try:
        response = _stack().get_response(WSGIRequest({**environ, "REQUEST_METHOD": "GET"}))
    finally:
        activate(language)  # the locale middleware of the page's request activated the same; made sure
    if not is_storable(response):
        if len(_not_stored) >= LOCAL_PAGES:
            _not_stored.clear()
        _not_stored[key] = time.monotonic() + SECONDS
        return None
    found = page_lookup(request)  # None too if the catalogue changed meanwhile: rendered this once
    return found[2] if found else None


def is_fresh_visitor(request):
    """No session, no flash message: a visitor every cached page fits as stored."""
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "messages" not in request.COOKIES
    )


def page_language(request):
    """The language the locale middleware would serve this page in, or None when it would redirect."""
    path = request.path_info
    if path.startswith(_PREFIXES):
        return path[1:3]
    language = trans_real.get_language_from_path(path)
    if language:
        return language
    wanted = ShopLocaleMiddleware._preferred_language(request)
    if wanted and wanted != settings.LANGUAGE_CODE:
        return None  # the first-visit (or cookie) redirect to /ar/…
    return settings.LANGUAGE_CODE


_PREFIXES = tuple(f"/{code}/" for code, _name in settings.LANGUAGES if code == "ar")


@dataclass(frozen=True)
class PageInputs:
    """What a stored page (or a fragment of one) depends on besides the catalogue version.

    The version covers every write a page shows (products, stock, reviews,
    store settings, exchange rates): the page cache checks it inside the stored
    entry, fragment caches put it in their key (`key(kind, catalog_version(), …)`).
    The canonical, og:url and hreflang links carry the scheme and host, so
    both are inputs: one request with a forged Host can only fill its own entry.
    """

    scheme: str
    host: str
    language: str
    path: str  # with the query string
    fragment: str  # the X-Fragment header: the same URL answers a page or a fragment

    def key(self, kind: str, *extra: object) -> str:
        parts = "\n".join((self.scheme, self.host, self.language, self.path, self.fragment, *map(str, extra)))
        # hashed: URLs are visitor-controlled and may be long or odd
        return f"{kind}:v3:" + hashlib.sha256(parts.encode()).hexdigest()


def page_inputs(request: HttpRequest, language: str | None = None) -> PageInputs:
    """The inputs of this request's page, in `language` (else the one the locale middleware would serve).

    Raises DisallowedHost for a Host outside ALLOWED_HOSTS.
    """
    return PageInputs(request.scheme, request.get_host(), language or page_language(request),
                      request.get_full_path(), request.META.get("HTTP_X_FRAGMENT", ""))


def page_lookup(request, kind="page"):
    """(key, version, stored entry or None) for a GET of a page, or None when it cannot be cached."""
    path = request.path_info
    if (request.method not in ("GET", "HEAD") or path.startswith(_NOT_PAGES)
            or len(request.get_full_path()) > MAX_URL_LENGTH):
        return None
    language = page_language(request)
    if language is None:
        return None
    try:
        # the entry is (version, stored at, status, segments, headers); "v3" in the key keeps older formats out
        key = page_inputs(request, language).key(kind)
    except DisallowedHost:
        return None  # the stack answers 400
    if key in _local:
        # a copy in this process: the shared catalogue version alone says whether it still holds
        version = catalog_version()  # the request's copy when the maintenance check read it already
        entry = _local_get(key, version)
        if entry is None:
            entry = _valid(cache.get(key), version)
    else:
        found = cache.get_many([VERSION_KEY, key])
        version = found.get(VERSION_KEY) or catalog_version()
        entry = _valid(found.get(key), version)
    if entry is not None:
        _local_put(key, entry)
    return key, version, entry


def _valid(entry, version):
    if entry is None or entry[0] != version or time.time() - entry[1] >= SECONDS:
        return None
    return entry


# The most recently used pages, also kept in this process's memory: a hit then
# reads only the (small) catalogue version from the shared cache, not the page.
LOCAL_PAGES = 200
_local = OrderedDict()
_local_lock = threading.Lock()


def _local_get(key, version):
    entry = _valid(_local.get(key), version)
    if entry is None:
        _local.pop(key, None)
    return entry


def _local_put(key, entry):
    with _local_lock:
        _local[key] = entry
        _local.move_to_end(key)
        while len(_local) > LOCAL_PAGES:
            _local.popitem(last=False)


def page_store(key, version, request, response, content=None):
    """Keep a rendered page (with placeholders for the per-visitor parts) under `key`."""
    if content is None:
        content = response.content.decode(response.charset)
    content = _TOKEN.sub(rf"\g<1>{CSRF_PLACEHOLDER}\g<2>", content)
    nonce = getattr(request, "_csp_nonce", None)  # set only when the page used one
    if nonce:
        content = content.replace(f'nonce="{nonce}"', f'nonce="{NONCE_PLACEHOLDER}"')
    headers = [(name, value) for name, value in response.items() if name.lower() not in _NOT_STORED]
    entry = (version, time.time(), response.status_code, page_segments(content), headers)
    cache.set(key, entry, SECONDS)
    _local_put(key, entry)


def page_segments(content):
    """The page as UTF-8 pieces around its holes: [text, hole, text, …].

    A hole is a placeholder's name, or (label, stored text) for a visitor part.
    """
    segments = []
    for n, part in enumerate(_HOLES.split(content)):
        if n % 2 == 0:
            segments.append(part.encode())
        elif part.startswith("<!--vp:"):
            segments.append((_PART.match(part).group(1), part))
        else:
            segments.append(part)
    return segments


def is_storable(response, *, allowed_cookies=(settings.CSRF_COOKIE_NAME,)):
    return (
        getattr(response, "page_cacheable", False)
        and response.status_code in (200, 404)
        and not response.streaming
        and not response.has_header("Location")
        # a page that started a session or left a message is that visitor's own
        and all(name in allowed_cookies for name in response.cookies)
    )


_csrf = CsrfViewMiddleware(lambda request: None)
_CHARS = CSRF_ALLOWED_CHARS
_INDEX = {char: n for n, char in enumerate(_CHARS)}
_LIMIT = 256 - 256 % len(_CHARS)  # bytes at or above it would bias the choice
_BYTE_TO_CHAR = bytes(ord(_CHARS[b % len(_CHARS)]) for b in range(256))
_BIASED = bytes(range(_LIMIT, 256))


def _random_chars(count):
    """`count` random CSRF_ALLOWED_CHARS from one urandom call (Django draws one per character)."""
    chars = b""
    while len(chars) < count:
        chars += os.urandom(count * 2).translate(_BYTE_TO_CHAR, _BIASED)  # drops the biased bytes, maps the rest
    return chars[:count].decode()


def csrf_token(request):
    """What django.middleware.csrf.get_token returns, and with the same side effects, only cheaper."""
    if "CSRF_COOKIE" not in request.META:
        _csrf.process_request(request)  # the visitor's CSRF cookie, read as the middleware reads it
    if "CSRF_COOKIE" in request.META:
        secret = request.META["CSRF_COOKIE"]
    else:
        secret = request.META["CSRF_COOKIE"] = _random_chars(CSRF_SECRET_LENGTH)
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True  # sent again to renew its expiry, as get_token does
    mask = _random_chars(CSRF_SECRET_LENGTH)
    n = len(_CHARS)
    return mask + "".join(_CHARS[(_INDEX[x] + _INDEX[y]) % n] for x, y in zip(secret, mask))


def page_response(request, status, segments, headers, *, visitor_part=None, in_stack=False):
    """A response from stored parts: this visitor's CSRF token and this response's nonce filled in.

    visitor_part(label, stored text) renders a visitor part for this visitor (shop.stitch);
    without it the stored text (the one for a visitor without a session) is used.
    in_stack: called from a view, with the middleware still to run (which then
    sets the CSRF cookie and the headers it owns).
    """
    filled = {}

    def fill(name):
        if name not in filled:
            if name == CSRF_PLACEHOLDER:
                filled[name] = csrf_token(request)
            else:
                # django-csp's middleware gives every request its lazy nonce;
                # reading it here is what puts it in this response's header
                filled[name] = str(getattr(request, "csp_nonce", ""))
        return filled[name]

    pieces = []
    for n, part in enumerate(segments):
        if n % 2 == 0:
            pieces.append(part)
        elif isinstance(part, str):
            pieces.append(fill(part).encode())
        else:
            label, text = part
            if visitor_part is not None:
                text = visitor_part(label, text)
            for name in (CSRF_PLACEHOLDER, NONCE_PLACEHOLDER):
                if name in text:
                    text = text.replace(name, fill(name))
            pieces.append(text.encode())
    content = b"".join(pieces)
    response = HttpResponse(content, status=status)
    for name, value in headers:
        if not in_stack or name in _VIEW_HEADERS:
            response[name] = value
    response["Content-Length"] = str(len(content))
    if CSRF_PLACEHOLDER in filled and not in_stack:
        _set_csrf_cookie(request, response)
    return response


def _set_csrf_cookie(request, response):
    """What CsrfViewMiddleware.process_response does after get_token (the stored Vary already says Cookie)."""
    if settings.CSRF_USE_SESSIONS or "Cookie" not in response.get("Vary", ""):
        _csrf.process_response(request, response)
        return
    response.set_cookie(
        settings.CSRF_COOKIE_NAME, request.META["CSRF_COOKIE"], max_age=settings.CSRF_COOKIE_AGE,
        domain=settings.CSRF_COOKIE_DOMAIN, path=settings.CSRF_COOKIE_PATH, secure=settings.CSRF_COOKIE_SECURE,
        httponly=settings.CSRF_COOKIE_HTTPONLY, samesite=settings.CSRF_COOKIE_SAMESITE,
    )
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = False


class PageCacheMiddleware:
    """Serve stored pages to visitors without a session before the rest of the stack runs."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not is_fresh_visitor(request):
            return self.get_response(request)  # stitched in the view decorator, or rendered
        found = page_lookup(request)
        if found is None:
            return self.get_response(request)
        key, version, entry = found
        if entry is not None:
            _version, _stored_at, status, segments, headers = entry
            return page_response(request, status, segments, headers)
        response = self.get_response(request)
        if is_storable(response):
            page_store(key, version, request, response)
        return response
