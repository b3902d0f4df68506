"""Money and camelCase at the edge: how amounts and island props are written.

Services return Decimals in dataclasses; output serializers turn them into
text here. `MoneyField` is the one way the API writes an amount ("1234.50",
half up to piasters); `island_props` camelizes server-rendered island props
exactly as the API's renderer camelizes a response.
"""

from decimal import ROUND_HALF_UP
from typing import Any

from djangorestframework_camel_case.settings import api_settings as camel_settings
from djangorestframework_camel_case.util import camelize
from rest_framework import serializers


class MoneyField(serializers.DecimalField):
    """An amount of money as a decimal string with two places ("1234.50"); output only."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(max_digits=14, decimal_places=2, coerce_to_string=True, rounding=ROUND_HALF_UP, **kwargs)


def island_props(data: Any) -> Any:
    """Serializer output (snake_case) → the camelCase keys the islands read, as the renderer writes them."""
    return camelize(data, **camel_settings.JSON_UNDERSCOREIZE)
