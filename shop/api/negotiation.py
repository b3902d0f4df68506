"""Which renderer answers an API call: DRF's content negotiation, without parsing the usual Accept headers.

Every API answer is JSON (one renderer, `CamelCaseJSONRenderer`), and nearly every caller says so
the same way: the islands send `application/json`, curl and most clients `*/*` or nothing. DRF
parsed the header into media types and matched them against the renderer at every call, 2.5 % of
a cart write's instructions (issue 14). For those few headers, with no `?format=` or format suffix,
the answer is worked out here as DRF's would be; any other header, a format, or another renderer
goes through DRF's own negotiation (a 406 for what the shop cannot write). The same for the parser
of a body sent as JSON.
"""

from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

JSON = "application/json"

# the Accept headers that DRF answers with the JSON renderer and "application/json", unchanged
# (no header at all reads as */*; an empty one is refused by DRF, so it is not among them)
USUAL_ACCEPT = frozenset({"*/*", JSON, "application/json, */*", "application/json, text/plain, */*"})


class ShopContentNegotiation(DefaultContentNegotiation):
    def select_renderer(self, request: Request, renderers: list[BaseRenderer],
                        format_suffix: str | None = None) -> tuple[BaseRenderer, str] | Any:
        meta = request._request.META
        if (format_suffix is None and not meta.get("QUERY_STRING") and len(renderers) == 1
                and renderers[0].media_type == JSON and meta.get("HTTP_ACCEPT", "*/*") in USUAL_ACCEPT):
            return renderers[0], JSON
        return super().select_renderer(request, renderers, format_suffix)

    def select_parser(self, request: Request, parsers: list[BaseParser]) -> BaseParser | None:
        # DRF takes the first parser whose type matches the body's; a type written exactly as the first
        # parser's (the islands' "application/json") matches it, without parsing either
        if parsers and request.content_type == parsers[0].media_type:
            return parsers[0]
        return super().select_parser(request, parsers)
