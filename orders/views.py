"""Storefront pages: cart, checkout, payment return, thank-you (HTML shells for islands)."""

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_http_methods, require_POST

from accounts.addresses import address_list
from accounts.services import phone_invalid_message
from orders import cart as carts
from orders.calculations import order_totals
from orders.checkout import (
    cod_available,
    coupon_check,
    coupon_remembered,
    kiosk_order_cancel,
    kiosk_orders_held,
)
from orders.delivery import shopper_governorate
from orders.documents import Kind, document_filename, document_pdf, invoice_allowed
from orders.drafts import checkout_draft_get
from orders.models import Cart, Coupon, Order, Payment, PaymentStatus
from orders.payments import methods_available
from orders.places import COUNTRIES, governorate_choices
from orders.prefill import checkout_prefill
from orders.reminders import cart_reminder_unsubscribe as cart_reminder_unsubscribe_service
from orders.reorder import order_reorder
from orders.selectors import order_card_orders_unsettled, session_owns
from orders.serializers import cart_output
from orders.summary import cart_summary
from orders.tracking import TrackingError, order_from_token, order_track_lookup, tracking_data, tracking_path
from shop.api.money import island_props
from shop.errors import ShopError
from shop.money import money_text
from shop.paths import island_urls
from shop.ratelimit import rate_limit_posts
from shop.store_settings import store_settings_get
from shop.validation import id_parse


@ensure_csrf_cookie  # the islands send it back on every write
def cart_page(request: HttpRequest) -> HttpResponse:
    lines = carts.cart_lines_for_request(request)
    # with the coupon applied at checkout, so going back to the cart does not look as if it were lost
    summary = cart_summary(None, lines=lines, governorate=shopper_governorate(request),
                           coupon=coupon_remembered(request=request, lines=lines))
    # the select's words come with the page, so the islands' shared strings stay small
    text = {"deliverTo": _("Deliver to"), "chooseGovernorate": _("Choose your governorate"),
            "removeCoupon": _("Remove coupon"), "couponRemoved": _("Coupon removed")}
    props = {"cart": island_props(cart_output(summary)), "text": text, "governorates": _governorates(),
             "urls": island_urls()}
    return render(request, "orders/cart.html", {"totals": summary.totals, "props": props})


def _governorates() -> list[dict[str, str]]:
    return [{"value": value, "name": name} for value, name in governorate_choices(get_language())]


@never_cache  # the shopper's details (a customer's name, e-mail and phone; a failed payment's draft)
@ensure_csrf_cookie
def checkout_page(request: HttpRequest) -> HttpResponse:
    cart = carts.cart_get_for_request(request)
    store = store_settings_get()
    user = request.user if request.user.is_authenticated else None
    methods = methods_available(cod_enabled=store.cod_enabled)
    prefill, chosen = checkout_prefill(request=request, address_id=id_parse(request.GET.get("address", "")))
    _payment_choice(request, prefill, methods)
    if prefill["country"] == "EGY" and not prefill["state"]:
        prefill["state"] = shopper_governorate(request)  # the summary's shipping is for the form's governorate
    # the summary as the form starts: its method, governorate and the coupon typed before a failed payment
    method = prefill.get("paymentMethod") or (methods[0] if methods else None)
    summary = cart_summary(cart, payment_method=method, coupon=_coupon(prefill.get("couponCode"), cart),
                           governorate=prefill["state"] if prefill["country"] == "EGY" else "")
    props = {
        "cart": island_props(cart_output(summary)),
        "urls": island_urls(),
        # only what can be completed now; the island preselects the first
        "methods": methods,
        "codFee": money_text(store.cod_fee),
        "countries": [{"code": code, "name": str(name)} for code, name in COUNTRIES],
        "governorates": _governorates(),
        # server-rendered words: the checkout bundle is at the page-weight budget
        "text": {"whatsappOptIn": _("Send me order updates on WhatsApp"),
                 "remind": _("E-mail me once if I leave without ordering"),
                 "couponApplied": _("Coupon applied"),
                 # the phone rule's message, with its example, as the server answers it
                 "invalidPhone": phone_invalid_message()},
        "user": {"firstName": user.first_name, "lastName": user.last_name, "email": user.email,
                 "phone": getattr(user, "phone", "")} if user else None,
        "prefill": prefill,
    }
    saved = address_list(user=user) if user else []
    # orders awaiting cash at a kiosk, of this cart or another: named, with their reference, cancelled only by choice
    kiosk = [{"number": held.order.number, "reference": held.reference, "of_cart": held.of_cart,
              "track": tracking_path(held.order, get_language())}
             for held in kiosk_orders_held(request=request)]
    return render(request, "orders/checkout.html", {"totals": summary.totals, "props": props, "saved_addresses": saved,
                                                    "chosen_address": chosen, "kiosk_orders": kiosk})


@transaction.non_atomic_requests  # Paymob is asked first: no outside call inside a transaction (shop.outbound)
@require_POST
@rate_limit_posts("checkout")
def checkout_kiosk_cancel(request: HttpRequest) -> HttpResponse:
    """The checkout page's "Cancel this order" on an order awaiting cash at a kiosk: cancelled at the
    shopper's word (Paymob asked first), then back to the checkout to pay another way."""
    number = request.POST.get("order", "")
    try:
        order = kiosk_order_cancel(request=request, number=number)
    except ShopError:
        raise Http404 from None
    if order.payment_status == PaymentStatus.PAID:  # at the outlet, before it could be cancelled
        messages.info(request, _("Order %(number)s has been paid, so it was not cancelled.") % {"number": number})
        return redirect("orders:checkout")
    messages.success(request, _("Order %(number)s is cancelled. Do not pay its reference at the outlet now; "
                                "you can pay another way below.") % {"number": number})
    # back to "Pay on delivery instead" when that is where they came from
    return redirect(reverse("orders:checkout") + ("?pay=cod" if request.POST.get("pay") == "cod" else ""))


def _coupon(code: str | None, cart: Cart | None) -> Coupon | None:
    if not code:
        return None
    try:
        return coupon_check(code=code, subtotal=order_totals(lines=carts.cart_lines(cart)).subtotal)
    except ShopError:
        return None  # expired since: the shopper sees it unapplied and may apply it again


def _payment_choice(request: HttpRequest, prefill: dict[str, str], methods: Sequence[str]) -> None:
    """After a failed card payment the draft's method comes back ("Try again"), or cash on delivery
    for `?pay=cod` ("Pay on delivery instead"); a method no longer offered is dropped (the island
    then preselects the first one offered)."""
    if "paymentMethod" in prefill and request.GET.get("pay") == "cod":
        prefill["paymentMethod"] = "cod"
    if prefill.get("paymentMethod") not in methods:
        prefill.pop("paymentMethod", None)


def _payment_id_from(params: Mapping[str, Any]) -> str:
    """Which of our payments a return URL is about: ours, else Paymob's ids.

    Paymob appends its transaction parameters (`id` is its transaction id,
    `order` its order id) to the redirection URL. This only picks the payment;
    the verification that follows trusts nothing in the URL.
    """
    if params.get("payment_id"):
        return str(params["payment_id"])
    candidate = params.get("id", "")
    if candidate and Payment.objects.filter(payment_id=candidate).exists():
        return str(candidate)
    order_id = params.get("order") or params.get("order_id")
    if order_id:
        payment = Payment.objects.filter(provider_order_id=order_id).only("payment_id").first()
        if payment:
            return payment.payment_id
    return str(candidate)


@never_cache
@ensure_csrf_cookie
def payment_success(request: HttpRequest) -> HttpResponse:
    payment_id = _payment_id_from(request.GET)
    draft = checkout_draft_get(request=request)
    props = {"paymentId": payment_id, "params": request.GET.dict(),
             # the failed card offers "Try again" and, when it can take this cart, cash on delivery
             "retry": draft is not None,
             "codAvailable": draft is not None and cod_available(
                 request=request, coupon_code=draft["couponCode"], country=draft["country"],
                 governorate=draft["state"] if draft["country"] == "EGY" else ""),
             "urls": island_urls()}
    return render(request, "orders/payment_return.html", {"props": props})


@never_cache  # the order's e-mail and its tracking link, which never expires: kept by no cache (as /track)
def thankyou(request: HttpRequest) -> HttpResponse:
    """The latest order of this session only; anyone else goes home."""
    number = request.GET.get("order") or (request.session.get("orders") or [None])[-1]
    order = Order.objects.filter(number=number).first() if number else None
    if order is None or not session_owns(request, order):
        return redirect("shop:home")
    return render(request, "orders/thankyou.html", {"order": order, "track_path": tracking_path(order, get_language()),
                                                    "cards_unsettled": order_card_orders_unsettled(order)})


@never_cache
def invoice_pdf(request: HttpRequest, number: str) -> HttpResponse:
    """One order's invoice as PDF in the page's language: for its owner (or the session that placed it) and staff."""
    order = Order.objects.filter(number=number).prefetch_related("items__product").first()
    if order is None or not invoice_allowed(request, order):
        raise Http404
    return pdf_response(orders=[order], kind=Kind.INVOICE, language=get_language())


def pdf_response(*, orders: Sequence[Order], kind: str, language: str | None = None) -> HttpResponse:
    response = HttpResponse(document_pdf(orders=orders, kind=kind, language=language), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{document_filename(orders=orders, kind=kind)}"'
    response["X-Robots-Tag"] = "noindex"
    return response


def _private(response: HttpResponse) -> HttpResponse:
    """Tracking pages show an order: never cached, never indexed."""
    add_never_cache_headers(response)
    response["X-Robots-Tag"] = "noindex"
    return response


@require_POST
def reorder(request: HttpRequest, number: str) -> HttpResponse:
    """The account page's Reorder button: lines back in the cart, then the cart with what happened."""
    order = Order.objects.filter(number=number).first()
    if order is None or not (request.user.is_authenticated and order.user_id == request.user.pk):
        raise Http404
    result = order_reorder(request=request, order=order)
    for level, text in result.messages():
        getattr(messages, level)(request, text)
    return redirect("orders:cart")


@never_cache
def cart_reminder_unsubscribe(request: HttpRequest) -> HttpResponse:
    """The link in a cart reminder: no more of them (one click, nothing to type)."""
    ok = cart_reminder_unsubscribe_service(token=request.GET.get("token", ""))
    message = _("You will not get cart reminders any more.") if ok else _("This link is not valid.")
    return render(request, "orders/reminder_unsubscribed.html", {"message": message, "ok": ok},
                  status=200 if ok else 400)


@require_http_methods(["GET", "POST"])
@rate_limit_posts("track")
def track_page(request: HttpRequest) -> HttpResponse:
    """Track my order: number + checkout phone or e-mail; one answer for every wrong pair."""
    values = {"number": request.POST.get("number", ""), "contact": request.POST.get("contact", "")}
    error = None
    if request.method == "POST":
        try:
            order = order_track_lookup(number=values["number"], contact=values["contact"])
        except ShopError as exc:
            error = exc
        else:
            return redirect(tracking_path(order, get_language()))
    response = render(request, "orders/track.html", {"values": values, "error": error},
                      status=error.status if error else 200)
    return _private(response)


def track_order_page(request: HttpRequest, token: str) -> HttpResponse:
    """The order a signed link names (e-mails, thank-you page, a successful lookup)."""
    try:
        order = order_from_token(token)
    except TrackingError as exc:
        return _private(render(request, "orders/track.html", {"values": {}, "error": exc}, status=404))
    data = tracking_data(order, language=get_language(), request=request)
    return _private(render(request, "orders/track.html", {"tracked": data, "values": {}}))
