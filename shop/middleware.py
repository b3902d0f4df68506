import re
from functools import lru_cache

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.messages.storage import default_storage
from django.core.signals import setting_changed
from django.db import DEFAULT_DB_ALIAS, transaction
from django.dispatch import receiver
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse, QueryDict
from django.middleware.gzip import GZipMiddleware
from django.middleware.locale import LocaleMiddleware
from django.shortcuts import render
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject, empty
from django.utils.translation import gettext as _
from django.utils.translation import trans_real

from accounts.roles import is_staff_member
from shop.store_settings import store_settings_get
from shop.validation import id_parse, is_secret_field, typed_text

# Paths outside the language prefix: the API, health and technical URLs.
_UNPREFIXED = ("/api/", "/healthz", "/django-admin/", "/static/", "/media/", "/lang/",
               "/robots.txt", "/sitemap.xml", "/payment/callback")


# what shop.validation.typed_text changes: Eastern digits U+0660-0669 (UTF-8 D9 A0-A9) and U+06F0-06F9
# (DB B0-B9), direction controls U+202A-202E (E2 80 AA-AE) and U+2066-2069 (E2 81 A6-A9); in a query
# string percent-encoded, either case
_TYPED_IN_QUERY = re.compile(r"%D9%A[0-9]|%DB%B[0-9]|%E2%80%A[A-E]|%E2%81%A[6-9]"
                             r"|[\u0660-\u0669\u06f0-\u06f9\u202a-\u202e\u2066-\u2069]", re.IGNORECASE)
_TYPED = re.compile(r"[\u0660-\u0669\u06f0-\u06f9\u202a-\u202e\u2066-\u2069]")


# bodies worth compressing; pictures, fonts and archives are compressed already
_TEXT_TYPES = ("text/", "application/json", "application/javascript", "image/svg+xml", "application/xml")


class TextGZipMiddleware(GZipMiddleware):
    """Django's gzip (with its BREACH padding) for text answers only: a page shrinks to about a fifth
    on a phone's slow line; pictures and fonts would only cost CPU (static files come gzipped from
    whitenoise, which answers before this)."""

    def process_response(self, request, response):
        if not response.get("Content-Type", "").startswith(_TEXT_TYPES):
            return response
        return super().process_response(request, response)


def _is_page_path(path):
    return not path.startswith(_UNPREFIXED)


@lru_cache(maxsize=256)  # the values browsers send are few; a made-up one costs one slot
def _unprefixed_language(cookie: str | None, accept_language: str) -> str:
    """Django's language for a request to a path without a language prefix, from these two headers."""
    probe = HttpRequest()
    probe.COOKIES = {} if cookie is None else {settings.LANGUAGE_COOKIE_NAME: cookie}
    probe.META = {"HTTP_ACCEPT_LANGUAGE": accept_language}
    return translation.get_language_from_request(probe, check_path=False)


@receiver(setting_changed)
def _languages_changed(*, setting, **kwargs):
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LANGUAGE_COOKIE_NAME"):
        _unprefixed_language.cache_clear()


class ShopLocaleMiddleware(LocaleMiddleware):
    """English at /…, Arabic at /ar/…; the cookie, then the browser, picks at /.

    Django's own middleware always serves English on unprefixed URLs when the
    default language has no prefix; a visitor whose cookie (or, on a first
    visit, whose browser) says Arabic is sent to the /ar/ page instead. API
    calls take the language from Accept-Language, which the islands send.
    """

    def __call__(self, request):
        if _is_page_path(request.path_info):
            return super().__call__(request)  # process_request and process_response below
        # Paths outside the language prefix (the API, health): Django's choice for a request without one,
        # worked out once per cookie and Accept-Language (every cart write passes here: issue 14), and
        # Django's Vary and Content-Language, without looking for a language in the path ("api")
        language = _unprefixed_language(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME),
                                        request.META.get("HTTP_ACCEPT_LANGUAGE", ""))
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", translation.get_language())
        return response

    def process_request(self, request):
        super().process_request(request)
        path = request.path_info
        if request.method in ("GET", "HEAD") and trans_real.get_language_from_path(path) is None:
            wanted = self._preferred_language(request)
            if wanted and wanted != settings.LANGUAGE_CODE:
                query = request.META.get("QUERY_STRING", "")
                target = f"/{wanted}{request.path}" + (f"?{query}" if query else "")
                response = HttpResponseRedirect(target)
                response.headers["Vary"] = "Cookie, Accept-Language"
                return response
        return None

    @staticmethod
    def _preferred_language(request):
        cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if cookie:
            return cookie if cookie in dict(settings.LANGUAGES) else None
        accept = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
        for code, _q in trans_real.parse_accept_lang_header(accept):
            if code == "*":
                break
            base = code.split("-")[0].lower()
            if base in dict(settings.LANGUAGES):
                return base
        return None


class LazyMessageMiddleware(MessageMiddleware):
    """Django's, with the message storage made when a view or a template first uses it.

    Django makes it for every request, the signed cookie's signer included, though only a page that
    shows messages or a view that adds one uses it: 2 % of a cart write's instructions (issue 14). A
    storage nobody used has nothing to store or clear, so its response is left as it is.
    """

    def process_request(self, request):
        request._messages = SimpleLazyObject(lambda: default_storage(request))

    def process_response(self, request, response):
        messages = getattr(request, "_messages", None)
        if isinstance(messages, SimpleLazyObject) and messages._wrapped is empty:
            return response
        return super().process_response(request, response)


# Staff keep working while the storefront is closed.
_MAINTENANCE_OPEN = ("/adminauth", "/admindash", "/ar/adminauth", "/ar/admindash",
                     "/api/admin", "/api/reviews/admin", "/api/settings", "/django-admin/",
                     "/static/", "/media/", "/healthz", "/lang/", "/payment/callback")


class UserAuthenticationMiddleware(AuthenticationMiddleware):
    """Django's, with `request.user` read at once instead of behind a SimpleLazyObject.

    Every request that gets this far with a session reads the user (a stitched page's parts, the cart's
    owner, DRF's authentication, the maintenance check while it is on), and each attribute read through
    the lazy object runs Python code of its own: 8 % of the instructions of a signed-in visitor's
    stitched page, 2 % of a guest's (issue 14; `bench/profile_request.py --instructions`). Without a
    session there is nothing to read: the session is empty and the user anonymous.
    """

    def process_request(self, request):
        super().process_request(request)  # checks for the session middleware; sets request.auser
        request.user = auth.get_user(request)


class MaintenanceModeMiddleware:
    """Replace the whole storefront with 'Site Under Maintenance' when it is on."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            not request.path.startswith(_MAINTENANCE_OPEN)
            and store_settings_get().maintenance_mode
            and not is_staff_member(request.user)
        ):
            if request.path.startswith("/api/"):
                message = _("Site Under Maintenance")
                response = JsonResponse({"error": message, "message": message}, status=503)
            else:
                response = render(request, "maintenance.html", status=503)
            response["Retry-After"] = "3600"
            return response
        return self.get_response(request)


# C0 control characters and DEL: no URL of ours has one in its path
_CONTROL_IN_PATH = re.compile(r"[\x00-\x1f\x7f]")


# the largest body the shop takes: a 5 MB picture or CSV file (catalog.media, backoffice.product_csv) and
# the form around it
REQUEST_MAX_BYTES = 6 * 1024 * 1024


class RequestSizeMiddleware:
    """Refuse (413) a request announcing a body larger than REQUEST_MAX_BYTES, before anything reads it.

    Django limits form fields (DATA_UPLOAD_MAX_MEMORY_SIZE) but not uploaded files: a multipart body posted
    to any path was parsed (TypedTextMiddleware, the CSRF check, DRF) and its files written to the
    temporary folder, whatever their size and whoever sent them. A body without Content-Length is never
    read by Django at all. A proxy in front should refuse such bodies too (client_max_body_size 6m).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        length = request.META.get("CONTENT_LENGTH") or ""
        # ASCII digits only: str.isdigit() also takes "²", which int() refused with a 500 (as it does a
        # number past 4300 digits); a length Django's int() cannot read is 0 to it, and no body is read
        size = id_parse(length)
        too_large = size > REQUEST_MAX_BYTES if size is not None else length.isascii() and length.isdigit()
        if too_large:  # (19 or more ASCII digits: past any limit)
            language = translation.get_language_from_request(request, check_path=True)
            with translation.override(language):
                message = _("This upload is too large: files must be 5 MB or smaller")
            if request.path_info.startswith("/api/"):
                response = JsonResponse({"error": message, "message": message}, status=413)
            else:
                response = HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
            return response
        return self.get_response(request)


class StripNullBytesMiddleware:
    """Drop NUL characters from query parameters; a path holding NUL or another control character is a 404.

    PostgreSQL text cannot hold NUL, so a crafted `?q=%00` or `/api/payment/verify/x%00` would otherwise
    turn a harmless lookup into a 500. Forms and serializers already refuse NUL in submitted fields; this
    covers every raw `request.GET` read and every part of a path a view is given (`<str:…>` and
    `<path:…>` take anything), before any view runs. The 404 is the shop's own (translated, JSON under
    /api/): raised in `process_view`, once session, language and user are set.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "%00" in request.META.get("QUERY_STRING", ""):
            cleaned = QueryDict(mutable=True)
            for key, values in request.GET.lists():
                cleaned.setlist(key.replace("\x00", ""), [value.replace("\x00", "") for value in values])
            cleaned._mutable = False
            request.GET = cleaned
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if _CONTROL_IN_PATH.search(request.path_info):
            raise Http404("control character in the path")
        return None


class TypedTextMiddleware:
    """Read query strings and posted forms as `shop.validation.typed_text`: Eastern Arabic and Persian
    digits as 0-9, and no direction controls.

    The one place page forms and links get the rule; the API's JSON parser does the same for JSON
    bodies. Password fields stay as typed.
    """

    FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")

    def __init__(self, get_response):
        self.get_response = get_response

    @staticmethod
    def _typed(query):
        cleaned = QueryDict(mutable=True)
        for key, values in query.lists():
            cleaned.setlist(key, values if is_secret_field(key) else [typed_text(v) for v in values])
        cleaned._mutable = False
        return cleaned

    def __call__(self, request):
        if _TYPED_IN_QUERY.search(request.META.get("QUERY_STRING", "")):
            request.GET = self._typed(request.GET)
        # forms only (DRF reads an already-parsed multipart body from request.POST/FILES)
        if request.method == "POST" and request.content_type in self.FORMS:
            if any(_TYPED.search(v) for values in request.POST.lists() for v in values[1]):
                request.POST = self._typed(request.POST)
        return self.get_response(request)


class AtomicWritesMiddleware:
    """Run the view of every write request (POST, PUT, PATCH, DELETE) in one transaction.

    Django's ATOMIC_REQUESTS would also wrap every GET, and on SQLite our
    transactions are IMMEDIATE (so concurrent writers queue instead of
    failing): every page view would then take the database's write lock and
    all readers would wait on each other. Reads need no transaction; writes
    made during a GET belong to services, which own their transactions.

    Like ATOMIC_REQUESTS, an exception in the view rolls its writes back, and
    views marked @transaction.non_atomic_requests are left alone. It calls the
    view itself, so it must be the last middleware with a process_view.
    """

    _SAFE = ("GET", "HEAD", "OPTIONS", "TRACE")

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method in self._SAFE or DEFAULT_DB_ALIAS in getattr(view_func, "_non_atomic_requests", ()):
            return None
        with transaction.atomic():
            return view_func(request, *view_args, **view_kwargs)
