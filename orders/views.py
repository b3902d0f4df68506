"""Storefront pages: cart, checkout, payment return, thank-you (HTML shells for islands)."""

from django.conf import settings
from django.shortcuts import redirect, render
from django.utils.translation import get_language

from orders import cart as carts
from orders.api import session_owns
from orders.checkout import COUNTRIES, GOVERNORATES
from orders.models import Order
from shop.store_settings import store_settings_get
from shop.templatetags.shop_tags import lurl


def cart_page(request):
    cart = carts.cart_get_for_request(request)
    data = carts.cart_data(cart)
    return render(request, "orders/cart.html", {"cart": data, "props": {"cart": data}})


def checkout_page(request):
    cart = carts.cart_get_for_request(request)
    data = carts.cart_data(cart)
    store = store_settings_get()
    user = request.user if request.user.is_authenticated else None
    language = get_language()
    methods = ["card"]
    if store.cod_enabled:
        methods.append("cod")
    if settings.PAYMENT_SANDBOX:
        methods.append("sandbox")
    props = {
        "cart": data,
        "methods": methods,
        "codFee": f"{store.cod_fee:.2f}",
        "countries": [{"code": code, "name": str(name)} for code, name in COUNTRIES],
        "governorates": [{"value": en, "name": ar if language == "ar" else en} for en, ar in GOVERNORATES],
        "user": {"firstName": user.first_name, "lastName": user.last_name, "email": user.email,
                 "phone": getattr(user, "phone", "")} if user else None,
    }
    return render(request, "orders/checkout.html", {"cart": data, "props": props})


def payment_success(request):
    payment_id = request.GET.get("payment_id") or request.GET.get("id") or ""
    return render(request, "orders/payment_return.html",
                  {"props": {"paymentId": payment_id, "params": request.GET.dict()}})


def thankyou(request):
    """The latest order of this session only; anyone else goes home."""
    number = request.GET.get("order") or (request.session.get("orders") or [None])[-1]
    order = Order.objects.filter(number=number).first() if number else None
    if order is None or not session_owns(request, order):
        return redirect(lurl("/"))
    return render(request, "orders/thankyou.html", {"order": order})
