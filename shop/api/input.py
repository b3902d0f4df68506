"""A request body validated by an input serializer, without building the serializer where it is flat.

DRF builds a serializer for every request and deep-copies each declared field into it (every
field's `__init__` again: its validators, its messages), then binds them: 6 % of the instructions of
a cart write, whose body is one or two numbers (issue 14). A field needs nothing of a serializer
while it validates a value, so a flat serializer (plain fields, each named as the body names it, no
`validate` methods or validators of its own) validates a JSON object with one copy of its fields
per language, made once per process and shared by every request in that language: a limit's
message ("Ensure this field has no more than 100 characters.") is written out once and kept by
the validator, in the language of the request that first needed it. Anything else (nested
serializers, list and hidden fields, defaults or validators that need the serializer, a
form-encoded body) is validated by DRF as usual. Either way the answer is DRF's, errors included.
"""

import copy
from collections.abc import Mapping
from functools import cache
from typing import Any

from django.utils.translation import get_language
from rest_framework import serializers
from rest_framework.fields import Field, SkipField, empty

Serializer = serializers.Serializer


def validated_input(serializer_class: type[Serializer[Any]], data: Any) -> Mapping[str, Any]:
    """What `serializer_class(data=data).is_valid(raise_exception=True)` leaves in `validated_data`."""
    if type(data) is not dict or not _flat(serializer_class):
        serializer = serializer_class(data=data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data
    values, errors = {}, {}
    for name, field in _fields(serializer_class, get_language()).items():
        if field.read_only:
            continue
        try:
            values[name] = field.run_validation(data.get(name, empty))
        except serializers.ValidationError as exc:
            errors[name] = exc.detail
        except SkipField:
            pass
    if errors:
        raise serializers.ValidationError(errors)
    return values


@cache
def _fields(serializer_class: type[Serializer[Any]], language: str | None) -> dict[str, Field[Any, Any, Any, Any]]:
    return copy.deepcopy(serializer_class._declared_fields)


@cache
def _flat(serializer_class: type[Serializer[Any]]) -> bool:
    own_validators = getattr(getattr(serializer_class, "Meta", None), "validators", None)
    return (serializer_class.validate is Serializer.validate and not own_validators
            and all(_plain(serializer_class, name, field) for name, field in serializer_class._declared_fields.items()))


def _plain(serializer_class: type[Serializer[Any]], name: str, field: Field[Any, Any, Any, Any]) -> bool:
    """A field that validates its value the same bound to a serializer or not: one that reads its value
    by its name, has no children, and no default or validator that asks for the serializer."""
    return (type(field).get_value is Field.get_value and not isinstance(field, serializers.BaseSerializer)
            and field.source in (None, name) and not hasattr(serializer_class, f"validate_{name}")
            and not getattr(field.default, "requires_context", False)
            and not any(getattr(validator, "requires_context", False) for validator in field.validators))
