"""Money and camelCase at the edge: how amounts and island props are written.

Services return Decimals in dataclasses; output serializers turn them into
text here. `MoneyField` is the one way the API writes an amount ("1234.50",
half up to piasters); `camelize` writes the keys of every API answer
(`CamelCaseJSONRenderer`) and of server-rendered island props (`island_props`).
"""

import re
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from typing import Any

from django.utils.encoding import force_str
from django.utils.functional import Promise
from djangorestframework_camel_case import util as camel_case
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer


class MoneyField(serializers.DecimalField):
    """An amount of money as a decimal string with two places ("1234.50"); output only."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(max_digits=14, decimal_places=2, coerce_to_string=True, rounding=ROUND_HALF_UP, **kwargs)


def island_props(data: Any) -> Any:
    """Serializer output (snake_case) → the camelCase keys the islands read, as the renderer writes them."""
    return camelize(data)


@lru_cache(maxsize=4096)
def _camel_key(key: str) -> str:
    return re.sub(camel_case.camelize_re, camel_case.underscore_to_camel, key)


_PLAIN = (str, int, float, Decimal, type(None))
_PLAIN_TYPES = frozenset({*_PLAIN, bool})  # the same, without their subclasses: one set lookup


def camelize(data: Any) -> Any:
    """djangorestframework-camel-case's `camelize` (its default options), with each key's camelCase
    worked out once: the library ran a regular expression on every key of every answer, an eighth of
    the CPU of `GET /api/cart` (issue 14). Plain keys and values are told by their exact type first:
    every cart write's answer passes through here."""
    if type(data) in _PLAIN_TYPES:
        return data
    if isinstance(data, dict):
        return {_camel_key(key) if type(key) is str else _any_key(key):
                value if type(value) in _PLAIN_TYPES else camelize(value) for key, value in data.items()}
    if isinstance(data, _PLAIN):
        return data
    if isinstance(data, (list, tuple)):
        return [camelize(item) for item in data]
    if isinstance(data, Promise):
        return force_str(data)
    return camel_case.camelize(data)  # anything else, as the library takes it (an iterable becomes a list)


def _any_key(key: Any) -> Any:
    return _camel_key(force_str(key)) if isinstance(key, (str, Promise)) else key


class CamelCaseJSONRenderer(JSONRenderer):
    """JSON with camelCase keys (the islands' and the API's wire format)."""

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: dict[str, Any] | None = None) -> bytes:
        return super().render(camelize(data), accepted_media_type, renderer_context)

    def get_indent(self, accepted_media_type: str, renderer_context: dict[str, Any]) -> int | None:
        # DRF reads `indent=` from the accepted type's parameters: a type without any has none
        if accepted_media_type and ";" not in accepted_media_type:
            return renderer_context.get("indent", None)
        return super().get_indent(accepted_media_type, renderer_context)
