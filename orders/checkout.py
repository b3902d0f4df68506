"""Placing an order: validate the form, then one transaction that recomputes
every amount, takes the stock, counts the coupon and snapshots the lines."""

import re
import secrets
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from orders.calculations import order_totals
from orders.models import Coupon, Order, OrderItem, OrderStatusChange, PaymentMethod
from orders.stock import stock_reserve
from shop.api.errors import camel_case
from shop.money import quantize
from shop.store_settings import store_settings_get
from shop.errors import ShopError

COUNTRIES = [
    ("EGY", gettext_lazy("Egypt")), ("SAU", gettext_lazy("Saudi Arabia")), ("ARE", gettext_lazy("UAE")),
    ("JOR", gettext_lazy("Jordan")), ("LBN", gettext_lazy("Lebanon")), ("KWT", gettext_lazy("Kuwait")),
    ("QAT", gettext_lazy("Qatar")), ("BHR", gettext_lazy("Bahrain")), ("OMN", gettext_lazy("Oman")),
]
# Egypt's 27 governorates: the English name is what we store.
GOVERNORATES = [
    ("Alexandria", "الإسكندرية"), ("Aswan", "أسوان"), ("Assiut", "أسيوط"), ("Beheira", "البحيرة"),
    ("Beni Suef", "بني سويف"), ("Cairo", "القاهرة"), ("Dakahlia", "الدقهلية"), ("Damietta", "دمياط"),
    ("Fayoum", "الفيوم"), ("Gharbia", "الغربية"), ("Giza", "الجيزة"), ("Ismailia", "الإسماعيلية"),
    ("Kafr El Sheikh", "كفر الشيخ"), ("Luxor", "الأقصر"), ("Matrouh", "مطروح"), ("Minya", "المنيا"),
    ("Monufia", "المنوفية"), ("New Valley", "الوادي الجديد"), ("North Sinai", "شمال سيناء"),
    ("Port Said", "بورسعيد"), ("Qalyubia", "القليوبية"), ("Qena", "قنا"), ("Red Sea", "البحر الأحمر"),
    ("Sharqia", "الشرقية"), ("Sohag", "سوهاج"), ("South Sinai", "جنوب سيناء"), ("Suez", "السويس"),
]
_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹", "01234567890123456789")
PASSWORD_MIN = 8


class CheckoutError(ShopError):
    """A problem the customer can fix; `message` is the spec's text."""


def western_digits(text):
    """Eastern Arabic (and Persian) digits to 0-9, as we store them."""
    return (text or "").translate(_DIGITS)


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
    password: str = ""
    confirm_password: str = ""


def _clean(value):
    return str(value or "").strip()


def checkout_validate(data, *, user=None):
    """Check a checkout form (a dict of snake_case fields); return a CheckoutForm.

    Signed-in customers keep the name and e-mail of their account.
    """
    form = CheckoutForm(
        email=_clean(data.get("email")).lower(), first_name=_clean(data.get("first_name")),
        last_name=_clean(data.get("last_name")), phone=western_digits(_clean(data.get("phone"))),
        street=_clean(data.get("street")), city=_clean(data.get("city")), state=_clean(data.get("state")),
        country=_clean(data.get("country")).upper() or "EGY", building=_clean(data.get("building")),
        apartment=_clean(data.get("apartment")), floor=western_digits(_clean(data.get("floor"))),
        postal_code=western_digits(_clean(data.get("postal_code"))),
        payment_method=_clean(data.get("payment_method")) or PaymentMethod.CARD,
        coupon_code=_clean(data.get("coupon_code")).upper(),
        create_account=bool(data.get("create_account")), password=str(data.get("password") or ""),
        confirm_password=str(data.get("confirm_password") or ""),
    )
    if user is not None and user.is_authenticated:
        form.email = user.email
        form.first_name = user.first_name or form.first_name
        form.last_name = user.last_name or form.last_name
        form.create_account = False
    required = _("Please fill in all required fields")
    for name in ("email", "first_name", "last_name", "phone"):
        if not getattr(form, name):
            raise CheckoutError(required, field=camel_case(name))
    try:
        validate_email(form.email)
    except ValidationError:
        raise CheckoutError(_("Please enter a valid email address"), field="email") from None
    from accounts.services import phone_is_valid, phone_normalize  # one phone rule for the shop

    local_abroad = form.country != "EGY" and re.fullmatch(r"\d{7,15}", phone_normalize(form.phone))
    if not (phone_is_valid(form.phone) or local_abroad):
        raise CheckoutError(_("Please enter a valid phone number"), field="phone")
    form.phone = phone_normalize(form.phone)
    if not (form.street and form.city and form.state):
        missing = next(n for n in ("street", "city", "state") if not getattr(form, n))
        raise CheckoutError(_("Please fill in your billing address"), field=missing)
    if form.country not in dict(COUNTRIES):
        raise CheckoutError(_("Please choose a country from the list"), field="country")
    if form.country == "EGY":
        names = {en: en for en, _ar in GOVERNORATES} | {ar: en for en, ar in GOVERNORATES}
        if form.state not in names:
            raise CheckoutError(_("Please choose a governorate from the list"), field="state")
        form.state = names[form.state]
    if form.postal_code and not re.fullmatch(r"[0-9A-Za-z \-]{3,10}", form.postal_code):
        raise CheckoutError(_("Please enter a valid postal code"), field="postalCode")
    if form.payment_method not in PaymentMethod.values:
        raise CheckoutError(_("Please choose a payment method"), field="paymentMethod")
    if form.create_account:
        if len(form.password) < PASSWORD_MIN:
            raise CheckoutError(_("Password must be at least 8 characters long"), field="password")
        if form.password != form.confirm_password:
            raise CheckoutError(_("Passwords do not match"), field="confirmPassword")
    return form


def coupon_check(*, code, subtotal):
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
        from shop.money import format_egp
        from django.utils.translation import get_language

        raise CheckoutError(
            _("This coupon needs an order of at least %(amount)s")
            % {"amount": format_egp(coupon.minimum_order_amount, get_language())},
            field="couponCode",
        )
    return coupon


def _coupon_use(coupon):
    """Count one use, atomically: fails once the limit is reached by anyone."""
    used = Coupon.objects.filter(pk=coupon.pk, is_active=True).filter(
        Q(usage_limit__isnull=True) | Q(used_count__lt=F("usage_limit"))
    ).update(used_count=F("used_count") + 1)
    if not used:
        raise CheckoutError(_("This coupon has reached its usage limit"), field="couponCode")


def _order_number():
    """A short number customers can read out on the phone: NHT-<yymmdd>-<6 hex>."""
    for _attempt in range(5):
        number = f"NHT-{timezone.now():%y%m%d}-{secrets.token_hex(3).upper()}"
        if not Order.objects.filter(number=number).exists():
            return number
    return f"NHT-{timezone.now():%y%m%d}-{secrets.token_hex(6).upper()}"


def order_place(*, lines, form, user=None, session_key="", language="en"):
    """Create a pending order for `lines` [(product, quantity)] from a CheckoutForm.

    One transaction: the prices, shipping, VAT, discount and COD fee are
    recomputed here; the stock is reserved (InsufficientStock names the short
    products); the coupon use is counted; the items are snapshots.
    """
    if not lines:
        raise CheckoutError(_("Your cart is empty"))
    store = store_settings_get()
    method = form.payment_method
    with transaction.atomic():
        # fresh rows: the cart's product objects may be stale
        from catalog.models import Product

        fresh = Product.objects.in_bulk([p.pk for p, _q in lines])
        lines = [(fresh[p.pk], q) for p, q in lines if p.pk in fresh]
        subtotal = order_totals(lines=lines, store=store).subtotal
        coupon = coupon_check(code=form.coupon_code, subtotal=subtotal) if form.coupon_code else None
        totals = order_totals(lines=lines, coupon=coupon, payment_method=method, store=store)
        if method == PaymentMethod.COD:
            if not store.cod_enabled:
                raise CheckoutError(_("Cash on delivery is not available"), field="paymentMethod")
            if store.cod_max_total is not None and totals.total > quantize(store.cod_max_total):
                from shop.money import format_egp

                raise CheckoutError(
                    _("Cash on delivery is available for orders up to %(amount)s")
                    % {"amount": format_egp(store.cod_max_total, language)},
                    field="paymentMethod",
                )
        stock_reserve(lines=[(p.pk, q) for p, q in lines])
        if coupon is not None:
            _coupon_use(coupon)
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
        )
        OrderItem.objects.bulk_create([
            OrderItem(
                order=order, product=row.product, product_title=row.product.title,
                product_slug=row.product.slug, unit_price_amount=row.unit_price,
                quantity=row.quantity, line_total_amount=row.line_total,
            )
            for row in totals.lines
        ])
        OrderStatusChange.objects.create(order=order, from_status="", to_status=order.status,
                                         note="Order placed")
    return order
