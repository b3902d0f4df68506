"""The signed-in user's row, and what the storefront shows about them, read once per change.

Every request of a signed-in visitor needs their user row (Django's
`auth.get_user`); building that ORM query cost a quarter of a stitched page.
So each web process keeps the rows it has read, and for each user a few facts
the storefront shows (their greeting rendered, the products they may review,
their last order's governorate: `user_memo`).

A process's copy is used only while the user's *generation* in the shared cache
is the one it was read under. The generation is a random token, read before the
database (one small cache read per request); every change to the user's row or
to their orders deletes it, now and again once the transaction commits
(`user_changed`). The next request then finds no token, makes a new one and reads
the row again. Because the token is read before the row, a request that read the
old row while a change was being committed stored it under a token that the commit
deleted: it is never used again. So a deactivation, a new password, a new role or a
sign-out elsewhere holds from the very next request, in every process.

Writes that reach the rows without a model's save() or delete() go through
`UserQuerySet` (accounts.models) and `orders.models.OrderQuerySet`, which report
the users they touched. When the shared cache is unreachable there is no token:
every request reads the database, as it did before this cache.
"""

import copy
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction

T = TypeVar("T")

# users kept per process (a few hundred bytes each, plus their memos)
LOCAL_USERS = 2000
# a token nobody asked for in a day goes; the next request makes a new one
GENERATION_SECONDS = 24 * 60 * 60
GENERATION_ATTRIBUTE = "_user_cache_generation"


def generation_key(user_id: object) -> str:
    return f"user:generation:{user_id}"


class _Entry:
    __slots__ = ("generation", "user", "memo")

    def __init__(self, generation: str, user: Any) -> None:
        self.generation, self.user, self.memo = generation, user, {}


_local: "OrderedDict[int, _Entry]" = OrderedDict()
_lock = threading.Lock()


def _generation(user_id: int) -> str | None:
    """The user's current token, made now when there is none (None while the cache is unreachable)."""
    key = generation_key(user_id)
    token = cache.get(key)
    if token is None:
        token = secrets.token_hex(8)
        if not cache.add(key, token, GENERATION_SECONDS):
            token = cache.get(key)  # another request made one first (or the cache is down: None)
    return token


def user_get(user_id: object) -> Any:
    """The user with primary key `user_id` (as the session holds it), or None; a copy of this process's
    row while it is current, else read from the database."""
    User = get_user_model()
    try:
        pk = User._meta.pk.to_python(user_id)
    except ValidationError:
        return None
    generation = _generation(pk)
    entry = _local.get(pk)
    if entry is None or generation is None or entry.generation != generation:
        user = User._default_manager.filter(pk=pk).first()
        if user is None or generation is None:
            return user
        entry = _Entry(generation, user)
        with _lock:
            _local[pk] = entry
            _local.move_to_end(pk)
            while len(_local) > LOCAL_USERS:
                _local.popitem(last=False)
    # every request gets its own instance: views may change and save theirs
    user = copy.copy(entry.user)
    setattr(user, GENERATION_ATTRIBUTE, generation)
    return user


def user_memo(user: Any, name: Hashable, compute: Callable[[], T]) -> T:
    """`compute()`, kept for `user` until their row or their orders change.

    `compute` must depend only on the user, their orders and `name` (put the
    language or anything else it reads in `name`), and return a value nobody
    changes. Without a current copy of the user (not read through `user_get`,
    or changed since) it is simply called.
    """
    generation = getattr(user, GENERATION_ATTRIBUTE, None)
    entry = _local.get(getattr(user, "pk", None)) if generation is not None else None
    if entry is None or entry.generation != generation:
        return compute()
    try:
        return entry.memo[name]  # type: ignore[no-any-return]
    except KeyError:
        value = entry.memo[name] = compute()
        return value


def user_changed(user_ids: Iterable[object]) -> None:
    """Call when users' rows or orders change: their copies and memos go, in every process.

    Deleted now and again on commit: a request that read the rows before the
    commit cannot leave them behind under a token that still counts.
    """
    keys = [generation_key(pk) for pk in {pk for pk in user_ids if pk is not None}]
    if not keys:
        return
    cache.delete_many(keys)
    transaction.on_commit(lambda: cache.delete_many(keys))


def user_cache_clear() -> None:
    """Forget this process's copies (tests)."""
    with _lock:
        _local.clear()
