"""Reading JSON from the outside world without ever answering 500.

Python's `json` module happily reads things no client of ours ever sends and
the rest of the shop cannot handle: `NaN`, `Infinity` and `1e400` (which
Decimal fields and the database refuse), integers of any size (the database
overflows above 2^63), and nesting so deep that reading it raises
RecursionError. `json_loads` refuses all of these with a ValueError, and the
API's parser (`StrictJSONParser`, configured in settings) and the Paymob
callback both read through it. The parser also refuses NUL bytes and lone
surrogates in any string with a field error: PostgreSQL cannot store them, and
echoing one back breaks the UTF-8 answer.
"""

import json
import math
import re
from typing import Any

from django.conf import settings
from djangorestframework_camel_case.parser import CamelCaseJSONParser
from djangorestframework_camel_case.settings import api_settings as camel_settings
from djangorestframework_camel_case.util import underscoreize
from rest_framework.exceptions import ParseError

from shop.errors import ShopError
from shop.validation import text_problem, typed_text_in

MAX_DEPTH = 32  # the deepest body we read (checkout is 3 levels)
INT_LIMIT = 2**63 - 1  # what a 64-bit database column holds

# a string token (its closing quote optional, so an unclosed one ends the scan
# in linear time) or a bracket outside strings
_BRACKETS_OUTSIDE_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"?|([\[\]{}])', re.DOTALL)
_UNSAFE = re.compile(r"[\x00\ud800-\udfff]")


def nesting_depth(text, *, stop_above=None):
    """The deepest bracket nesting of a JSON text, counting only brackets outside strings.

    With `stop_above`, stop counting once the depth passes it.
    """
    depth = deepest = 0
    for match in _BRACKETS_OUTSIDE_STRINGS.finditer(text):
        bracket = match.group(1)
        if bracket is None:
            continue
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if stop_above is not None and deepest > stop_above:
                break
        else:
            depth -= 1
    return deepest


def _non_finite(name):
    raise ValueError(f"{name} is not a number we accept")


def _finite_float(text):
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text} is out of range")
    return number


def _bounded_int(text):
    number = int(text)  # Python itself refuses more than 4300 digits
    if abs(number) > INT_LIMIT:
        raise ValueError(f"{text[:20]}… is out of range")
    return number


def json_loads(text: str) -> Any:
    """Parse JSON text, refusing non-finite and huge numbers and deep nesting (ValueError)."""
    if nesting_depth(text, stop_above=MAX_DEPTH) > MAX_DEPTH:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
    return json.loads(text, parse_constant=_non_finite, parse_float=_finite_float, parse_int=_bounded_int)


def unsafe_text_path(data, path=""):
    """The name of the first field whose string (or key) holds NUL or a lone surrogate, or None.

    The field is named by its own key (a nested `billingAddress.city` is
    `city`), as the forms that show the error name their fields.
    """
    if isinstance(data, str):
        return path or "body" if _UNSAFE.search(data) else None
    if isinstance(data, dict):
        for key, value in data.items():
            if _UNSAFE.search(str(key)):
                return path or "body"
            found = unsafe_text_path(value, str(key))
            if found:
                return found
    if isinstance(data, list):
        for item in data:
            found = unsafe_text_path(item, path)
            if found:
                return found
    return None


class StrictJSONParser(CamelCaseJSONParser):
    """The camel-case JSON parser, reading through `json_loads` and refusing unsafe text."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json_loads(stream.read().decode(encoding))
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            raise ParseError() from None  # DRF's translated "Malformed request."; the details help nobody
        field = unsafe_text_path(data)
        if field:
            raise ShopError(text_problem("\x00", max_length=1), field=field)
        # the one digit rule, and no direction controls, in any string (passwords excepted)
        return underscoreize(typed_text_in(data), **camel_settings.JSON_UNDERSCOREIZE)
