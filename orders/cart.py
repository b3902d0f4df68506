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
