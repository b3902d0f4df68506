"""The OpenAPI schema's naming: every component name must say which call it belongs to."""

from drf_spectacular.openapi import AutoSchema


class ShopAutoSchema(AutoSchema):
    """Name serializers nested in an API view after the view.

    Our views keep their serializers as nested `InputSerializer` and
    `OutputSerializer` classes (HackSoft style); drf-spectacular would name
    every one of them "Input" or "Output", and the published schema would then
    validate one call against another call's shape.
    """

    def get_serializer_name(self, serializer, direction):
        path = type(serializer).__qualname__.split(".")
        if len(path) > 1:
            return path[-2].removesuffix("Api") + path[-1]
        return super().get_serializer_name(serializer, direction)

    def get_operation_id(self):
        """`<app>_<view>_<method>`: unique by construction, stable when URLs move."""
        view = type(self.view)
        app = view.__module__.split(".")[0]
        name = view.__name__.removesuffix("Api")
        snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")
        return f"{app}_{snake}_{self.method.lower()}"


ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "error": {"type": "string"},
        "message": {"type": "string"},
        "field": {"type": "string"},
        "fields": {"type": "object", "additionalProperties": {"type": "string"}},
    },
    "required": ["error", "message"],
}
# what any call may answer besides its own success: bad input, no or wrong
# credentials, unknown id, a conflict, too many requests, a provider down
ERROR_STATUSES = {
    "400": "Bad input", "401": "Authentication required", "403": "Not allowed",
    "404": "Not found", "405": "Method not allowed", "409": "Conflict",
    "429": "Too many requests", "503": "Service unavailable",
}


def document_error_responses(result, generator, request, public):
    """Postprocessing hook: every operation documents the shared error shape."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    ref = {"$ref": "#/components/schemas/Error"}
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            responses = operation.setdefault("responses", {})
            for status, description in ERROR_STATUSES.items():
                responses.setdefault(status, {
                    "description": description, "content": {"application/json": {"schema": ref}},
                })
    return result
