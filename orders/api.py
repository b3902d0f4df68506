"""Cart, checkout and payment API for the islands (spec 7; DECISIONS overrule)."""

import logging
import math
from typing import Any, cast

from django.conf import settings
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import csrf_enforce
from accounts.models import User
from accounts.services import customer_create, customer_sign_in, token_issue
from catalog.cache import catalog_version
from catalog.models import Product
from orders import cart as carts
from orders.actions import order_lines
from orders.calculations import order_totals
from orders.checkout import checkout_complete, coupon_check, coupon_remembered
from orders.delivery import day_label, shopper_governorate, shopper_governorate_remember
from orders.models import Order, OrderStatus, Payment, PaymentStatus
from orders.payments import sandbox_enabled
from orders.payments.services import payment_verify, signed_redirect
from orders.places import governorate_stored
from orders.prefill import checkout_coupon_remember, checkout_coupon_remembered
from orders.reminders import cart_reminder_opt_in
from orders.reorder import order_reorder
from orders.selectors import (
    order_awaits_kiosk_cash,
    order_kiosk_reference,
    order_summary,
    order_unpaid_lifetime,
    session_owns,
)
from orders.serializers import (
    AddressInputSerializer,
    OrderSummaryOutputSerializer,
    TrackingOutputSerializer,
    cart_output,
)
from orders.summary import cart_summary
from orders.tracking import order_from_token, order_track_lookup, tracking_data, tracking_path
from shop.api.input import validated_input
from shop.api.money import MoneyField
from shop.api.views import OwnTransactionsApiView
from shop.errors import ShopError
from shop.money import to_minor_units
from shop.site_url import site_url
from shop.store_time import store_localtime

logger = logging.getLogger("orders")
_money = MoneyField()

CartSchema = inline_serializer("Cart", {
    "items": serializers.ListField(child=serializers.DictField()),
    "item_count": serializers.IntegerField(), "subtotal": serializers.CharField(),
    "discount": serializers.CharField(), "shipping": serializers.CharField(),
    "cod_fee": serializers.CharField(), "tax": serializers.CharField(),
    "prices_include_tax": serializers.BooleanField(), "total": serializers.CharField(),
    "free_shipping_remaining": serializers.CharField(), "notice": serializers.CharField(required=False),
    "governorate": serializers.CharField(), "delivery": serializers.CharField(),
    "cod_available": serializers.BooleanField(),
})


CART_ANSWER_SECONDS = 60


def _cart_response(request: Request, *, lines: list[tuple[Product, int]], notice: str | None = None) -> Response:
    """The cart answer after a write, from the lines the write left (with the coupon applied at checkout)."""
    data = cart_output(cart_summary(None, governorate=shopper_governorate(request._request), lines=lines,
                                    coupon=coupon_remembered(request=request, lines=lines)))
    if notice:
        data["notice"] = notice
    return Response(data)


def _capped_notice(capped: bool) -> str | None:
    return _("Only the quantity in stock was added") if capped else None


class _CartWriteApi(OwnTransactionsApiView):
    """A cart API whose writes hold the cart no longer than the write itself takes.

    The cart services run each write in a transaction of their own, the cart's row written first
    (orders.cart). In the request's transaction (shop.middleware.AtomicWritesMiddleware) the cart would
    stay held while DRF counts the rate limit and reads the body and the answer is built, and the next
    write to that cart (on SQLite, to any table: one writer at a time) would wait for all of it (issue 14).
    """

    throttle_scope = "cart"


class CartApi(_CartWriteApi):
    """The visitor's cart (session for guests, account for customers)."""

    @extend_schema(responses=CartSchema)
    def get(self, request: Request) -> Response:
        governorate = shopper_governorate(request)

        def answer() -> dict[str, Any]:
            lines = carts.cart_lines_for_request(request)
            return cart_output(cart_summary(None, governorate=governorate, lines=lines,
                                            coupon=coupon_remembered(request=request, lines=lines)))

        # kept until the cart changes, for this catalogue version, language, governorate and the coupon applied
        # at checkout; at most a minute, like a stored page (a data fix outside the services, the delivery
        # dates after midnight, a coupon expired since)
        name = ("answer", catalog_version(), get_language(), governorate, checkout_coupon_remembered(request=request))
        return Response(dict(carts.cart_memo(request, name, answer, seconds=CART_ANSWER_SECONDS)))

    @extend_schema(responses={200: CartSchema})
    def delete(self, request: Request) -> Response:
        carts.cart_clear(cart=carts.cart_get_for_request(request))
        return _cart_response(request, lines=[])


class CartItemAddApi(_CartWriteApi):
    @extend_schema_serializer(component_name="CartItemAddInput")
    class InputSerializer(serializers.Serializer[Any]):
        product_id = serializers.IntegerField()
        quantity = serializers.IntegerField(default=1, min_value=1, max_value=999)
        # where a new line goes in the cart's list (0 first; Undo puts a removed line back); last without it
        position = serializers.IntegerField(required=False, min_value=0, max_value=999)

    @extend_schema(request=InputSerializer, responses=CartSchema)
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        change = carts.cart_line_add(owner=carts.cart_owner(request._request, create=True),
                                     product_id=data["product_id"], quantity=data["quantity"],
                                     position=data.get("position"))
        return _cart_response(request, lines=change.lines, notice=_capped_notice(change.capped))


class CartItemApi(_CartWriteApi):
    @extend_schema_serializer(component_name="CartItemInput")
    class InputSerializer(serializers.Serializer[Any]):
        quantity = serializers.IntegerField(max_value=999)

    @extend_schema(request=InputSerializer, responses=CartSchema)
    def patch(self, request: Request, product_id: int) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        change = carts.cart_line_update(owner=carts.cart_owner(request._request, create=True), product_id=product_id,
                                        quantity=data["quantity"])
        return _cart_response(request, lines=change.lines, notice=_capped_notice(change.capped))

    @extend_schema(responses={200: CartSchema})
    def delete(self, request: Request, product_id: int) -> Response:
        owner = carts.cart_owner(request)
        if owner is not None:
            carts.cart_line_remove(owner=owner, product_id=product_id)
        return _cart_response(request, lines=carts.cart_lines_for_request(request))


class CartSummaryApi(APIView):
    """The cart's totals for a payment method and coupon code (checkout summary)."""

    throttle_scope = "cart"

    @extend_schema_serializer(component_name="CartSummaryInput")
    class InputSerializer(serializers.Serializer[Any]):
        # "" takes the coupon off; absent (the cart page's governorate): the one applied before, if it still applies
        coupon_code = serializers.CharField(required=False, allow_blank=True)
        payment_method = serializers.CharField(required=False, allow_blank=True, default="card")
        # the delivery governorate (English or Arabic name); remembered for the session.
        # Absent: the shopper's last one. A country other than Egypt: the default rate.
        governorate = serializers.CharField(required=False, allow_blank=True, max_length=100)
        country = serializers.CharField(required=False, allow_blank=True, max_length=3, default="EGY")

    @extend_schema(request=InputSerializer, responses=CartSchema)
    def post(self, request: Request) -> Response:
        data = validated_input(self.InputSerializer, request.data)
        cart = carts.cart_get_for_request(request)
        abroad = data["country"].upper() not in ("", "EGY")
        if abroad:
            governorate = ""
        elif "governorate" in data:
            governorate = governorate_stored(data["governorate"])
            shopper_governorate_remember(request._request, governorate)
        else:
            governorate = shopper_governorate(request)
        coupon = None
        if "coupon_code" not in data:
            coupon = coupon_remembered(request=request, lines=carts.cart_lines(cart))
        elif code := data["coupon_code"].strip():
            subtotal = order_totals(lines=carts.cart_lines(cart)).subtotal
            coupon = coupon_check(code=code, subtotal=subtotal)
            checkout_coupon_remember(request=request._request, code=coupon.code)
        else:
            checkout_coupon_remember(request=request._request, code="")
        summary = cart_summary(cart, coupon=coupon, governorate=governorate,
                               payment_method=data["payment_method"], abroad=abroad)
        return Response(cart_output(summary))


class PaymentTestApi(APIView):
    """Which Paymob keys are configured (never the keys themselves)."""

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request) -> Response:
        key = settings.PAYMOB_SECRET_KEY
        parts = key.split("_")
        prefix = "_".join(parts[:3]) if len(parts) > 3 else key[:3]
        return Response({"success": True, "config": {
            "secretKeyExists": bool(key), "publicKeyExists": bool(settings.PAYMOB_PUBLIC_KEY),
            "apiKeyExists": bool(settings.PAYMOB_API_KEY), "secretKeyPrefix": prefix,
            "provider": settings.PAYMENT_PROVIDER, "sandbox": sandbox_enabled(),
        }})


class CreateIntentionApi(OwnTransactionsApiView):
    """Place the order from the server-side cart and start its payment.

    Prices, totals and items' prices in the body are ignored: the server
    computes the amount from the catalogue and the store settings. The order is
    committed before Paymob is asked for its payment page (checkout_complete):
    a slow Paymob must not hold the database meanwhile.
    """

    throttle_scope = "checkout"

    @extend_schema_serializer(component_name="CreateIntentionCustomer")
    class CustomerSerializer(serializers.Serializer[Any]):
        first_name = serializers.CharField(required=False, allow_blank=True, default="")
        last_name = serializers.CharField(required=False, allow_blank=True, default="")
        email = serializers.CharField(required=False, allow_blank=True, default="")
        phone = serializers.CharField(required=False, allow_blank=True, default="")

    @extend_schema_serializer(component_name="CreateIntentionAddress")
    class AddressSerializer(AddressInputSerializer):
        pass

    @extend_schema_serializer(component_name="CreateIntentionItem")
    class ItemSerializer(serializers.Serializer[Any]):
        id = serializers.IntegerField()
        quantity = serializers.IntegerField(min_value=1, max_value=999)

    @extend_schema_serializer(component_name="CreateIntentionInput")
    class InputSerializer(serializers.Serializer[Any]):
        payment_method = serializers.ChoiceField(choices=["card", "cod", "sandbox"], default="card")
        test_mode = serializers.BooleanField(required=False, default=False)
        customer = serializers.DictField(required=False, default=dict)
        billing_address = serializers.DictField(required=False, default=dict)
        # optional: when sent, they must match the server-side cart (409 otherwise)
        items = serializers.ListField(child=serializers.DictField(), required=False)
        # optional: the total the shopper was shown; the order's must be the same (409 otherwise)
        total = serializers.DecimalField(max_digits=12, decimal_places=2, required=False, allow_null=True)
        coupon_code = serializers.CharField(required=False, allow_blank=True, default="")
        create_account = serializers.BooleanField(required=False, default=False)
        password = serializers.CharField(required=False, allow_blank=True, default="", trim_whitespace=False)
        confirm_password = serializers.CharField(required=False, allow_blank=True, default="",
                                                 trim_whitespace=False)
        # order updates by WhatsApp to the checkout phone (opt-in)
        whatsapp_opt_in = serializers.BooleanField(required=False, default=False)

    @extend_schema(request=InputSerializer, responses=inline_serializer("PaymentIntention", {
        "success": serializers.BooleanField(), "payment_url": serializers.CharField(),
        "payment_id": serializers.CharField(), "amount": serializers.CharField(),
        "order_id": serializers.CharField(), "email": serializers.CharField(),
    }))
    def post(self, request: Request) -> Response:
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if data["create_account"]:  # signs the new customer in
            csrf_enforce(request)
        fields = {**data["customer"], **data["billing_address"], "coupon_code": data["coupon_code"],
                  "create_account": data["create_account"], "password": data["password"],
                  "confirm_password": data["confirm_password"], "whatsapp_opt_in": data["whatsapp_opt_in"]}
        result = checkout_complete(request=request._request, fields=fields, payment_method=data["payment_method"],
                                   test_mode=data["test_mode"], items=data.get("items"), total=data.get("total"))
        order, payment = result.order, result.payment
        if result.error:
            return Response({"success": False, "error": result.error, "message": result.error,
                             "orderId": order.number}, status=502)
        return Response({
            "success": True, "paymentUrl": result.payment_url, "paymentId": payment.payment_id if payment else "",
            "amount": _money.to_representation(order.total_amount), "amountCents": to_minor_units(order.total_amount),
            "currency": "EGP", **OrderSummaryOutputSerializer(order_summary(order, payment)).data,
        }, status=201)


def _awaiting_cash(order: Order, *, owned: bool) -> dict[str, str]:
    """What the return page tells a kiosk (Aman, Masary) payer whose payment Paymob reported pending: the
    order waits for their cash, with what to pay with and how long it is held, in the page's language (the
    island shows these words as they come). The link is the order's own page for its visitor; anyone else
    (the payer in another browser) gets the tracking form, as the order is not shown to them."""
    reference = order_kiosk_reference(order)
    hours = settings.PAYMOB_PENDING_HOURS
    lifetime = order_unpaid_lifetime(order)
    if lifetime.since > order.created_at:
        # restored by staff after it was cancelled: held from the restore, which its payer never saw, so the
        # moment it expires, in the store's time (orders.selectors.order_unpaid_since)
        until = store_localtime(lifetime.since + lifetime.length)
        hold = _("Your order was restored and is held until %(day)s, %(time)s; unpaid by then, it is "
                 "cancelled.") % {"day": day_label(until.date(), get_language() or "en"), "time": f"{until:%H:%M}"}
    else:
        hold = ngettext("Your order is held for %(hours)s hour from when you placed it; "
                        "unpaid by then, it is cancelled.",
                        "Your order is held for %(hours)s hours from when you placed it; "
                        "unpaid by then, it is cancelled.", math.ceil(hours)) % {"hours": f"{hours:g}"}
    return {
        "title": _("Waiting for your cash payment"),
        "text": (_("Pay at any Aman or Masary outlet with reference %(code)s") % {"code": reference} if reference
                 else _("Pay at any Aman or Masary outlet with the reference Paymob gave you.")),
        "hold": hold,
        "track": tracking_path(order, get_language()) if owned else reverse("orders:track"),
    }


class PaymentVerifyApi(APIView):
    """Whether a payment is confirmed, from the server's state (asking the provider if needed).

    Answered to the visitor who placed the order, and to a browser that comes back from paying it
    with the provider's signed redirect (the payer in another browser); anyone else gets the 404 of an
    unknown payment, and no provider is asked on their behalf.
    """

    # each GET may ask Paymob (at most once every few seconds per payment: orders.payments.services)
    throttle_scope = "payment_verify"
    throttle_reads = True

    @extend_schema(responses=inline_serializer("PaymentVerification", {
        "success": serializers.BooleanField(), "confirmed": serializers.BooleanField(),
        "status": serializers.CharField(),
        # paid, but its order had been cancelled first (expired, or a card declined before): staff refund
        # or restore it, so the page must not say the order is confirmed
        "order_cancelled": serializers.BooleanField(),
        # a kiosk payment Paymob reported pending: its order waits for the cash (title, text, hold, track)
        "awaiting_cash": serializers.DictField(child=serializers.CharField(), required=False),
    }))
    def get(self, request: Request, payment_id: str) -> Response:
        payment = Payment.objects.select_related("order").filter(payment_id=payment_id).first()
        params = request.query_params.dict()
        owned = payment is not None and session_owns(request, payment.order)
        if payment is None or not (owned or signed_redirect(payment=payment, params=params)):
            raise ShopError(_("Payment verification failed"), status=404)
        payment = payment_verify(payment=payment, params=params, for_visitor=True)
        order = payment.order
        confirmed = payment.status == PaymentStatus.PAID
        body = {"success": confirmed, "confirmed": confirmed, "status": payment.status,
                "order_cancelled": order.status == OrderStatus.CANCELLED}
        if not confirmed and order_awaits_kiosk_cash(order):
            body["awaiting_cash"] = _awaiting_cash(order, owned=owned)
        if owned:
            body["order"] = {**OrderSummaryOutputSerializer(order_summary(order, payment)).data,
                             "amount": _money.to_representation(payment.amount),
                             # its page, for a guest who has only this one way back besides the e-mail
                             "trackPath": tracking_path(order, get_language()),
                             "invoicePath": reverse("orders:invoice", args=[order.number])}
            owner = carts.cart_owner(request)
            # what it paid for, not what was added since; nor for a cancelled order, which nothing is on its
            # way for until staff restore it (orders.actions.order_mark_paid leaves that cart too)
            if confirmed and not body["order_cancelled"] and owner is not None:
                carts.cart_clear_if_ordered(owner=owner, ordered=order_lines(order))
        return Response(body)


class OrderCreateApi(OwnTransactionsApiView):
    """Spec 7 compatibility: the server-side order of a payment the provider confirmed (asked of
    Paymob here when its callback has not come: outside the request's transaction).

    Only the visitor who placed the order (its session or its customer) may
    ask: anyone else holding the payment id gets the same 404 as for an
    unknown id, and nothing is verified on their behalf.
    """

    throttle_scope = "payment_verify"

    @extend_schema_serializer(component_name="OrderCreateInput")
    class InputSerializer(serializers.Serializer[Any]):
        payment_id = serializers.CharField()

    @extend_schema(request=InputSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        payment = Payment.objects.select_related("order").filter(
            payment_id=data.validated_data["payment_id"]).first()
        if payment is None or not session_owns(request, payment.order):
            raise ShopError(_("Payment not found"), field="paymentId", status=404)
        payment = payment_verify(payment=payment, for_visitor=True)
        if payment.status != PaymentStatus.PAID:
            raise ShopError(_("Payment not confirmed"), field="paymentId")
        order = Order.objects.get(pk=payment.order_id)
        return Response({"id": order.number, **OrderSummaryOutputSerializer(order_summary(order, payment)).data})


class CheckoutRegisterApi(APIView):
    """Create a customer account during checkout and sign it in."""

    throttle_scope = "register"

    @extend_schema_serializer(component_name="CheckoutRegisterInput")
    class InputSerializer(serializers.Serializer[Any]):
        first_name = serializers.CharField(required=False, allow_blank=True, default="")
        last_name = serializers.CharField(required=False, allow_blank=True, default="")
        email = serializers.CharField(required=False, allow_blank=True, default="")
        password = serializers.CharField(required=False, allow_blank=True, default="", trim_whitespace=False)
        phone = serializers.CharField(required=False, allow_blank=True, default="")
        is_active = serializers.BooleanField(required=False, default=True)

    @extend_schema(request=InputSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request) -> Response:
        csrf_enforce(request)
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        user = customer_create(first_name=data["first_name"], last_name=data["last_name"],
                               email=data["email"], password=data["password"], phone=data["phone"],
                               language=get_language())
        customer_sign_in(request=request._request, user=user)
        _token, key = token_issue(user=user)
        response = Response({
            "user": {"id": user.pk, "firstName": user.first_name, "lastName": user.last_name,
                     "email": user.email, "phone": user.phone},
            "sessionToken": key, "message": _("Account created successfully"),
        }, status=201)
        add_never_cache_headers(response)  # it holds a bearer token, as /api/auth/login's answer does
        return response


class ReorderApi(APIView):
    """Put a past order's still-available lines back in the signed-in customer's cart."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=inline_serializer("ReorderResult", {
        "added": serializers.ListField(child=serializers.CharField()),
        "reduced": serializers.ListField(child=serializers.CharField()),
        "unavailable": serializers.ListField(child=serializers.CharField()),
        "messages": serializers.ListField(child=serializers.CharField()),
        "cart": CartSchema,
    }))
    def post(self, request: Request, number: str) -> Response:
        customer = cast(User, request.user)  # IsAuthenticated
        order = Order.objects.filter(number=number, user=customer).first()
        if order is None:
            raise ShopError(_("Order not found"), status=404, code="not_found")
        result = order_reorder(request=request, order=order)
        cart = carts.cart_get_for_request(request)
        return Response({"added": result.added, "reduced": result.reduced, "unavailable": result.unavailable,
                         "messages": [text for _level, text in result.messages()],
                         "cart": cart_output(cart_summary(cart))})


class CartReminderApi(APIView):
    """Opt in (or out) of one reminder e-mail if this cart is left: the e-mail typed at checkout."""

    throttle_scope = "cart"

    class InputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "CartReminderInput"

        email = serializers.CharField(required=False, allow_blank=True, default="")
        opt_in = serializers.BooleanField(required=False, default=True)

    @extend_schema(request=InputSerializer, responses=inline_serializer("CartReminderAnswer", {
        "optIn": serializers.BooleanField()}), summary="Remind me by e-mail if I leave my cart")
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        cart_reminder_opt_in(request=request, email=data.validated_data["email"],
                             opt_in=data.validated_data["opt_in"], language=get_language(),
                             base_url=site_url(request))
        return Response({"opt_in": data.validated_data["opt_in"]})


TrackingSchema = inline_serializer("OrderTracking", {
    "number": serializers.CharField(), "status": serializers.CharField(), "status_label": serializers.CharField(),
    "history": serializers.ListField(child=serializers.DictField()),
    "items": serializers.ListField(child=serializers.DictField()), "total": serializers.CharField(),
    "address": serializers.DictField(), "delivery": serializers.DictField(allow_null=True),
    "shipment": serializers.DictField(allow_null=True), "url": serializers.CharField(),
    "invoice_url": serializers.CharField(allow_null=True),
})


def _tracking_response(request: Request, order: Order) -> Response:
    language = get_language()
    return Response({**TrackingOutputSerializer(tracking_data(order, language=language, request=request)).data,
                     "url": tracking_path(order, language)})


class OrderTrackApi(APIView):
    """Track an order: its number plus the phone or e-mail used at checkout.

    Every wrong pair answers the same 404; lookups are rate-limited (`track`).
    """

    throttle_scope = "track"

    @extend_schema_serializer(component_name="OrderTrackInput")
    class InputSerializer(serializers.Serializer[Any]):
        order_number = serializers.CharField(allow_blank=True, max_length=32)
        contact = serializers.CharField(allow_blank=True, max_length=254)

    @extend_schema(request=InputSerializer, responses=TrackingSchema)
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        order = order_track_lookup(number=data.validated_data["order_number"], contact=data.validated_data["contact"])
        return _tracking_response(request, order)


class OrderTrackTokenApi(APIView):
    """The order a signed tracking link names."""

    @extend_schema(responses=TrackingSchema)
    def get(self, request: Request, token: str) -> Response:
        return _tracking_response(request, order_from_token(token))
