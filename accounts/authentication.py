from django.utils.translation import gettext_lazy as _
from rest_framework import HTTP_HEADER_ENCODING, authentication, exceptions

from accounts.models import AuthToken


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """`Authorization: Bearer <token>` for customers and staff alike."""

    keyword = "Bearer"

    def authenticate(self, request):
        # DRF's get_authorization_header, read from META: its `request.headers` builds a table of every
        # header's name, which nothing else in an API call needs (issue 14)
        header = request.META.get("HTTP_AUTHORIZATION", "").encode(HTTP_HEADER_ENCODING).decode(errors="ignore")
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
