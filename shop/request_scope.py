"""Shared-cache values read once per request (issue 14).

A request with a session reads the store settings (the maintenance check, then
caps, totals, delivery dates) and the catalogue version (the page cache,
fragment keys) up to four times; on Redis each read is a round trip. Inside a
request the first read of a key goes to the shared cache, together with the
keys usually read with it (`with_keys`), and the request keeps what it got.
Whatever changes one of these values in the request drops its copy
(`shared_forget`: StoreSettings.save, catalog_changed), so a request always sees
its own changes; other processes' changes are seen from their next request on,
as before. Outside a request (Celery tasks, commands, services called by tests)
every read goes to the shared cache.

A value the request will want later, whose key is known early, joins the next
read (`shared_prefetch`): the session middleware names the visitor's session
this way, and the generation tokens of what is kept for them (shop.sessions),
so a visitor with a session is found, with their tokens, in the round trip
that reads the settings.
"""

import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

_state = threading.local()


class RequestScopeMiddleware:
    """Open the request's copy of shared values; drop it when the response leaves."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # a request inside a request (shop.page_cache storing a page) gets its own scope, then hands it back
        outer = _values(), getattr(_state, "prefetch", [])
        _state.values, _state.prefetch = {}, []
        try:
            return self.get_response(request)
        finally:
            _state.values, _state.prefetch = outer


def _values() -> dict[str, Any] | None:
    return getattr(_state, "values", None)


def shared_get(key: str, *, with_keys: Sequence[str] = ()) -> Any:
    """cache.get(key), once per request; the first read also fetches `with_keys` (one round trip)."""
    values = _values()
    if values is None:
        return cache.get(key)
    if key not in values:
        _read(values, (key, *with_keys))
    return values[key]


def shared_get_many(keys: Sequence[str]) -> dict[str, Any]:
    """{key: cache.get(key)} for `keys` (None where missing), each read once per request; those not read
    yet in one round trip, with whatever was named for the next read (`shared_prefetch`)."""
    values = _values()
    if values is None:
        found = cache.get_many(keys)
        return {key: found.get(key) for key in keys}
    _read(values, keys)
    return {key: values[key] for key in keys}


def _read(values: dict[str, Any], keys: Sequence[str]) -> None:
    """Put in the request's `values` those of `keys`, and of the keys named for the next read, that it
    has not read yet (None where missing): one round trip, none when it has them all."""
    wanted = [key for key in dict.fromkeys((*keys, *_state.prefetch)) if key not in values]
    _state.prefetch = []
    if len(wanted) == 1:
        values[wanted[0]] = cache.get(wanted[0])
    elif wanted:
        found = cache.get_many(wanted)
        for key in wanted:
            values[key] = found.get(key)


def shared_prefetch(key: str) -> None:
    """Read `key` with the request's next shared read (no round trip of its own); shared_get then has it."""
    if _values() is not None:
        _state.prefetch.append(key)


def shared_put(key: str, value: Any) -> None:
    """The value the caller has just stored under `key` in the shared cache, for the rest of the request."""
    values = _values()
    if values is not None:
        values[key] = value


def shared_forget(key: str) -> None:
    """`key`'s value changed: the request reads it again next time."""
    values = _values()
    if values is not None:
        values.pop(key, None)
