"""Storefront pages: cart, checkout, payment return, thank-you (HTML shells for islands)."""

from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.views.decorators.csrf import ensure_csrf_cookie

from orders import cart as carts
from orders.selectors import session_owns
from orders.checkout import COUNTRIES, GOVERNORATES
from orders.models import Order, Payment
from orders.payments import methods_available
from shop.store_settings import store_settings_get
from shop.templatetags.shop_tags import lurl


@ensure_csrf_cookie  # the islands send it back on every write
def cart_page(request):
    cart = carts.cart_get_for_request(request)
    data = carts.cart_data(cart)
    return render(request, "orders/cart.html", {"cart": data, "props": {"cart": data}})


@ensure_csrf_cookie
def checkout_page(request):
    cart = carts.cart_get_for_request(request)
    data = carts.cart_data(cart)
    store = store_settings_get()
    user = request.user if request.user.is_authenticated else None
    language = get_language()
    props = {
        "cart": data,
        # only what can be completed now; the island preselects the first
        "methods": methods_available(cod_enabled=store.cod_enabled),
        "codFee": f"{store.cod_fee:.2f}",
        "countries": [{"code": code, "name": str(name)} for code, name in COUNTRIES],
        "governorates": [{"value": en, "name": ar if language == "ar" else en} for en, ar in GOVERNORATES],
        "user": {"firstName": user.first_name, "lastName": user.last_name, "email": user.email,
                 "phone": getattr(user, "phone", "")} if user else None,
    }
    return render(request, "orders/checkout.html", {"cart": data, "props": props})


def _payment_id_from(params):
    """Which of our payments a return URL is about: ours, else Paymob's ids.

    Paymob appends its transaction parameters (`id` is its transaction id,
    `order` its order id) to the redirection URL. This only picks the payment;
    the verification that follows trusts nothing in the URL.
    """
    if params.get("payment_id"):
        return params["payment_id"]
    candidate = params.get("id", "")
    if candidate and Payment.objects.filter(payment_id=candidate).exists():
        return candidate
    order_id = params.get("order") or params.get("order_id")
    if order_id:
        payment = Payment.objects.filter(provider_order_id=order_id).only("payment_id").first()
        if payment:
            return payment.payment_id
    return candidate


@ensure_csrf_cookie
def payment_success(request):
    payment_id = _payment_id_from(request.GET)
    return render(request, "orders/payment_return.html",
                  {"props": {"paymentId": payment_id, "params": request.GET.dict()}})


def thankyou(request):
    """The latest order of this session only; anyone else goes home."""
    number = request.GET.get("order") or (request.session.get("orders") or [None])[-1]
    order = Order.objects.filter(number=number).first() if number else None
    if order is None or not session_owns(request, order):
        return redirect(lurl("/"))
    return render(request, "orders/thankyou.html", {"order": order})
