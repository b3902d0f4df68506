"""Values kept in a web process for as long as a token in the shared cache lives (issue 14).

Some things every request of a visitor needs change far less often than they are
read: a signed-in customer's user row (accounts.user_cache), what their cart
holds (orders.cart). A `Generations` keeps such values in this process's memory,
per *owner* (a user, a session), each under the owner's current *generation*: a
random token in the shared cache, read (one small cache read) before anything it
guards is read from the database. Every change deletes the owner's token once
its transaction commits, and before the transaction itself reads it again
(`changed`); the next request finds none, makes a new one and reads the database
again. A request that read the rows while a change was being committed kept them
under a token the commit deleted, so they are never used again: a change holds
from the very next request, in every process. While the shared cache is
unreachable there is no token and nothing is kept: every request reads the
database.
"""

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction

from shop.request_scope import shared_forget, shared_get, shared_get_many, shared_put

T = TypeVar("T")

# a token nobody asked for in a day goes; the next request makes a new one
TOKEN_SECONDS = 24 * 60 * 60


def _new_token(key: str) -> str | None:
    token = secrets.token_hex(8)
    if not cache.add(key, token, TOKEN_SECONDS):
        token = cache.get(key)  # another request made one first (or the cache is down: None)
    shared_put(key, token)
    return token


def found_tokens(*wanted: "tuple[Generations, object]") -> list[str | None]:
    """The current token of each (generations, owner), read in one round trip (none when the request's
    first read had them: shop.sessions names them); None where there is none (none made:
    `Generations.new_token` makes one where the caller needs it)."""
    keys = [generations.key(owner) for generations, owner in wanted]
    for key in keys:
        _delete_if_changed(key)
    found = shared_get_many(keys)
    return [found[key] for key in keys]


class Generations:
    def __init__(self, prefix: str, size: int) -> None:
        self.prefix, self.size = prefix, size
        self._local: OrderedDict[Hashable, tuple[str, dict[Hashable, Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def key(self, owner: object) -> str:
        return f"{self.prefix}:{owner}"

    def current(self, owner: object) -> str | None:
        """The owner's token, made now when there is none (None while the shared cache is unreachable)."""
        key = self.key(owner)
        _delete_if_changed(key)  # this transaction changed the owner: its own reads see the change
        token = shared_get(key)
        return token if token is not None else _new_token(key)

    def new_token(self, owner: object) -> str | None:
        """A token for an owner found without one (another request's, if it made one first)."""
        key = self.key(owner)
        _delete_if_changed(key)
        return _new_token(key)

    def values(self, owner: Hashable, token: str | None) -> dict[Hashable, Any] | None:
        """What this process keeps for `owner` under `token` (a new, empty dict when the token is new),
        or None without a token."""
        if token is None:
            return None
        found = self._local.get(owner)
        if found is not None and found[0] == token:
            return found[1]
        values: dict[Hashable, Any] = {}
        with self._lock:
            self._local[owner] = (token, values)
            self._local.move_to_end(owner)
            while len(self._local) > self.size:
                self._local.popitem(last=False)
        return values

    def kept(self, owner: Hashable, token: str | None) -> dict[Hashable, Any] | None:
        """What this process keeps for `owner`, if it was kept under `token`; None otherwise."""
        found = self._local.get(owner) if token is not None else None
        return found[1] if found is not None and found[0] == token else None

    def memo(self, owner: Hashable, name: Hashable, compute: Callable[[], T], *, seconds: float | None = None,
             token: str | None = None) -> T:
        """`compute()` for `owner`, kept until the owner changes (and at most `seconds`).

        `token`: the owner's current token when the caller has read it already.
        `compute` must depend only on the owner's rows and on `name`; what it
        returns must not be changed by anyone.
        """
        values = self.values(owner, token if token is not None else self.current(owner))
        if values is None:
            return compute()
        now = time.monotonic()
        found = values.get(name)
        if found is not None and (seconds is None or now - found[0] < seconds):
            return found[1]  # type: ignore[no-any-return]
        value = compute()
        values[name] = (now, value)
        return value

    def changed(self, owners: Iterable[object]) -> None:
        """The owners' rows changed: their kept values go, in every process.

        Outside a transaction their tokens are deleted now. In one, once it commits (until then nobody
        else can see the change) and before this thread reads one of them again, so the transaction
        sees its own changes: a cart write, which answers from the rows it wrote, sends one deletion.
        """
        keys = {self.key(owner) for owner in owners if owner is not None}
        _changed_unread(make=True).update(keys)
        delete_on_commit(keys)

    def clear(self) -> None:
        """Forget this process's values (tests)."""
        with self._lock:
            self._local.clear()


_pending = threading.local()  # the keys this thread's transaction deletes on commit


def _pending_keys() -> set[str]:
    keys: set[str] | None = getattr(_pending, "keys", None)
    if keys is None:
        keys = _pending.keys = set()
    return keys


def _pending_delete() -> None:
    keys = _pending_keys()
    if keys:
        _delete(keys)
        keys.clear()


def _delete(keys: set[str]) -> None:
    """Delete `keys` from the shared cache, and the request's copies of them (shop.request_scope)."""
    cache.delete_many(sorted(keys))
    for key in keys:
        shared_forget(key)


class _ChangedUnread:
    """The tokens a transaction has changed and this thread has not deleted since. Kept as one of the
    transaction's on-commit callbacks (doing nothing when called), so it lives exactly as long as the
    transaction: Django drops it with a transaction, or savepoint, that rolls back."""

    def __init__(self) -> None:
        self.keys: set[str] = set()

    def __call__(self) -> None:
        pass


def _changed_unread(*, make: bool) -> set[str]:
    db = connections[DEFAULT_DB_ALIAS]  # looked up once: each use of `connection` looks it up again
    if db.in_atomic_block:
        for _savepoints, callback, _robust in db.run_on_commit:
            if isinstance(callback, _ChangedUnread):
                return callback.keys
        if make:
            unread = _ChangedUnread()
            transaction.on_commit(unread)
            return unread.keys
    return set()


def _delete_if_changed(key: str) -> None:
    changed = _changed_unread(make=False)
    if key in changed:
        changed.discard(key)
        _delete({key})


def delete_on_commit(keys: set[str]) -> None:
    """Delete `keys` from the shared cache once this transaction commits (now, outside one).

    On commit the first of the transaction's callbacks deletes all its keys in
    one call and the others find nothing left. Keys of a transaction that
    rolled back go with the thread's next commit: one deletion too many, never
    one too few.
    """
    if not keys:
        return
    if connection.in_atomic_block:
        _pending_keys().update(keys)
        transaction.on_commit(_pending_delete)
    else:
        _delete(keys)


def delete_now_and_on_commit(keys: set[str]) -> None:
    """Delete `keys` from the shared cache now and, inside a transaction, again once it commits.

    The second deletion stops a request that read the old rows before the
    commit from leaving them behind (the store settings).
    """
    if keys:
        _delete(keys)
        if connection.in_atomic_block:
            delete_on_commit(keys)
