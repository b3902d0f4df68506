"""One shape for every API error: {"error", "message"} plus "field" when one field is wrong, and
"fields" ({field: message}) when a form has several."""

import re

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from accounts.roles import AdminAuthenticationRequired, StaffAreaPermission
from shop.errors import ShopError, camel_case
from shop.ratelimit import rate_limit_message


class ApiError(ShopError):
    """ShopError as older views spell it (`status_code=`); new code raises ShopError."""

    def __init__(self, message, *, field=None, status_code=None):
        super().__init__(message, field=field, status=status_code)


# what an error message may not echo back: lone surrogates cannot be encoded
# as UTF-8 (the answer itself would fail) and control characters are noise
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def printable(text):
    """`text` without the characters an answer must not echo (a refused value quoted in a message)."""
    return _UNPRINTABLE.sub("\ufffd", str(text))


def error_response(message, *, field=None, status_code=400, fields=None):
    message = printable(message)
    body = {"error": message, "message": message}
    if field:
        body["field"] = printable(field)
    if fields:
        body["fields"] = {printable(name): printable(text) for name, text in fields.items()}
    return Response(body, status=status_code)


def _api_name(field):
    return ".".join(camel_case(p) for p in field.split("."))


def _first_error(detail, prefix=""):
    """Return (field, message) of the first validation error in a DRF detail."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            field = key if key != "non_field_errors" else ""
            name = f"{prefix}.{field}" if prefix and field else (field or prefix)
            return _first_error(value, name)
    if isinstance(detail, list) and detail:
        return _first_error(detail[0], prefix)
    return prefix or None, str(detail)


def _staff_area(view):
    """Whether `view` is a staff endpoint (/api/admin/…, /api/reviews/admin/…): guarded by the role matrix."""
    classes = getattr(view, "permission_classes", None) or ()
    return any(isinstance(c, type) and issubclass(c, StaffAreaPermission) for c in classes)


def exception_handler(exc, context):
    if isinstance(exc, ShopError):
        field = _api_name(exc.field) if exc.field else None
        fields = {_api_name(name): text for name, text in (exc.fields or {}).items()}
        return error_response(exc.message, field=field, status_code=exc.status_code, fields=fields)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )
    if isinstance(exc, exceptions.AuthenticationFailed) and _staff_area(context.get("view")):
        # the staff area answers a token that failed (expired, revoked, its staff member deactivated) as it
        # answers no credentials: 401 'Admin authentication required' (DECISIONS.md), not the token check's words
        refused = AdminAuthenticationRequired()
        refused.auth_header = getattr(exc, "auth_header", None)  # set by the view; keeps it a 401
        exc = refused
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        field, message = _first_error(exc.detail)
        field = ".".join(camel_case(p) for p in field.split(".")) if field else None
        message = printable(message)
        response.data = {"error": message, "message": message}
        if field:
            response.data["field"] = printable(field)
        return response
    if isinstance(exc, exceptions.Throttled):

        message = rate_limit_message()
    elif isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        # a subclass with its own text ('Admin authentication required') keeps it
        generic = type(exc) is exceptions.NotAuthenticated
        message = _("Authentication required") if generic else str(exc.detail)
    else:
        message = str(exc.detail) if not isinstance(exc.detail, dict | list) else _first_error(exc.detail)[1]
    message = printable(message)
    response.data = {"error": message, "message": message}
    return response
