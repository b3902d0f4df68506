"""Model instances from plain SQL, for the few hot paths where building a query costs more than running it.

Issue 14: a cart write read its cart and its lines with their products through
the ORM, and building those two SELECTs (39 columns with the product's
translations) took about 1.2 ms of CPU where sending them and reading the rows
took 0.16 ms. `Columns` names a model's columns for a SELECT once and turns the
rows into instances exactly as the ORM would (`Model.from_db`, with the
database's and the fields' converters: JSON, decimals and dates on SQLite).
"""

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any, Generic, TypeVar

from django.db import connection
from django.db.models import Field, Model
from django.db.models.expressions import Col

M = TypeVar("M", bound=Model)

Converter = Callable[[Any, Any, Any], Any]


class Columns(Generic[M]):
    """Every concrete column of `model` under the table alias `alias`."""

    def __init__(self, model: type[M], alias: str) -> None:
        self.model, self.alias = model, alias

    @cached_property
    def _fields(self) -> "list[Field[Any, Any]]":
        return list(self.model._meta.concrete_fields)

    @cached_property
    def sql(self) -> str:
        """`alias."column", …` in the model's field order (what `instance` expects)."""
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(field.column)}" for field in self._fields)

    @cached_property
    def width(self) -> int:
        """How many columns `sql` names."""
        return len(self._fields)

    @cached_property
    def _names(self) -> list[str]:
        return [field.attname for field in self._fields]

    @cached_property
    def _converters(self) -> list[tuple[int, Col, list[Converter]]]:
        """(index, column, converters) of the columns whose values need converting, as the compiler
        finds them: the database's converters, then the field's; each called with the column."""
        found = []
        for index, field in enumerate(self._fields):
            column = field.get_col(self.alias)
            converters = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
            if converters:
                found.append((index, column, converters))
        return found

    def instance(self, values: Sequence[Any]) -> M:
        """The instance of one row's `sql` columns, as the ORM would build it."""
        values = list(values)
        for index, column, converters in self._converters:
            value = values[index]
            for convert in converters:
                value = convert(value, column, connection)
            values[index] = value
        return self.model.from_db(connection.alias, self._names, values)
