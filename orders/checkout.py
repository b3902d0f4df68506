"""Placing an order: validate the form, then one transaction that recomputes
every amount, takes the stock, counts the coupon and snapshots the lines."""

import math
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from rest_framework.request import Request

from accounts.lockout import client_ip
from accounts.models import User
from accounts.services import (
    AccountError,
    customer_create,
    customer_language_set,
    customer_sign_in,
    phone_invalid_message,
    phone_is_valid,
    phone_normalize,
)
from catalog.models import Product
from orders import cart as carts
from orders import notes
from orders.actions import order_confirm_cod, order_expire_unpaid, order_mark_paid, order_stock_hand_over
from orders.calculations import cod_limit_exceeded, order_totals
from orders.cart import quantity_limit_problem
from orders.coupons import coupon_use_take
from orders.delivery import delivery_window, shopper_governorate_remember, zone_for
from orders.drafts import checkout_draft_drop, checkout_draft_keep
from orders.models import (
    Cart,
    Coupon,
    Order,
    OrderItem,
    OrderStatus,
    OrderStatusChange,
    Payment,
    PaymentMethod,
    PaymentStatus,
)
from orders.payments import get_provider, provider_for_method, wants_sandbox
from orders.payments.base import PaymentError, PaymentStart
from orders.payments.services import payment_create, payment_nothing_due, payment_start, payment_verify
from orders.places import COUNTRIES, governorate_stored
from orders.prefill import checkout_coupon_forget, checkout_coupon_remembered
from orders.selectors import (
    UNPAID_LIFETIME,
    kiosk_orders_held_count,
    open_cod_orders_count,
    order_awaits_kiosk_cash,
    order_kiosk_reference,
    unpaid_orders_count,
)
from orders.stock import InsufficientStock, stock_reserve
from shop.errors import ShopError, camel_case
from shop.money import format_egp
from shop.site_url import site_url
from shop.store_settings import store_settings_get
from shop.validation import (
    EMAIL_MAX,
    LINE_MAX,
    NAME_MAX,
    PASSWORD_MAX,
    PHONE_MAX,
    clean_text,
    western_digits,
)

PASSWORD_MIN = 8


class CheckoutError(ShopError):
    """A problem the customer can fix; `message` is the spec's text."""


@dataclass
class CheckoutForm:
    email: str
    first_name: str
    last_name: str
    phone: str
    street: str
    city: str
    state: str
    country: str = "EGY"
    building: str = ""
    apartment: str = ""
    floor: str = ""
    postal_code: str = ""
    payment_method: str = PaymentMethod.CARD
    coupon_code: str = ""
    create_account: bool = False
    whatsapp_opt_in: bool = False
    password: str = ""
    confirm_password: str = ""


def _clean(value: object) -> str:
    return str(value or "").strip()


# each typed field: (field name in the API, longest accepted text); the model
# columns are at least this long, so both databases store what passes here
_TEXT_FIELDS = {
    "email": ("email", EMAIL_MAX), "first_name": ("firstName", NAME_MAX), "last_name": ("lastName", NAME_MAX),
    "phone": ("phone", PHONE_MAX), "street": ("street", LINE_MAX), "city": ("city", LINE_MAX),
    "state": ("state", 100), "country": ("country", 3), "building": ("building", 50),
    "apartment": ("apartment", 50), "floor": ("floor", 20), "postal_code": ("postalCode", 20),
    "payment_method": ("paymentMethod", 10), "coupon_code": ("couponCode", 40),
}


def _text(data: Mapping[str, Any], name: str) -> str:
    field, limit = _TEXT_FIELDS[name]
    return clean_text(data.get(name), field=field, max_length=limit)


def checkout_validate(data: Mapping[str, Any], *, user: User | AnonymousUser | None = None) -> CheckoutForm:
    """Check a checkout form (a dict of snake_case fields); return a CheckoutForm.

    Every typed field passes `shop.validation.clean_text` (length, NUL,
    surrogates, control characters). Signed-in customers keep the name and
    e-mail of their account.
    """
    text = {name: _text(data, name) for name in _TEXT_FIELDS}
    passwords = {name: clean_text(data.get(name), field=camel_case(name), max_length=PASSWORD_MAX, strip=False)
                 for name in ("password", "confirm_password")}
    form = CheckoutForm(
        email=text["email"].lower(), first_name=text["first_name"], last_name=text["last_name"],
        phone=western_digits(text["phone"]), street=text["street"], city=text["city"], state=text["state"],
        country=text["country"].upper() or "EGY", building=text["building"], apartment=text["apartment"],
        floor=western_digits(text["floor"]), postal_code=western_digits(text["postal_code"]),
        payment_method=text["payment_method"] or PaymentMethod.CARD, coupon_code=text["coupon_code"].upper(),
        create_account=bool(data.get("create_account")), whatsapp_opt_in=bool(data.get("whatsapp_opt_in")),
        **passwords,
    )
    if user is not None and user.is_authenticated:
        form.email = user.email
        form.first_name = user.first_name or form.first_name
        form.last_name = user.last_name or form.last_name
        form.create_account = False
    # every problem at once, one message a field, in the order the checks run: the first is
    # the error's `field`/`message` (the decided shape), all of them its `fields`
    problems: dict[str, str] = {}

    def problem(field: str, message: str) -> None:
        problems.setdefault(field, message)

    required = _("Please fill in all required fields")
    for name in ("email", "first_name", "last_name", "phone"):
        if not getattr(form, name):
            problem(camel_case(name), required)
    if form.email:
        try:
            validate_email(form.email)
        except ValidationError:
            problem("email", _("Please enter a valid email address"))
    local_abroad = form.country != "EGY" and re.fullmatch(r"[0-9]{7,15}", phone_normalize(form.phone))
    if form.phone and not (phone_is_valid(form.phone) or local_abroad):
        problem("phone", phone_invalid_message())
    for name in ("street", "city", "state"):
        if not getattr(form, name):
            problem(name, _("Please fill in your billing address"))
    if form.country not in dict(COUNTRIES):
        problem("country", _("Please choose a country from the list"))
    if form.country == "EGY" and form.state and not governorate_stored(form.state):
        problem("state", _("Please choose a governorate from the list"))
    if form.postal_code and not re.fullmatch(r"[0-9A-Za-z \-]{3,10}", form.postal_code):
        problem("postalCode", _("Please enter a valid postal code"))
    if form.payment_method not in PaymentMethod.values:
        problem("paymentMethod", _("Please choose a payment method"))
    if form.create_account:
        if len(form.password) < PASSWORD_MIN:
            problem("password", _("Password must be at least 8 characters long"))
        elif form.password != form.confirm_password:
            problem("confirmPassword", _("Passwords do not match"))
    if problems:
        field, message = next(iter(problems.items()))
        raise CheckoutError(message, field=field, fields=problems)
    form.phone = phone_normalize(form.phone)
    if form.country == "EGY":
        form.state = governorate_stored(form.state)
    return form


def coupon_check(*, code: str, subtotal: Decimal) -> Coupon:
    """Return the usable Coupon for `code` on `subtotal`, or raise CheckoutError."""
    code = _clean(code).upper()
    coupon = Coupon.objects.filter(code=code, is_active=True).first()
    if coupon is None:
        raise CheckoutError(_("Invalid coupon code"), field="couponCode")
    if coupon.expiry_date and coupon.expiry_date < timezone.now():
        raise CheckoutError(_("This coupon has expired"), field="couponCode")
    if coupon.usage_limit is not None and coupon.used_count >= coupon.usage_limit:
        raise CheckoutError(_("This coupon has reached its usage limit"), field="couponCode")
    if subtotal < coupon.minimum_order_amount:

        raise CheckoutError(
            _("This coupon needs an order of at least %(amount)s")
            % {"amount": format_egp(coupon.minimum_order_amount, get_language())},
            field="couponCode",
        )
    return coupon


def coupon_remembered(*, request: HttpRequest | Request, lines: list[tuple[Product, int]]) -> Coupon | None:
    """The coupon this session applied at checkout, while it still applies to `lines` (else None).

    The cart shows it with its discount, as the checkout would take it; one that no longer applies
    (expired, used up, the cart now under its minimum) is not shown, and stays remembered for the
    checkout, which says why when it is applied again.
    """
    code = checkout_coupon_remembered(request=request)
    if not code:
        return None
    try:
        return coupon_check(code=code, subtotal=order_totals(lines=lines).subtotal)
    except CheckoutError:
        return None


def _cart_changed() -> CheckoutError:
    """The cart the shopper saw is not the one there is to buy: nothing is placed."""
    return CheckoutError(_("Your cart has changed. Please review it and try again."), field="items",
                         status=409, code="cart_changed")


def _order_number() -> str:
    """A short number customers can read out on the phone: NHT-<yymmdd>-<6 hex>."""
    for _attempt in range(5):
        number = f"NHT-{timezone.now():%y%m%d}-{secrets.token_hex(3).upper()}"
        if not Order.objects.filter(number=number).exists():
            return number
    return f"NHT-{timezone.now():%y%m%d}-{secrets.token_hex(6).upper()}"


def order_place(*, lines: list[tuple[Product, int]], form: CheckoutForm, user: User | AnonymousUser | None = None,
                session_key: str = "", language: str = "en", client_ip: str | None = None,
                base_url: str = "", cart: Cart | None = None, expected_total: Decimal | None = None) -> Order:
    """Create a pending order for `lines` [(product, quantity)] from a CheckoutForm.

    One transaction: the cart the lines were read from, if given, is held
    (a 409 if it changed since: orders.cart.cart_hold); the quantity caps
    are checked again; the prices, shipping, VAT, discount and COD fee are
    recomputed here (and, with `expected_total`, must come to what the
    shopper was shown: a 409 if a price changed since); the stock is
    reserved (InsufficientStock names the short products); the coupon use is
    counted; the items are snapshots.
    A test-page order is flagged `is_test`.
    """
    if not lines:
        raise CheckoutError(_("Your cart is empty"))
    store = store_settings_get()
    problem = quantity_limit_problem(quantities=[q for _p, q in lines], store=store)
    if problem:
        raise CheckoutError(problem, field="items", code="quantity_limit")
    method = form.payment_method
    with transaction.atomic():
        if cart is not None and not carts.cart_hold(cart):
            raise _cart_changed()
        # fresh rows: the cart's product objects may be stale
        fresh = Product.objects.in_bulk([p.pk for p, _q in lines])
        if len(fresh) != len({p.pk for p, _q in lines}):  # deleted since the cart was read
            raise _cart_changed()
        lines = [(fresh[p.pk], q) for p, q in lines]
        subtotal = order_totals(lines=lines, store=store).subtotal
        coupon = coupon_check(code=form.coupon_code, subtotal=subtotal) if form.coupon_code else None

        governorate = form.state if form.country == "EGY" else ""
        totals = order_totals(lines=lines, coupon=coupon, payment_method=method, store=store,
                              governorate=governorate)
        if expected_total is not None and totals.total != expected_total:
            raise _cart_changed()
        if method == PaymentMethod.COD:
            if not store.cod_enabled:
                raise CheckoutError(_("Cash on delivery is not available"), field="paymentMethod")
            if form.country != "EGY":  # no courier collects cash abroad for a shop in Egypt
                raise CheckoutError(_("Cash on delivery is available in Egypt only"), field="paymentMethod",
                                    code="cod_abroad")
            if not zone_for(governorate=governorate, store=store).cod:
                raise CheckoutError(_("Cash on delivery is not available in your governorate"),
                                    field="paymentMethod", code="cod_not_in_governorate")
            if (limit := cod_limit_exceeded(total=totals.total, store=store)) is not None:
                raise CheckoutError(
                    _("Cash on delivery is available for orders up to %(amount)s")
                    % {"amount": format_egp(limit, language)},
                    field="paymentMethod",
                )
        earliest, latest = delivery_window(governorate=governorate, store=store)
        stock_reserve(lines=[(p.pk, q) for p, q in lines])
        if coupon is not None and not coupon_use_take(coupon.pk):
            # changed since coupon_check read it (switched off, deleted, used up): checked again, to say which
            coupon_check(code=coupon.code, subtotal=subtotal)
            raise CheckoutError(_("This coupon has reached its usage limit"), field="couponCode")
        order = Order.objects.create(
            number=_order_number(), user=user if user is not None and user.is_authenticated else None,
            session_key=session_key or "", language=language, payment_method=method,
            email=form.email, first_name=form.first_name, last_name=form.last_name, phone=form.phone,
            street=form.street, building=form.building, apartment=form.apartment, floor=form.floor,
            city=form.city, state=form.state, postal_code=form.postal_code, country=form.country,
            subtotal_amount=totals.subtotal, discount_amount=totals.discount,
            shipping_amount=totals.shipping, cod_fee_amount=totals.cod_fee, tax_amount=totals.tax,
            total_amount=totals.total, prices_include_tax=totals.prices_include_tax,
            coupon=coupon, coupon_code=coupon.code if coupon else "", stock_reserved=True,
            client_ip=client_ip or None, is_test=method == PaymentMethod.SANDBOX,
            site_url=base_url[:200], delivery_min_date=earliest, delivery_max_date=latest,
            whatsapp_opt_in=form.whatsapp_opt_in,
        )
        customer_language_set(user=user, language=language)
        OrderItem.objects.bulk_create([
            OrderItem(
                order=order, product=row.product, product_title=row.product.title,
                product_slug=row.product.slug, unit_price_amount=row.unit_price,
                quantity=row.quantity, line_total_amount=row.line_total,
            )
            for row in totals.lines
        ])
        OrderStatusChange.objects.create(order=order, from_status="", to_status=order.status,
                                         note=notes.ORDER_PLACED)
    return order


def cart_confirm(*, lines: Sequence[tuple[Product, int]], items: Iterable[Mapping[str, Any]]) -> None:
    """Check that the body's `items` [{id, quantity}] name exactly the cart's lines.

    The server-side cart is what is bought; the browser may only confirm it.
    A difference (a tab left open while another changed the cart) is a 409
    and nothing is placed.
    """
    if _quantities(items) != {product.pk: quantity for product, quantity in lines}:
        raise _cart_changed()


def _quantities(items: Iterable[Mapping[str, Any]]) -> dict[int, int]:
    """The body's `items` [{id, quantity}] as the quantity of each product id."""
    wanted: dict[int, int] = {}
    for item in items:
        try:
            product_id, quantity = int(item["id"]), int(item.get("quantity", 1))
        except (KeyError, TypeError, ValueError, OverflowError):
            raise CheckoutError(_("Please check the items in your cart"), field="items") from None
        wanted[product_id] = wanted.get(product_id, 0) + quantity
    return wanted


# orders awaiting cash at an Aman or Masary outlet that one visitor (session, address or customer) may hold
# at once. They are counted apart from the store's limit of unpaid card orders: a shopper who chose to pay at a
# kiosk has not abandoned a card attempt, and theirs is held for a day, not 30 minutes (README, "Decisions")
KIOSK_ORDERS_HELD_MAX = 3


def unpaid_limit_check(*, session_key: str, client_ip: str | None, user: User | AnonymousUser | None) -> None:
    """Refuse another order while this visitor already holds the store's limit of unpaid card orders, or
    KIOSK_ORDERS_HELD_MAX orders awaiting cash at a kiosk."""
    limit = store_settings_get().max_unpaid_orders
    if unpaid_orders_count(session_key=session_key, client_ip=client_ip, user=user) >= limit:
        raise CheckoutError(
            _("You have too many unpaid orders. Please pay for one or wait 30 minutes before ordering again."),
            status=429, code="too_many_unpaid",
        )
    if kiosk_orders_held_count(session_key=session_key, client_ip=client_ip, user=user) >= KIOSK_ORDERS_HELD_MAX:
        hours = settings.PAYMOB_PENDING_HOURS
        raise CheckoutError(
            ngettext("You have orders waiting for your cash at an Aman or Masary outlet. Please pay for one with "
                     "its reference before ordering again; unpaid, each is cancelled %(hours)s hour after it "
                     "was placed.",
                     "You have orders waiting for your cash at an Aman or Masary outlet. Please pay for one with "
                     "its reference before ordering again; unpaid, each is cancelled %(hours)s hours after it "
                     "was placed.", math.ceil(hours)) % {"hours": f"{hours:g}"},
            status=429, code="too_many_kiosk",
        )


# a day's cash-on-delivery orders not yet shipped, per session or customer, count against the same limit
OPEN_COD_WINDOW = timedelta(hours=24)


def open_cod_limit_check(*, session_key: str, user: User | AnonymousUser | None) -> None:
    """Refuse another cash-on-delivery order while this visitor's earlier ones of the day, each holding its
    stock until it ships, reach the store's limit of unpaid orders (one visitor must not take the stock)."""
    limit = store_settings_get().max_unpaid_orders
    if open_cod_orders_count(session_key=session_key, user=user, since=timezone.now() - OPEN_COD_WINDOW) >= limit:
        raise CheckoutError(
            _("You have too many orders waiting to be shipped. Please wait until one ships, or contact us."),
            status=429, code="too_many_cod",
        )


def _checkout_provider(method: str, *, test_mode: bool) -> str:
    """The provider for the body's method; the test page only where it may be used."""
    if wants_sandbox(method, test_mode=test_mode) and settings.PAYMENT_PROVIDER == "paymob":
        raise CheckoutError(_("Test payments are not available in this shop"), field="paymentMethod",
                            code="sandbox_refused")
    provider_name = provider_for_method(method, test_mode=test_mode)
    if not get_provider(provider_name).is_configured():
        raise CheckoutError(_("Payment service is not configured correctly"), status=503,
                            code="provider_not_configured")
    return provider_name


def _account_create(form: CheckoutForm) -> User:
    try:
        return customer_create(first_name=form.first_name, last_name=form.last_name, email=form.email,
                               password=form.password, phone=form.phone, language=get_language())
    except AccountError as exc:
        raise CheckoutError(exc.message, field=exc.field) from None


def _remember_order(request: HttpRequest | Request, order: Order) -> None:
    """Let this session (and only it) see the order on /thankyou and /payment/success."""
    numbers = [n for n in request.session.get("orders", []) if n != order.number][-9:]
    request.session["orders"] = numbers + [order.number]
    # used: the next checkout starts without it, unless this order's payment fails (orders.drafts keeps it)
    checkout_coupon_forget(request=request)
    if order.country == "EGY":
        shopper_governorate_remember(request, order.state)


# what makes a checkout submitted again the same order (with the payment method, coupon and lines)
_SAME_DETAILS = ("email", "first_name", "last_name", "phone", "street", "building", "apartment", "floor", "city",
                 "state", "postal_code", "country", "whatsapp_opt_in")


def _placed_as(form: CheckoutForm) -> dict[str, Any]:
    """The filter on orders placed with `form`'s payment method, coupon and details."""
    return {"payment_method": form.payment_method, "coupon_code": _clean(form.coupon_code).upper(),
            **{name: getattr(form, name) for name in _SAME_DETAILS}}


# an order sent to its payment page again has this long left before it expires unpaid (orders.tasks)
_PAYABLE_FOR = UNPAID_LIFETIME - timedelta(minutes=10)
# how long a payment's start may still be waiting for its provider (Paymob's time limit, with a margin)
_STARTING = timedelta(seconds=2 * settings.PAYMOB_TIMEOUT)


def _customer(request: HttpRequest | Request) -> User | None:
    """The signed-in customer making `request`, or None for a guest."""
    return request.user if request.user.is_authenticated else None


def _awaiting_orders_of(*, user: User | None, session_key: str) -> QuerySet[Order]:
    """This visitor's orders still awaiting payment: a customer's, else their session's (none without one)."""
    if user is None and not session_key:
        return Order.objects.none()
    orders = Order.objects.filter(status=OrderStatus.PENDING, payment_status=PaymentStatus.AWAITING)
    return orders.filter(user=user) if user is not None else orders.filter(user=None, session_key=session_key)


def _holds_lines(order: Order, lines: Sequence[tuple[Product, int]]) -> bool:
    """True when `order`'s items are exactly `lines` [(product, quantity)]: the same purchase."""
    return sorted(order.items.values_list("product_id", "quantity")) == sorted((p.pk, q) for p, q in lines)


def _card_orders_awaiting(*, user: User | None, session_key: str, lines: Sequence[tuple[Product, int]] | None = None,
                          locked: bool = False) -> list[Order]:
    """This visitor's card orders still awaiting payment (not those paid on delivery), the ten latest; with
    `lines`, only those of exactly that cart (_holds_lines). `locked`: their rows are held (select_for_update)
    until the caller's transaction ends."""
    orders = _awaiting_orders_of(user=user, session_key=session_key).exclude(
        payment_method=PaymentMethod.COD).order_by("-created_at")
    if locked:
        orders = orders.select_for_update()
    return [order for order in orders[:10] if lines is None or _holds_lines(order, lines)]


def _awaiting_payments_ask(order: Order) -> bool:
    """Ask the provider about each of `order`'s payments still awaiting: one paid meanwhile is recorded.
    Return False when it could not be asked about one (down, slow, garbage): it has not said "not paid".
    Outside any transaction: the provider is an outside service (shop.outbound)."""
    answered = True
    for payment in order.payments.filter(status=PaymentStatus.AWAITING).select_related("order"):
        try:
            payment_verify(payment=payment, provider_must_answer=True)
        except PaymentError:
            answered = False
    return answered


def _awaiting_same_order(*, form: CheckoutForm, lines: Sequence[tuple[Product, int]], user: User | None,
                         session_key: str) -> Payment | None:
    """The payment of this visitor's order of the same cart and details that still awaits payment, once its
    page is ready: a checkout submitted again (a double click, a retry after a lost answer) is sent there
    rather than placing a second order that would hold the stock twice and could be paid twice.

    A 409 while that order's page is still being asked of its provider. None when there is no such order,
    or its page could not be made, or it would expire before the shopper could pay, or its total is not
    what the cart costs now (a price or a setting changed): a new order is placed.
    """
    # not one kept after its stock went to a cash-on-delivery order (order_stock_hand_over): it holds none
    orders = _awaiting_orders_of(user=user, session_key=session_key).filter(
        created_at__gt=timezone.now() - _PAYABLE_FOR, stock_reserved=True, **_placed_as(form))
    for order in orders.order_by("-created_at")[:3]:
        if _holds_lines(order, lines):
            if order.total_amount != _total_now(form, lines):
                return None
            payment = order.payments.select_related("order").order_by("-created_at").first()
            state = _page_state(order, payment)
            if state == "starting":
                raise CheckoutError(_("Your order is already being placed. Please wait a moment and try again."),
                                    status=409, code="order_being_placed")
            return payment if state == "ready" else None
    return None


# how long a cash-on-delivery checkout submitted again is answered with the order it placed
_RESUBMITTED_WITHIN = timedelta(minutes=10)


def _cod_order_just_placed(*, form: CheckoutForm, numbers: Sequence[str],
                           items: Iterable[Mapping[str, Any]] | None) -> Payment | None:
    """The payment of the cash-on-delivery order this session placed moments ago with the same details
    (and, when the body names items, the same items): a checkout submitted again after its answer was
    lost finds its cart emptied by that order, and is sent to the order's page instead of being told its
    cart is empty. None when there is no such order."""
    if form.payment_method != PaymentMethod.COD or not numbers:
        return None
    order = Order.objects.exclude(status=OrderStatus.CANCELLED).filter(
        number=numbers[-1], created_at__gt=timezone.now() - _RESUBMITTED_WITHIN, **_placed_as(form)).first()
    if order is None:
        return None
    if items is not None and _quantities(items) != dict(order.items.values_list("product_id", "quantity")):
        return None
    return order.payments.select_related("order").exclude(redirect_url="").order_by("-created_at").first()


def _total_now(form: CheckoutForm, lines: Sequence[tuple[Product, int]]) -> Decimal:
    """What the cart would cost with the form's coupon, method and governorate if it were placed now."""
    coupon = Coupon.objects.filter(code=form.coupon_code).first() if form.coupon_code else None
    return order_totals(lines=list(lines), coupon=coupon, payment_method=form.payment_method,
                        store=store_settings_get(), governorate=form.state if form.country == "EGY" else "").total


def _page_state(order: Order, payment: Payment | None) -> str:
    """Where the payment page of an order awaiting its card payment (`payment`, its latest) stands:
    "ready"; "starting", while its provider is still being asked; "unpayable", when it could not be
    made or the request asking for it died (nobody was given a page to pay). An order placed before
    payments were made with their orders has none until its provider answers."""
    if payment is None:
        return "starting" if order.created_at > timezone.now() - _STARTING else "unpayable"
    if payment.status == PaymentStatus.AWAITING:
        if payment.redirect_url:
            return "ready"
        if payment.created_at > timezone.now() - _STARTING:
            return "starting"
    return "unpayable"


@dataclass(frozen=True)
class CheckoutResult:
    """A placed order and its payment; `error` when the provider could not start it."""

    order: Order
    payment: Payment | None = None
    payment_url: str = ""
    error: str = ""


def checkout_complete(*, request: HttpRequest | Request, fields: Mapping[str, Any], payment_method: str,
                      test_mode: bool = False, items: Iterable[Mapping[str, Any]] | None = None,
                      total: Decimal | None = None) -> CheckoutResult:
    """Place the visitor's server-side cart as an order and start its payment.

    `request` is the Django request (its user, session, cart and address);
    `fields` the customer's and address fields (snake_case); `items` and
    `total`, when given, are what the shopper saw: the cart and the order's
    total must still be those (a 409 otherwise). In order: pick the
    provider, validate, check
    the cart and the visitor's unpaid orders (the same card order submitted
    again gets its payment page back; the same cash-on-delivery order, whose
    placing emptied the cart, its order page), create the account if asked,
    place the order (holding the cart: of two checkouts of one cart at once,
    one places it), sign the new customer in, start the payment; a
    cash-on-delivery order is confirmed and the cart emptied in the
    placing's transaction. A card order and its payment are committed before
    its provider is asked (no outside call inside a transaction:
    shop.outbound).

    A ShopError (400/409/429/503) changes nothing. A provider failure after
    placing returns the order with `error`: it stays pending until it
    expires, or until its visitor places another order.
    """
    provider_name = _checkout_provider(payment_method, test_mode=test_mode)
    method = PaymentMethod.SANDBOX if provider_name == "sandbox" else payment_method
    form = checkout_validate({**fields, "payment_method": method}, user=request.user)
    cart = carts.cart_get_for_request(request)
    lines = carts.cart_lines(cart)
    if cart is None or not lines:
        placed = _cod_order_just_placed(form=form, numbers=request.session.get("orders", []), items=items)
        if placed is None:
            raise CheckoutError(_("Your cart is empty"))
        return CheckoutResult(order=placed.order, payment=placed, payment_url=placed.redirect_url)
    if items is not None:
        cart_confirm(lines=lines, items=items)
    user = _customer(request)
    session_key = request.session.session_key or ""
    if provider_name != "cod":
        awaiting = _awaiting_same_order(form=form, lines=lines, user=user, session_key=session_key)
        if awaiting is not None:
            return CheckoutResult(order=awaiting.order, payment=awaiting, payment_url=awaiting.redirect_url)
    unanswered: set[int] = set()
    if provider_name == "cod":  # one of them paid meanwhile empties the cart: placing then finds it changed (409)
        unanswered = _card_payments_ask(lines=lines, user=user, session_key=session_key)
    order, payment, payment_url = _order_place_for(request, form=form, cart=cart, lines=lines, user=user,
                                                   provider_name=provider_name, expected_total=total,
                                                   unanswered=unanswered)
    if payment_url:  # cash on delivery: confirmed already
        checkout_draft_drop(request=request)
        return CheckoutResult(order=order, payment=payment, payment_url=payment_url)
    # kept until paid: a failed payment comes back to a filled form
    checkout_draft_keep(request=request, form=form, order=order)
    try:
        # after the order is committed: the provider is an outside service (shop.outbound)
        start = _payment_start(request, payment)
    except PaymentError as exc:
        message = _("Payment request timed out") if exc.timed_out else _("Payment service is not available")
        return CheckoutResult(order=order, error=message)
    return CheckoutResult(order=order, payment=payment, payment_url=start.payment_url)


def _order_place_for(request: HttpRequest | Request, *, form: CheckoutForm, cart: Cart,
                     lines: list[tuple[Product, int]], user: User | None,
                     provider_name: str, expected_total: Decimal | None = None,
                     unanswered: Set[int] = frozenset()) -> tuple[Order, Payment, str]:
    """Place the visitor's order and its payment (creating their account first, if asked), and remember
    the order in their session. A cash-on-delivery order is also confirmed and its cart emptied, all in
    one transaction (it has no provider to ask outside it), and comes back with its page's address, as
    does a card order a coupon made free (paid: nothing to take); a card order's provider is still to be
    asked (no address). `unanswered`: the card orders of the cart its provider could not be asked about
    (_card_payments_ask), kept rather than cancelled."""
    session_key = request.session.session_key or ""
    address = client_ip(request)
    new_user = None
    try:
        with transaction.atomic():
            # in the placing's transaction: they stay if this order is refused
            _unpayable_orders_cancel(user=user, session_key=session_key, lines=lines,
                                     cod=provider_name == "cod", unanswered=unanswered)
            unpaid_limit_check(session_key=session_key, client_ip=address, user=user)
            if provider_name == "cod":
                open_cod_limit_check(session_key=session_key, user=user)
            if form.create_account and user is None:
                new_user = _account_create(form)
            order = order_place(lines=lines, form=form, user=user or new_user, session_key=session_key,
                                language=get_language(), client_ip=address, base_url=site_url(request), cart=cart,
                                expected_total=expected_total)
            payment = payment_create(order=order, provider_name=provider_name)
            payment_url = ""
            if provider_name == "cod":
                payment_url = _payment_start(request, payment).payment_url
                order = order_confirm_cod(order=order)
                carts.cart_clear(cart=cart)
            elif order.total_amount == 0:
                # a coupon covers all of it: nothing for a provider to take (Paymob takes no 0), so paid now
                payment = payment_nothing_due(payment=payment)
                order = order_mark_paid(order=order, note=notes.NOTHING_TO_PAY)
                payment_url = reverse("orders:thankyou")
                carts.cart_clear(cart=cart)
    except InsufficientStock as exc:
        # the shopper is told what to do about it too: the cart shows how many of each are left
        advice = _("Please lower the quantity in your cart, which shows how many are left.")
        raise CheckoutError(f"{exc.message}. {advice}", field="items", status=409,
                            code="insufficient_stock") from None
    if new_user is not None:
        customer_sign_in(request=request, user=new_user)
    _remember_order(request, order)
    return order, payment, payment_url


def _unpayable_orders_cancel(*, user: User | None, session_key: str, lines: Sequence[tuple[Product, int]],
                             cod: bool = False, unanswered: Set[int] = frozenset()) -> None:
    """Cancel this visitor's card orders that nobody can pay: their payment page could not be made, or the
    request asking for it died; and, when they are about to pay the same cart on delivery instead (`cod`),
    the card orders of exactly those `lines` ("Pay on delivery instead": otherwise their own unpaid order
    holds the last packs). They are about to place another, so the stock and coupon use come back now
    rather than when the orders expire, the orders do not count against the unpaid-order limit, and no
    cancellation e-mail is sent.

    A card order of those lines its provider could not be asked about (`unanswered`: down, slow, garbage) may
    have been paid, its callback still to come: it is not cancelled (that payment would be lost) but kept
    pending for the expiry job to ask about again, and its stock and coupon use are handed to the order
    about to be placed (order_stock_hand_over), so the cart's stock is held once and its last packs do not
    refuse that order. Paid after all, it is flagged for staff (order_mark_paid: paid_after_replaced).

    An order awaiting cash at an Aman or Masary outlet is never cancelled here: its customer holds a
    reference they may pay at any moment, and Paymob cannot refund cash paid on a cancelled order. Another
    order of exactly its cart, however paid, is refused (kiosk_order_awaiting_error) until they pay it or
    cancel it themselves (kiosk_order_cancel): two orders would hold the stock twice, and both could be paid."""
    for order in _card_orders_awaiting(user=user, session_key=session_key, locked=True):
        if order_awaits_kiosk_cash(order):
            if _holds_lines(order, lines):
                raise kiosk_order_awaiting_error(order)
            continue
        # held: a page its provider gives now is kept only while the order still awaits it (payment_start)
        if _page_state(order, order.payments.order_by("-created_at").first()) == "unpayable":
            order_expire_unpaid(order=order, note=notes.PAYMENT_PAGE_UNMADE,
                                notify=False)
        elif cod and _holds_lines(order, lines):
            if order.pk in unanswered:
                order_stock_hand_over(order=order, note=notes.REPLACED_BY_COD_UNANSWERED)
            else:
                order_expire_unpaid(order=order, note=notes.REPLACED_BY_COD,
                                    notify=False)


def kiosk_order_awaiting_error(order: Order) -> CheckoutError:
    """The refusal of another order of the cart `order` holds while it awaits cash at a kiosk: it names the
    order and its reference, and says how to choose."""
    reference = order_kiosk_reference(order)
    if reference:
        message = _("Your order %(number)s is waiting for your cash at an Aman or Masary outlet (reference "
                    "%(reference)s). Pay for it there, or cancel it on the checkout page to pay another "
                    "way.") % {"number": order.number, "reference": reference}
    else:
        message = _("Your order %(number)s is waiting for your cash at an Aman or Masary outlet. Pay for it "
                    "there, or cancel it on the checkout page to pay another way.") % {"number": order.number}
    return CheckoutError(message, field="paymentMethod", status=409, code="kiosk_order_awaiting")


@dataclass(frozen=True)
class KioskOrderHeld:
    """An order of the visitor's that awaits their cash at an Aman or Masary outlet, the reference they pay it
    with ("" when Paymob's report gave none), and whether it is of exactly their cart (`of_cart`: another
    order of that cart is refused while it waits, kiosk_order_awaiting_error)."""

    order: Order
    reference: str
    of_cart: bool = True


def kiosk_orders_held(*, request: HttpRequest | Request) -> list[KioskOrderHeld]:
    """This visitor's orders that await cash at a kiosk, of their cart or not, oldest first: the checkout page
    names them all, so that paying another way (on delivery, by card) is their choice (kiosk_order_cancel),
    never a silent cancellation, and an order of another cart is not paid twice unawares (README,
    "Decisions")."""
    lines = carts.cart_lines(carts.cart_get_for_request(request))
    orders = _card_orders_awaiting(user=_customer(request), session_key=request.session.session_key or "")
    return [KioskOrderHeld(order=order, reference=order_kiosk_reference(order),
                           of_cart=bool(lines) and _holds_lines(order, lines))
            for order in sorted(orders, key=lambda order: order.created_at) if order_awaits_kiosk_cash(order)]


def kiosk_order_cancel(*, request: HttpRequest | Request, number: str) -> Order:
    """Cancel, at its customer's word, this visitor's order `number` that awaits cash at a kiosk (to pay another
    way); return it as it now is. Paymob is asked first: one paid at the outlet meanwhile is
    recorded and kept. Its stock and coupon use come back at once; no e-mail (they are on the page).
    A 404 CheckoutError when this visitor has no such order."""
    order = _awaiting_orders_of(user=_customer(request), session_key=request.session.session_key or "").filter(
        number=number).first()
    if order is None or not order_awaits_kiosk_cash(order):
        raise CheckoutError(_("Order not found"), status=404, code="not_found")
    # outside any transaction: the provider is an outside service (shop.outbound)
    _awaiting_payments_ask(order)  # one paid meanwhile is kept; one Paymob cannot answer about is cancelled as asked
    order_expire_unpaid(order=order, note=notes.CANCELLED_FOR_ANOTHER_WAY,
                        notify=False)
    order.refresh_from_db()
    return order


def _card_payments_ask(*, lines: Sequence[tuple[Product, int]], user: User | None,
                       session_key: str) -> set[int]:
    """Ask the provider about this visitor's card orders of exactly `lines` before they are replaced by a
    cash-on-delivery order: one paid meanwhile is recorded (and the cart it paid for emptied), not cancelled.
    Return the ids of those it could not be asked about (down, slow, garbage): it has not said "not paid",
    so they are kept (_unpayable_orders_cancel). Outside any transaction: the provider is an outside service
    (shop.outbound)."""
    return {order.pk for order in _card_orders_awaiting(user=user, session_key=session_key, lines=lines)
            if not _awaiting_payments_ask(order)}


def _payment_start(request: HttpRequest | Request, payment: Payment) -> PaymentStart:
    return payment_start(payment=payment, return_url=site_url(request, reverse("orders:payment-success")),
                         notification_url=site_url(request, reverse("payment-callback-paymob")))


def cod_available(*, request: HttpRequest | Request, coupon_code: str = "", governorate: str = "",
                  country: str = "EGY") -> bool:
    """Whether cash on delivery can take this visitor's cart now, with the coupon, governorate and country
    they typed: what order_place checks (enabled, in Egypt, a governorate where couriers take cash, under
    the COD limit)."""
    store = store_settings_get()
    if not store.cod_enabled or country != "EGY" or not zone_for(governorate=governorate, store=store).cod:
        return False
    lines = carts.cart_lines(carts.cart_get_for_request(request))
    if not lines:
        return False
    coupon = None
    if coupon_code:
        try:
            coupon = coupon_check(code=coupon_code, subtotal=order_totals(lines=lines, store=store).subtotal)
        except ShopError:
            coupon = None
    totals = order_totals(lines=lines, coupon=coupon, payment_method=PaymentMethod.COD, store=store,
                          governorate=governorate)
    return cod_limit_exceeded(total=totals.total, store=store) is None
