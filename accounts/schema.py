"""Tell drf-spectacular how bearer tokens and sessions authenticate, so /api/schema/ documents them."""

from drf_spectacular.authentication import SessionScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.BearerTokenAuthentication"
    name = "bearerToken"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer",
                "description": "The token from POST /api/auth/login; it lives 24 hours, or 30 days with rememberMe."}


class ShopSessionScheme(SessionScheme):
    """The session cookie, as drf-spectacular documents DRF's SessionAuthentication (ours reads the CSRF
    cookie once: accounts.authentication)."""

    target_class = "accounts.authentication.SessionAuthentication"
