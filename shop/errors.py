"""The one error type a service raises for something the user can fix.

Services stay free of HTTP: they raise `ShopError` (or a subclass named after
their concern) with the message to show, the field at fault and a status
hint. The API error handler (`shop.api.errors`) and the page views turn it into
a response; nothing ever decides a status by reading the message text, only by
`status` and `code`.
"""


from typing import Any


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
