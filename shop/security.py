"""Security headers Django and django-csp do not send, and the media file view.

Django's SecurityMiddleware sends HSTS (to HTTPS requests only, including
those a trusted proxy marks with X-Forwarded-Proto), nosniff, Referrer-Policy
and Cross-Origin-Opener-Policy; django-csp sends the Content-Security-Policy.
This module adds Permissions-Policy to every response and locks down files
served from /media/, which staff and the importer can fill.
"""

from csp import middleware as csp_middleware
from csp.constants import HEADER, HEADER_REPORT_ONLY
from django.conf import settings
from django.http import Http404
from django.views.static import serve

# What a file under /media/ may do when opened on its own: nothing. No script
# runs (sandbox, no script-src); inline styles stay so that the demo
# catalogue's SVG pictures still draw as <img>.
MEDIA_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"
# What /media/ serves at all: the pictures the shop stores there (catalog/media.py, the demo's SVG).
# Anything else is not found, so a MEDIA_ROOT set to DATA_DIR (or a folder holding it) publishes
# neither the secret key, the database nor the backups.
_SERVED_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg")
# Formats a browser renders as a document that can carry script if opened
# directly: downloaded, never shown, when their URL is opened on its own.
_ATTACHMENT_SUFFIXES = (".svg",)


def csp_allow(response, directive, sources):
    """Widen one directive of this response's policy, enforced or report-only alike."""
    update = {directive: list(sources)}
    response._csp_update = update
    response._csp_update_ro = update
    return response


def docs_view(view):
    """Swagger UI (the API docs page) injects inline styles: allow those there and nowhere else."""

    def wrapped(request, *args, **kwargs):
        return csp_allow(view(request, *args, **kwargs), "style-src", ["'unsafe-inline'"])

    return wrapped


class PermissionsPolicyMiddleware:
    """Turn off browser features the shop never uses (camera, microphone, …) on every response."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response


def media(request, path):
    """Serve an uploaded or imported file with a policy that lets nothing in it run.

    An <img> still shows an SVG sent as an attachment; opening its URL in a
    tab downloads it instead of running it on the shop's origin.
    """
    if not path.lower().endswith(_SERVED_SUFFIXES):
        raise Http404
    response = serve(request, path, document_root=settings.MEDIA_ROOT)
    response["Content-Security-Policy"] = MEDIA_POLICY
    response["X-Content-Type-Options"] = "nosniff"
    if path.lower().endswith(_ATTACHMENT_SUFFIXES):
        response["Content-Disposition"] = "attachment"
    return response


_NONCE_MARK = "__nonce__"
_PER_RESPONSE = frozenset(("_csp_config", "_csp_update", "_csp_replace", "_csp_exempt",
                           "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro", "_csp_exempt_ro"))


class CSPMiddleware(csp_middleware.CSPMiddleware):
    """django-csp's middleware with each policy built once per process, not on every response.

    Responses that change their policy (csp_allow, decorators), DEBUG and
    excluded prefixes take django-csp's own path; every other
    response gets the same header it would build, with this request's nonce.
    """

    _built: dict[tuple[bool, bool, int, int], str] = {}
    # what request.csp_nonce becomes once the header is out: reading it raises (django-csp's guard). One
    # object serves every request: it never holds a value, each read calls the guard again.
    _NONCE_SPENT = csp_middleware.CheckableLazyObject(csp_middleware.CSPMiddleware._csp_nonce_post_response)

    def process_response(self, request, response):
        configs = (getattr(settings, "CONTENT_SECURITY_POLICY", None),
                   getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None))
        if (settings.DEBUG or not _PER_RESPONSE.isdisjoint(response.__dict__)
                or any((config or {}).get("EXCLUDE_URL_PREFIXES") for config in configs)):
            return super().process_response(request, response)
        nonce = getattr(request, "_csp_nonce", None)
        for header, report_only, config in ((HEADER, False, configs[0]), (HEADER_REPORT_ONLY, True, configs[1])):
            if config is None or header in response:
                continue
            # keyed by the settings objects too, so a changed setting (override_settings) is seen
            key = (report_only, nonce is not None, id(configs[0]), id(configs[1]))
            policy = self._built.get(key)
            if policy is None:
                policy = self._built[key] = csp_middleware.build_policy(
                    config=None, update=None, replace=None, nonce=_NONCE_MARK if nonce else None,
                    report_only=report_only)
            if policy:
                response[header] = policy.replace(_NONCE_MARK, nonce) if nonce else policy
        if nonce is None:
            request.csp_nonce = self._NONCE_SPENT
        return response
