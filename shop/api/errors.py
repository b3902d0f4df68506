"""One shape for every API error: {"error", "message"} plus "field" when one field is wrong, and
"fields" ({field: message}) when a form has several."""

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from shop.errors import ShopError


class ApiError(exceptions.APIException):
    """Raise from a view or service to answer with a message (and a field)."""

    status_code = status.HTTP_400_BAD_REQUEST

    def __init__(self, message, *, field=None, status_code=None):
        super().__init__(message)
        self.message = str(message)
        self.field = field
        if status_code:
            self.status_code = status_code


def error_response(message, *, field=None, status_code=400, fields=None):
    body = {"error": str(message), "message": str(message)}
    if field:
        body["field"] = field
    if fields:
        body["fields"] = fields
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


def camel_case(name):
    """`first_name` → `firstName`: a field name as the API spells it."""
    if not name:
        return name
    parts = name.split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])


def exception_handler(exc, context):
    if isinstance(exc, ApiError | ShopError):
        field = _api_name(exc.field) if exc.field else None
        fields = {_api_name(name): text for name, text in (getattr(exc, "fields", None) or {}).items()}
        return error_response(exc.message, field=field, status_code=exc.status_code, fields=fields)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )
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
        response.data = {"error": message, "message": message}
        if field:
            response.data["field"] = field
        return response
    if isinstance(exc, exceptions.Throttled):
        from shop.ratelimit import rate_limit_message

        message = rate_limit_message()
    elif isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        # a subclass with its own text ('Admin authentication required') keeps it
        generic = type(exc) is exceptions.NotAuthenticated
        message = _("Authentication required") if generic else str(exc.detail)
    else:
        message = str(exc.detail) if not isinstance(exc.detail, dict | list) else _first_error(exc.detail)[1]
    response.data = {"error": message, "message": message}
    return response
