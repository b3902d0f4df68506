"""Security headers Django and django-csp do not send, and the media file view.

Django's SecurityMiddleware sends HSTS (to HTTPS requests only, including
those a trusted proxy marks with X-Forwarded-Proto), nosniff, Referrer-Policy
and Cross-Origin-Opener-Policy; django-csp sends the Content-Security-Policy.
This module adds Permissions-Policy to every response and locks down files
served from /media/, which staff and the importer can fill.
"""

from django.conf import settings
from django.views.static import serve

# What a file under /media/ may do when opened on its own: nothing. No script
# runs (sandbox, no script-src); inline styles stay so that the demo
# catalogue's SVG pictures still draw as <img>.
MEDIA_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"
# Formats a browser renders as a document that can carry script if opened
# directly: downloaded, never shown, when their URL is opened on its own.
_ATTACHMENT_SUFFIXES = (".svg", ".svgz", ".html", ".htm", ".xhtml", ".xml")


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
    response = serve(request, path, document_root=settings.MEDIA_ROOT)
    response["Content-Security-Policy"] = MEDIA_POLICY
    response["X-Content-Type-Options"] = "nosniff"
    if path.lower().endswith(_ATTACHMENT_SUFFIXES):
        response["Content-Disposition"] = "attachment"
    return response
