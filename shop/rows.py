"""Model instances from plain SQL, for the few hot paths where building a query costs more than running it.

Issue 14: a cart write read its cart and its lines with their products through
the ORM, and building those two SELECTs (39 columns with the product's
translations) took about 1.2 ms of CPU where sending them and reading the rows
took 0.16 ms. `Columns` names a model's columns for a SELECT once and turns the
rows into instances exactly as the ORM would (`Model.from_db`, with the
database's and the fields' converters: JSON, decimals and dates on SQLite). Given `only`, it names
just those columns and leaves the others deferred, as `QuerySet.only` does: a product in a cart
needs ten of its 39 columns, and turning the rest into values (eight JSON documents among them)
was 6 % of a cart write's instructions (issue 14). `instance_copy` copies a row a process keeps (the
signed-in user's, the store settings) for each request that reads it.
"""

from collections.abc import Callable, Collection, Sequence
from functools import cached_property
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field, Model
from django.db.models.base import ModelState
from django.db.models.expressions import Col

M = TypeVar("M", bound=Model)

Converter = Callable[[Any, Any, Any], Any]


class Columns(Generic[M]):
    """The concrete columns of `model` under the table alias `alias`: every one, or the primary key and
    the fields named in `only` (a translated field with its columns in every language)."""

    def __init__(self, model: type[M], alias: str, *, only: Collection[str] = ()) -> None:
        self.model, self.alias, self.only = model, alias, frozenset(only)

    @cached_property
    def _fields(self) -> "list[Field[Any, Any]]":
        return [field for field in self.model._meta.concrete_fields if not self.only or self._named(field)]

    def _named(self, field: "Field[Any, Any]") -> bool:
        translated = getattr(field, "translated_field", None)  # modeltranslation's title_en, title_ar
        return field.primary_key or field.name in self.only or (translated is not None and translated.name in self.only)

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
    def _names(self) -> frozenset[str]:
        return frozenset(field.attname for field in self._fields)

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
        db = connections[DEFAULT_DB_ALIAS]  # looked up once: each use of `connection` looks it up again
        values = list(values)
        for index, column, converters in self._converters:
            value = values[index]
            for convert in converters:
                value = convert(value, column, db)
            values[index] = value
        return self.model.from_db(db.alias, self._names, values)


def instance_copy(instance: M) -> M:
    """The copy `copy.copy(instance)` makes (its own attributes and ModelState, its cache of related
    objects copied, the values shared), made directly: copy.copy goes through the pickling protocol
    (Model.__reduce__, __getstate__, a lookup of the model by name, __setstate__), and a row kept in a
    process is copied for every request that reads it (issue 14)."""
    model = type(instance)
    copied = model.__new__(model)
    copied.__dict__.update(instance.__dict__)
    source, state = instance._state, ModelState()
    state.adding, state.db = source.adding, source.db
    if source.__dict__.get("fields_cache"):  # related objects read with it (none for a row read alone)
        state.fields_cache = source.fields_cache.copy()
    copied._state = state
    return copied
