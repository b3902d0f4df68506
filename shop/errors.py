"""The one error type a service raises for something the user can fix.

Services stay free of HTTP: they raise `ShopError` (or a subclass named after
their concern) with the message to show, the field at fault and a status
hint. The API error handler (`shop.api.errors`) and the page views turn it into
a response; nothing ever decides a status by reading the message text, only by
`status` and `code`.
"""


from typing import Any

from django.db import OperationalError


class ShopError(Exception):
    """A problem the user can fix; `message` is the text to show them."""

    field: str | None = None
    status: int = 400
    code: str = ""
    # every field's message when a form has several problems ({field: message}); `field`
    # and `message` stay those of the first, so one-field clients keep working
    fields: dict[str, str] | None = None

    def __init__(self, message: Any, *, field: str | None = None, status: int | None = None,
                 code: str | None = None, fields: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = str(message)
        if field is not None:
            self.field = field
        if fields:
            self.fields = {name: str(text) for name, text in fields.items()}
        if status is not None:
            self.status = status
        if code is not None:
            self.code = code

    # older callers read `status_code`; one name would be better, and this keeps both true
    @property
    def status_code(self) -> int:
        return self.status


def camel_case(name: str) -> str:
    """`first_name` → `firstName`: a field name as the API spells it (a service names its `field` so)."""
    if not name:
        return name
    parts = name.split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])


# PostgreSQL's "lock_not_available": a statement gave up waiting for a lock another session holds (lock_timeout)
LOCK_NOT_AVAILABLE = "55P03"


def database_busy(error: BaseException | None) -> bool:
    """Whether `error` is the database giving up on a lock another session holds: PostgreSQL's lock_timeout
    (DATABASE_LOCK_TIMEOUT) or SQLite's busy timeout. Its transaction was rolled back, so nothing was saved
    and the same request may simply be sent again."""
    if not isinstance(error, OperationalError):
        return False
    return getattr(error.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE or str(error) == "database is locked"
