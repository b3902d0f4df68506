from django.utils.translation import gettext_lazy as _
from rest_framework import HTTP_HEADER_ENCODING, authentication, exceptions
from rest_framework.authentication import CSRFCheck
from rest_framework.request import Request

from accounts.models import AuthToken


class CsrfRefused(exceptions.PermissionDenied):
    """A write without the page's CSRF token, in the visitor's language: DRF's "CSRF Failed: CSRF token
    missing." was shown as it is by the islands, in English on an Arabic page. The usual cause is a page
    open from before the visitor signed in or out (the token changed), which a reload mends."""

    default_detail = _("This page has expired. Reload it and try again.")
    default_code = "csrf_failed"


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """`Authorization: Bearer <token>` for customers and staff alike."""

    keyword = "Bearer"

    def authenticate(self, request):
        # DRF's get_authorization_header, read from the Django request's META: `request.headers` builds a
        # table of every header's name, which nothing else in an API call needs, and DRF's request passes
        # META on only after an AttributeError (issue 14)
        meta = request._request.META
        header = meta.get("HTTP_AUTHORIZATION", "").encode(HTTP_HEADER_ENCODING).decode(errors="ignore")
        parts = header.split()
        if not parts or parts[0] != self.keyword:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(_("Invalid token header."))
        token = (
            AuthToken.objects.select_related("user")
            .filter(key_hash=AuthToken.hash_key(parts[1]))
            .first()
        )
        if token is None or token.is_expired or not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("Invalid or expired token."))
        request.auth_token = token
        return token.user, token

    def authenticate_header(self, request):
        return self.keyword


class SessionAuthentication(authentication.SessionAuthentication):
    """DRF's, reading the CSRF cookie once per request.

    DRF checks a signed-in visitor's write with a CsrfViewMiddleware of its own, which reads the cookie
    again (process_request) before checking the token against it (process_view). The shop's
    CsrfViewMiddleware has read it for this request already (request.META["CSRF_COOKIE"]), so only the
    check runs: 1 % of a signed-in cart write's instructions (issue 14). Without a cookie read (the
    middleware found none) it is DRF's own.
    """

    def enforce_csrf(self, request):
        if "CSRF_COOKIE" not in request._request.META:  # (DRF's request passes META on after an AttributeError)
            try:
                return super().enforce_csrf(request)
            except exceptions.PermissionDenied:
                raise CsrfRefused() from None
        reason = CSRFCheck(_no_response).process_view(request, None, (), {})
        if reason:
            raise CsrfRefused()
        return None


def csrf_enforce(request: Request) -> None:
    """Refuse a write (a DRF request) without the visitor's CSRF token, signed in or not: DRF checks only
    signed-in visitors' writes. For the writes that sign a visitor in, so that a form on another site
    cannot sign them into an account of its choosing and collect what they type next (login CSRF)."""
    SessionAuthentication().enforce_csrf(request)


def _no_response(request):  # pragma: no cover  (the check never calls on)
    return None
