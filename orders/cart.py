"""The server-side cart: one per session for guests, one per customer."""

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Literal, NamedTuple, TypeVar, overload

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.request import Request

from accounts.models import User
from accounts.user_cache import user_cart_changed, user_cart_memo
from catalog.models import Product
from catalog.pricing import Availability
from orders.models import Cart, CartLine
from shop.errors import ShopError
from shop.generations import Generations
from shop.mail import isolate
from shop.models import StoreSettings
from shop.rows import Columns
from shop.store_settings import store_settings_get

T = TypeVar("T")


# A visitor's cart is read, and written, with plain SQL (shop.rows): every cart write and every
# page's cart count go this way, and building these small queries with the ORM cost several
# times more than running them (issue 14).
_CART = Columns(Cart, "c")
# what a cart shows and checks of a product (orders.serializers, catalog.pricing); a caller that reads
# more has it loaded then, as from QuerySet.only. Placing an order reads its products afresh.
_PRODUCT = Columns(Product, "p", only=("slug", "title", "images", "price_amount", "sale_price_amount",
                                       "kes_price_amount", "stock", "is_active"))
_CARTS, _LINES, _PRODUCTS = (connection.ops.quote_name(model._meta.db_table) for model in (Cart, CartLine, Product))


class CartOwner(NamedTuple):
    """Whose cart: a customer's (`user_id`), else a session's (a guest's)."""

    user_id: int | None
    session_key: str

    @classmethod
    def of(cls, cart: Cart) -> "CartOwner":
        return cls(cart.user_id, "" if cart.user_id else cart.session_key)

    def condition(self) -> tuple[str, int | str]:
        """The SQL condition on the cart table (alias c) that picks the owner's carts, and its value."""
        if self.user_id is not None:
            return "c.user_id = %s", self.user_id
        return "c.user_id IS NULL AND c.session_key = %s", self.session_key


@overload
def cart_owner(request: HttpRequest | Request, *, create: Literal[True]) -> CartOwner: ...


@overload
def cart_owner(request: HttpRequest | Request, *, create: bool = False) -> CartOwner | None: ...


def cart_owner(request: HttpRequest | Request, *, create: bool = False) -> CartOwner | None:
    """The visitor's: the customer's, else their session's; None for a visitor without a session,
    unless `create` (their session is saved now, to own the cart a write is about to make)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return CartOwner(user.pk, "")
    session = getattr(request, "session", None)
    if session is not None and not session.session_key and create:
        session.save()
    if session is not None and session.session_key:
        return CartOwner(None, session.session_key)
    return None


def _first_cart(owner: CartOwner) -> tuple[str, int | str]:
    """A subquery: the id of the owner's cart (they have one at most), and its value."""
    where, value = owner.condition()
    return f"(SELECT c.id FROM {_CARTS} c WHERE {where})", value


@overload
def cart_get_for_request(request: HttpRequest | Request, *, create: Literal[True]) -> Cart: ...


@overload
def cart_get_for_request(request: HttpRequest | Request, *, create: bool = False) -> Cart | None: ...


def cart_get_for_request(request: HttpRequest | Request, *, create: bool = False) -> Cart | None:
    """Return the visitor's cart (the customer's, else the session's), or None."""
    owner = cart_owner(request, create=create)
    if owner is None:
        return None
    cart = _cart(owner)
    return _cart_create(owner) if cart is None and create else cart


def _cart(owner: CartOwner) -> Cart | None:
    where, value = owner.condition()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {_CART.sql} FROM {_CARTS} c WHERE {where}", [value])
        row = cursor.fetchone()
    return _CART.instance(row) if row else None


def _cart_create(owner: CartOwner) -> Cart:
    """Make the owner's cart; if another request of theirs made it meanwhile (two tabs' first adds at
    once), that one: an owner has one cart at most (a customer's is one-to-one, a guest's session key
    unique among guests' carts)."""
    try:
        # on SQLite, a writer waits its turn in a transaction (shop.sqlite); in a caller's transaction,
        # a savepoint that the refused insert rolls back to
        with transaction.atomic():
            return Cart.objects.create(user_id=owner.user_id, session_key=owner.session_key)
    except IntegrityError:
        cart = _cart(owner)
        if cart is None:  # refused for another reason
            raise
        return cart


# the cart's order (CartLine.Meta.ordering): lines as they were added, a line put back by Undo where it was
_IN_ORDER = "ORDER BY l.position, l.id"


class _Line(NamedTuple):
    id: int
    product: Product
    quantity: int
    position: int


def _lines(where: str, value: int | str) -> list[_Line]:
    """The lines of the cart whose id `where` gives, with their products, in the cart's order."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT l.id, l.quantity, l.position, {_PRODUCT.sql} FROM {_LINES} l "
                       f"JOIN {_PRODUCTS} p ON p.id = l.product_id WHERE l.cart_id = {where} {_IN_ORDER}", [value])
        return [_Line(row[0], _PRODUCT.instance(row[3:]), row[1], row[2]) for row in cursor.fetchall()]


def cart_lines_for_request(request: HttpRequest | Request) -> list[tuple[Product, int]]:
    """cart_lines(cart_get_for_request(request)) in one query: the lines of the cart it would pick."""
    owner = cart_owner(request)
    if owner is None:
        return []
    return [(line.product, line.quantity) for line in _lines(*_first_cart(owner))]


# What a visitor's cart holds, kept in each web process under a token that every change
# to their cart or its lines deletes (shop.generations; the signals in orders.apps): a
# customer's under their cart token (accounts.user_cache.user_cart_memo: read with their
# user row's, no round trip of its own), a guest's under a token per session. Product and settings changes move
# the catalogue version, which the kept answers name.
_carts = Generations("cart:generation", size=5000)


def guest_cart_token_keys(session_key: str, user_id: str | None) -> list[str]:
    """The key of a guest's cart token, read by every page they see (shop.sessions reads it with their
    session; a customer's is accounts.user_cache's)."""
    return [] if user_id is not None else [_carts.key(f"session:{session_key}")]


def cart_memo(request: HttpRequest | Request, name: Hashable, compute: Callable[[], T], *,
              seconds: float | None = None) -> T:
    """`compute()` for the visitor's cart, kept until their cart or its lines change (at most `seconds`).

    `compute` may read the cart and the catalogue; name the catalogue version,
    the language and whatever else it reads in `name`.
    """
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return user_cart_memo(user, name, compute, seconds=seconds)
    session = getattr(request, "session", None)
    if session is None or not session.session_key:
        return compute()
    return _carts.memo(f"session:{session.session_key}", name, compute, seconds=seconds)


def cart_changed(cart: Cart) -> None:
    """The cart or its lines changed: what is kept for its owner goes (orders.apps calls it)."""
    if cart.user_id:
        user_cart_changed([cart.user_id])
    elif cart.session_key:
        _carts.changed([f"session:{cart.session_key}"])


def cart_badge_part(request: HttpRequest, _arg: str) -> dict[str, int]:
    """The header's cart badge for this visitor (a visitor part of every page: shop.stitch)."""
    return {"cart_count": cart_item_count(request)}


def cart_item_count(request: HttpRequest | Request) -> int:
    """The sum of the cart's quantities (the header badge), kept until the cart changes."""
    if not hasattr(request, "session"):
        return 0
    return cart_memo(request, "item-count", lambda: _item_count(request))


def _item_count(request: HttpRequest | Request) -> int:
    owner = cart_owner(request)
    if owner is None:
        return 0
    cart_id, value = _first_cart(owner)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COALESCE(SUM(quantity), 0) FROM {_LINES} WHERE cart_id = {cart_id}", [value])
        return int(cursor.fetchone()[0])


def cart_merge(*, session_key: str, user: User) -> None:
    """Move the guest cart of `session_key` into `user`'s cart at sign-in.

    A customer without a cart takes the guest's cart as it is. Otherwise
    quantities of the same product add up, capped at the stock on hand and
    the store's per-product cap (checkout enforces the per-order cap).
    Call it with the session key from *before* login() rotates it.
    """
    if not session_key:
        return
    guest = Cart.objects.filter(user=None, session_key=session_key).first()
    if guest is None:
        return
    with transaction.atomic():  # both carts are held from their bumps until the merge commits
        # first: a checkout of the guest's cart in another tab places its order before the lines are read
        _bump(guest)
        target = Cart.objects.filter(user=user).first()
        if target is None:
            # the customer's first cart is the guest's as it is: its lines were checked when added, and
            # capping them at the stock left now would take away what the guest's own unpaid order holds
            try:
                with transaction.atomic():
                    Cart.objects.filter(pk=guest.pk).update(user=user, session_key="")
                user_cart_changed([user.pk])
                return
            except IntegrityError:  # another sign-in of theirs made their cart meanwhile
                target = Cart.objects.get(user=user)
        _bump(target)
        per_line = store_settings_get().max_quantity_per_line
        last = max(target.lines.values_list("position", flat=True), default=0)
        for line in guest.lines.select_related("product"):
            existing = target.lines.filter(product=line.product).first()
            quantity = line.quantity + (existing.quantity if existing else 0)
            quantity = min(Availability.purchasable_quantity(line.product, quantity), per_line)
            if quantity <= 0:
                continue
            if existing:
                existing.quantity = quantity
                existing.save(update_fields=["quantity"])
            else:
                last += 1  # after the customer's own lines, in the guest's order
                target.lines.create(product=line.product, quantity=quantity, position=last)
        guest.delete()


class CartError(ShopError):
    """A cart change the catalogue does not allow (message is customer-facing)."""

    field = "productId"


def _purchasable(product_id: int | str, product: Product | None = None) -> Product:
    """The product to put in a cart (`product` when the caller has read it), or a CartError."""
    if product is None:
        product = Product.objects.filter(pk=product_id).first()
    problem = "missing" if product is None else Availability.purchase_problem(product)
    if product is None or problem in ("missing", "inactive"):
        raise CartError(_("Product not found"), status=404, code="not_found")
    if problem == "out_of_stock":
        raise CartError(_("%(product)s is out of stock") % {"product": isolate(product.title)}, code="out_of_stock")
    return product


def quantity_limit_problem(*, quantities: Sequence[int], store: StoreSettings) -> str | None:
    """Why per-product `quantities` break the store's caps (a message), or None."""
    if any(q > store.max_quantity_per_line for q in quantities):
        return _("You can order at most %(n)d of one product") % {"n": store.max_quantity_per_line}
    if sum(quantities) > store.max_quantity_per_order:
        return _("You can order at most %(n)d items in one order") % {"n": store.max_quantity_per_order}
    return None


class CartChange(NamedTuple):
    """What a cart write did: whether the stock on hand capped it, and the cart's lines after it
    [(product, quantity)], read in the write's own transaction (the answer needs no second read)."""

    capped: bool
    lines: list[tuple[Product, int]]


def _read(owner: CartOwner) -> tuple[Cart, list[_Line]] | None:
    """The owner's cart (with its version) and its lines with their products, in the cart's order, in one
    query; None when they have no cart."""
    cart_id, value = _first_cart(owner)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {_CART.sql}, l.id, l.quantity, l.position, {_PRODUCT.sql} FROM {_CARTS} c "
                       f"LEFT JOIN {_LINES} l ON l.cart_id = c.id LEFT JOIN {_PRODUCTS} p ON p.id = l.product_id "
                       f"WHERE c.id = {cart_id} {_IN_ORDER}", [value])
        rows = cursor.fetchall()
    if not rows:
        return None
    width = _CART.width
    return _CART.instance(rows[0][:width]), [
        _Line(row[width], _PRODUCT.instance(row[width + 3:]), row[width + 1], row[width + 2])
        for row in rows if row[width] is not None]


_BUMP = f"UPDATE {_CARTS} SET version = version + 1, updated_at = %(now)s WHERE id = %(cart)s"
# the same, only if the cart is still at the version a write read it at
_BUMP_UNLESS_CHANGED = f"{_BUMP} AND version = %(version)s"


def _bump(cart: Cart) -> None:
    """Move the cart's version on before its lines are changed without reading them first (in the
    caller's transaction, so that the cart is held until it commits)."""
    cart.updated_at = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(_BUMP, {"now": connection.ops.adapt_datetimefield_value(cart.updated_at), "cart": cart.pk})


def _write_unless_changed(cart: Cart, version: int, statement: str, params: dict[str, Any], *,
                          first: str | None = None) -> bool:
    """Run `statement`, a write to the cart's lines that reads the cart's id from the table `{bumped}`, and
    move the cart's version on, as one step, if the version is still `version`; False, and nothing
    written, when another write came first. `first`: a write of the same kind that goes before it.

    On PostgreSQL this is one statement, atomic on its own: no BEGIN or COMMIT round trip (issue 14).
    A write that waited for the cart's row sees the other's version once that commits, and writes nothing.
    """
    db = connections[DEFAULT_DB_ALIAS]  # looked up once: each use of `connection` looks it up again
    now = timezone.now()
    values: dict[str, Any] = {"now": db.ops.adapt_datetimefield_value(now), "cart": cart.pk,
                              "version": version, **params}
    with db.cursor() as cursor:
        if db.vendor == "postgresql":
            before = f", moved AS ({first.format(bumped='bumped')})" if first else ""
            cursor.execute(f"WITH bumped AS ({_BUMP_UNLESS_CHANGED} RETURNING id){before} "
                           f"{statement.format(bumped='bumped')}", values)
            written: bool = cursor.rowcount == 1
        else:  # SQLite's WITH takes only a SELECT: the version is moved on first, in one transaction
            with transaction.atomic(savepoint=False):
                cursor.execute(_BUMP_UNLESS_CHANGED, values)
                written = cursor.rowcount == 1
                bumped = "(SELECT %(cart)s AS id) AS bumped"
                if written and first:
                    cursor.execute(first.format(bumped=bumped), values)
                if written:
                    cursor.execute(statement.format(bumped=bumped), values)
                    written = cursor.rowcount == 1
    if written:
        cart.updated_at = now
    return written


def _limits_check(lines: list[_Line], product_id: int, quantity: int) -> None:
    """Refuse a line of `quantity` that would break the store's caps (nothing changes)."""
    others = [line.quantity for line in lines if line.product.pk != product_id]
    problem = quantity_limit_problem(quantities=[*others, quantity], store=store_settings_get())
    if problem:
        raise CartError(problem, field="quantity", code="quantity_limit")


def _purchasable_line(lines: list[_Line], product_id: int | str) -> tuple[Product, _Line | None]:
    """The product to put in the cart and its line, if the cart has one (its product read with it)."""
    line = next((line for line in lines if str(line.product.pk) == str(product_id)), None)
    return _purchasable(product_id, line.product if line else None), line


def _line_write(line: _Line | None, product: Product, quantity: int, position: int) -> tuple[str, dict[str, Any]]:
    """The statement that sets the product's line to `quantity` (a new line's at `position`), for
    _write_unless_changed."""
    if line is not None:
        return (f"UPDATE {_LINES} SET quantity = %(quantity)s "
                "WHERE id = %(line)s AND cart_id IN (SELECT id FROM {bumped})", {"quantity": quantity, "line": line.id})
    return (f"INSERT INTO {_LINES} (cart_id, product_id, quantity, position) "
            "SELECT id, %(product)s, %(quantity)s, %(position)s FROM {bumped}",
            {"product": product.pk, "quantity": quantity, "position": position})


# moves the lines from `position` on one place down, to make room for a line put back there
_MAKE_ROOM = (f"UPDATE {_LINES} SET position = position + 1 "
              "WHERE cart_id IN (SELECT id FROM {bumped}) AND position >= %(position)s")


def _new_line_place(lines: list[_Line], index: int | None) -> tuple[int, bool]:
    """Where a new line goes among `lines` (the cart's, in order): at `index` in the list (a line put back
    by Undo), else last. Its position, and whether the lines from there on must move down first."""
    if index is not None and 0 <= index < len(lines):
        return lines[index].position, True
    return max((line.position for line in lines), default=0) + 1, False


def _line_change(owner: CartOwner, product_id: int | str,
                 wanted_for: Callable[[_Line | None], int], index: int | None = None) -> CartChange:
    """Set the product's line in the owner's cart (made now if they have none) to `wanted_for(its line)`,
    capped at the stock on hand; past the store's caps, refused with a CartError and no line changed.
    A new line goes at `index` in the cart's list when given, else last.

    Optimistic: the lines are read without holding the cart, and the write lands only if no other
    write changed them since (the cart's version). One that did (two tabs at the same moment) is worked
    out again from the new lines, this time holding the cart, so that it lands. Holding the cart every
    time cost three more round trips to PostgreSQL (issue 14).
    """
    cart, change = _try_line_change(owner, product_id, wanted_for, index)
    if change is None:
        with transaction.atomic():
            _bump(cart)  # held until this try commits: no other write can come between
            cart, change = _try_line_change(owner, product_id, wanted_for, index)
    if change is None:  # the owner's cart went meanwhile (merged into the customer's at sign-in)
        raise _cart_gone()
    return change


def _cart_gone() -> CartError:
    return CartError(_("Your cart has changed. Please review it and try again."), status=409, code="cart_changed")


def _read_or_create(owner: CartOwner) -> tuple[Cart, list[_Line]]:
    """_read; on the owner's first write their cart is made first (or found, if another write of
    theirs made it meanwhile)."""
    found = _read(owner)
    if found is None:
        _cart_create(owner)
        found = _read(owner)
    if found is None:  # made, and merged away at once by a sign-in in another tab
        raise _cart_gone()
    return found


def _try_line_change(owner: CartOwner, product_id: int | str, wanted_for: Callable[[_Line | None], int],
                     index: int | None) -> tuple[Cart, CartChange | None]:
    """_line_change's work on the lines as they are now: the cart, and the change; None, and nothing
    written, if another write changed them before this one could write."""
    cart, lines = _read_or_create(owner)
    product, line = _purchasable_line(lines, product_id)
    wanted = wanted_for(line)
    capped = Availability.purchasable_quantity(product, wanted)
    _limits_check(lines, product.pk, capped)
    position, make_room = _new_line_place(lines, index)
    if not _write_unless_changed(cart, cart.version, *_line_write(line, product, capped, position),
                                 first=_MAKE_ROOM if line is None and make_room else None):
        return cart, None
    cart_changed(cart)
    after = [(each.product, capped if each is line else each.quantity) for each in lines]
    if line is None:
        after.insert(index if make_room and index is not None else len(after), (product, capped))
    return cart, CartChange(capped < wanted, after)


def cart_line_add(*, owner: CartOwner, product_id: int | str, quantity: int = 1,
                  position: int | None = None) -> CartChange:
    """Add `quantity` of a product to the owner's cart; the line never exceeds the stock on hand.

    A new line goes last, or at `position` in the cart's list (0 first) when given: Undo puts a
    removed line back where it was. Past the store's per-product or per-order cap the change is refused.
    """
    quantity = max(int(quantity), 1)
    return _line_change(owner, product_id, lambda line: quantity + (line.quantity if line else 0), position)


def cart_line_update(*, owner: CartOwner, product_id: int | str, quantity: int) -> CartChange:
    """Set a line's quantity in the owner's cart; 0 or less removes it. Capped at the stock on hand.

    Past the store's per-product or per-order cap the change is refused.
    """
    quantity = int(quantity)
    if quantity <= 0:
        cart_line_remove(owner=owner, product_id=product_id)
        return CartChange(False, [(line.product, line.quantity) for line in _lines(*_first_cart(owner))])
    return _line_change(owner, product_id, lambda line: quantity)


def cart_line_remove(*, owner: CartOwner, product_id: int | str) -> None:
    cart = _cart(owner)
    if cart is not None:
        with transaction.atomic():
            _bump(cart)
            cart.lines.filter(product_id=product_id).delete()


def cart_hold(cart: Cart) -> bool:
    """Move the cart's version on, in the caller's transaction, if it is still the version `cart` was read
    at; False, and nothing changed, if the cart was written since.

    Placing an order holds its cart this way: until the order commits, another writer of the cart waits
    (PostgreSQL's row lock; SQLite has one writer), then finds the version moved on. So two checkouts
    of one cart read at the same moment place one order, not two.
    """
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(_BUMP_UNLESS_CHANGED, {
            "now": connection.ops.adapt_datetimefield_value(now), "cart": cart.pk, "version": cart.version})
        if cursor.rowcount != 1:
            return False
    cart.version, cart.updated_at = cart.version + 1, now
    return True


def cart_clear(*, cart: Cart | None) -> None:
    """Empty the cart (after an order): the next cart it holds may get its own reminder."""
    if cart is not None:
        with transaction.atomic():
            _bump(cart)
            _empty(cart)


def _empty(cart: Cart) -> None:
    """Delete the (held) cart's lines; the next lines it holds may get their own reminder."""
    cart.lines.all().delete()
    Cart.objects.filter(pk=cart.pk).update(reminder_sent_at=None)


def cart_clear_if_ordered(*, owner: CartOwner, ordered: Iterable[tuple[int | None, int]]) -> None:
    """Empty the owner's cart if it holds just what an order paid for holds (`ordered`: product id and
    quantity of each item). The shop's page after paying empties it too, but a tab closed on the payment
    page never comes back to it, and the cart would sell the same tea again and send its reminder. A cart
    changed since the order (they went on shopping) is left as it is."""
    with transaction.atomic():
        found = _read(owner)
        if found is None:
            return
        cart, lines = found
        if lines and sorted((line.product.pk, line.quantity) for line in lines) == sorted(ordered) and cart_hold(cart):
            _empty(cart)


def cart_lines(cart: Cart | None) -> list[tuple[Product, int]]:
    """[(product, quantity)] of `cart`, in the order they were added."""
    if cart is None:
        return []
    return [(line.product, line.quantity) for line in _lines("%s", cart.pk)]
