"""The server-side cart: one per session for guests, one per customer."""

from django.db.models import Sum

from orders.models import Cart


def cart_get_for_request(request, *, create=False):
    """Return the visitor's cart (the customer's, else the session's), or None."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        cart = Cart.objects.filter(user=user).first()
        if cart is None and create:
            cart = Cart.objects.create(user=user)
        return cart
    session = request.session
    if not session.session_key:
        if not create:
            return None
        session.save()
    cart = Cart.objects.filter(user=None, session_key=session.session_key).first()
    if cart is None and create:
        cart = Cart.objects.create(session_key=session.session_key)
    return cart


def cart_item_count(request):
    """The sum of the cart's quantities (the header badge)."""
    if not hasattr(request, "session"):
        return 0
    cart = cart_get_for_request(request)
    if cart is None:
        return 0
    return cart.lines.aggregate(n=Sum("quantity"))["n"] or 0


def cart_merge(*, session_key, user):
    """Move the guest cart of `session_key` into `user`'s cart at sign-in.

    Quantities of the same product add up, capped at the stock on hand.
    Call it with the session key from *before* login() rotates it.
    """
    if not session_key:
        return
    guest = Cart.objects.filter(user=None, session_key=session_key).first()
    if guest is None:
        return
    target, _ = Cart.objects.get_or_create(user=user)
    for line in guest.lines.select_related("product"):
        existing = target.lines.filter(product=line.product).first()
        quantity = line.quantity + (existing.quantity if existing else 0)
        quantity = min(quantity, max(line.product.stock, 0))
        if quantity <= 0:
            continue
        if existing:
            existing.quantity = quantity
            existing.save(update_fields=["quantity"])
        else:
            target.lines.create(product=line.product, quantity=quantity)
    guest.delete()
