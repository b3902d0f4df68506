"""Bounds every DRF IntegerField carries unless it sets its own.

An integer past what a column holds is a 500, not a 400: SQLite's driver
overflows above 2^63 and PostgreSQL's `integer` columns (stock, quantities,
usage limits) above 2^31. No number a client sends us is ever that large, so
every IntegerField refuses values outside PostgreSQL's `integer` range with a
field error, unless it names its own `min_value`/`max_value`. Installed once
from `ShopConfig.ready`, so serializers written later are covered too.
"""

from rest_framework import serializers

INTEGER_MIN = -(2**31)
INTEGER_MAX = 2**31 - 1


def integer_fields_bound():
    """Give every DRF IntegerField the database's integer range by default (idempotent)."""
    field = serializers.IntegerField
    if getattr(field, "_bounded_by_default", False):
        return
    original_init = field.__init__

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", INTEGER_MIN)
        kwargs.setdefault("max_value", INTEGER_MAX)
        original_init(self, **kwargs)

    field.__init__ = __init__
    field._bounded_by_default = True
