"""The signed-in user's row, and what the storefront shows about them, read once per change.

Every request of a signed-in visitor needs their user row (Django's
`auth.get_user`); building that ORM query cost a quarter of a stitched page.
So each web process keeps the rows it has read, and for each user a few facts
the storefront shows (their greeting rendered, the products they may review,
their last order's governorate: `user_memo`), under the user's generation
token in the shared cache (shop.generations: one small cache read per request).
Every change to the user's row or their orders deletes the token once its
transaction commits (`user_changed`), so a deactivation, a new password, a new
role or a sign-out elsewhere holds from the very next request, in every
process. What their cart holds (`user_cart_memo`: the badge, `GET /api/cart`)
is kept under a second token, read with the first in the same round trip (and
made only when one of those is asked for) and deleted by every change to their
cart (`user_cart_changed`), which so leaves their row and the rest kept.

Writes that reach the rows without a model's save() or delete() go through
`UserQuerySet` (accounts.models) and `orders.models.OrderQuerySet`, which report
the users they touched. When the shared cache is unreachable there is no token:
every request reads the database, as it did before this cache. The row is read
with plain SQL (shop.rows): after every change of theirs, a customer's next
request reads it again.
"""

from collections.abc import Callable, Hashable, Iterable
from functools import lru_cache
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection

from shop.generations import Generations, found_tokens
from shop.rows import Columns, instance_copy

T = TypeVar("T")

# users kept per process (a few hundred bytes each, plus their memos)
_users = Generations("user:generation", size=2000)
GENERATION_ATTRIBUTE = "_user_cache_generation"
# what their carts hold (orders.cart.cart_memo), under a token of their own, read with the row's in
# one round trip: a change to a customer's cart leaves their row and the rest kept
_carts = Generations("user-cart:generation", size=2000)
CART_GENERATION_ATTRIBUTE = "_user_cart_generation"
_ROW = "row"


def generation_key(user_id: object) -> str:
    return _users.key(user_id)


def user_token_keys(session_key: str, user_id: str | None) -> list[str]:
    """The keys of a customer's two tokens, read by every request of theirs (shop.sessions reads them with
    their session when this process has seen whose it is)."""
    return [] if user_id is None else [_users.key(user_id), _carts.key(user_id)]


def user_get(user_id: object) -> Any:
    """The user with primary key `user_id` (as the session holds it), or None; a copy of this process's
    row while it is current, else read from the database."""
    User = get_user_model()
    try:
        pk = User._meta.pk.to_python(user_id)
    except ValidationError:
        return None
    token, cart_token = found_tokens((_users, pk), (_carts, pk))
    if token is None:
        token = _users.new_token(pk)
    values = _users.values(pk, token)
    if values is None or _ROW not in values:
        user = _row(User, pk)
        if user is None or values is None:
            return user
        values[_ROW] = user
    # every request gets its own instance: views may change and save theirs
    user = instance_copy(values[_ROW])
    setattr(user, GENERATION_ATTRIBUTE, token)
    _cart_token_keep(user, cart_token)
    return user


def _cart_token_keep(user: Any, token: str | None) -> None:
    if _carts.values(user.pk, token) is not None:
        setattr(user, CART_GENERATION_ATTRIBUTE, token)


@lru_cache(maxsize=1)
def _columns(model: Any) -> Columns[Any]:
    return Columns(model, "u")


def _row(model: Any, pk: object) -> Any:
    """The user with primary key `pk`, or None: what `filter(pk=pk).first()` reads, without building it."""
    columns = _columns(model)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns.sql} FROM {connection.ops.quote_name(model._meta.db_table)} u "
                       f"WHERE u.{connection.ops.quote_name(model._meta.pk.column)} = %s", [pk])
        row = cursor.fetchone()
    return columns.instance(row) if row else None


def user_memo(user: Any, name: Hashable, compute: Callable[[], T], *, seconds: float | None = None) -> T:
    """`compute()`, kept for `user` until their row or their orders change (at most `seconds`).

    `compute` must depend only on the user, their orders and `name` (put the
    language or anything else it reads in `name`), and return a value nobody
    changes. Without a current copy of the user (not read through `user_get`,
    or changed since) it is simply called.
    """
    return _memo(_users, GENERATION_ATTRIBUTE, user, name, compute, seconds)


def user_cart_memo(user: Any, name: Hashable, compute: Callable[[], T], *, seconds: float | None = None) -> T:
    """`compute()`, kept for `user` until their cart or its lines change (at most `seconds`): as
    `user_memo`, for what depends only on their cart, the catalogue and `name` (orders.cart)."""
    if getattr(user, GENERATION_ATTRIBUTE, None) is not None and getattr(user, CART_GENERATION_ATTRIBUTE, None) is None:
        # a current copy (user_get) whose cart has no token: made here, where it is needed, and not
        # in user_get, since a cart write deletes it and would have made it for nothing
        _cart_token_keep(user, _carts.new_token(user.pk))
    return _memo(_carts, CART_GENERATION_ATTRIBUTE, user, name, compute, seconds)


def _memo(generations: Generations, attribute: str, user: Any, name: Hashable, compute: Callable[[], T],
          seconds: float | None) -> T:
    token = getattr(user, attribute, None)
    if generations.kept(getattr(user, "pk", None), token) is None:
        return compute()
    return generations.memo(user.pk, name, compute, token=token, seconds=seconds)


def request_user_memo(request: Any, name: Hashable, compute: Callable[[], T]) -> T:
    """user_memo for the request's user (a kept visitor part of a stitched page: shop.stitch)."""
    return user_memo(request.user, name, compute)


def user_changed(user_ids: Iterable[object]) -> None:
    """Call when users' rows or orders change: their copies and memos go, in every process.

    Deleted once the transaction commits: a request that read the rows before
    the commit cannot leave them behind under a token that still counts.
    """
    _users.changed(user_ids)


def user_cart_changed(user_ids: Iterable[object]) -> None:
    """Call when customers' carts or their lines change: what `user_cart_memo` kept for them goes."""
    _carts.changed(user_ids)


def user_cache_clear() -> None:
    """Forget this process's copies (tests)."""
    _users.clear()
    _carts.clear()
