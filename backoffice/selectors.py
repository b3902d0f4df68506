"""Reads shared by the dashboard's sections (constant query counts)."""

from decimal import Decimal
from functools import reduce
from operator import or_
from typing import Any

from django.db.models import Count, DecimalField, Exists, F, Max, OuterRef, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce, Lower, NullIf
from django.utils.translation import get_language

from accounts.models import User
from catalog.models import Product
from catalog.pricing import Availability
from catalog.search import search_terms
from orders.models import (
    BuyerActivity,
    Coupon,
    Order,
    OrderStatus,
    PaymentStatus,
    amount_kept,
    cash_collected_then_cancelled,
)
from shop.models import ContactMessage, ContactMessageStatus

# Orders that brought money in: paid online or cash on delivery, not cancelled, not test orders
# (what they brought: orders.models.amount_kept, less any part refunded).
REAL_ORDER = (Q(payment_status__in=[PaymentStatus.PAID, PaymentStatus.COD]) & ~Q(status=OrderStatus.CANCELLED)
              & Q(is_test=False))
_MONEY = DecimalField(max_digits=14, decimal_places=2)


def customer_list() -> QuerySet[User]:
    """Customers with their order count and money spent on real orders."""
    real = Q(orders__payment_status__in=[PaymentStatus.PAID, PaymentStatus.COD]) & ~Q(
        orders__status=OrderStatus.CANCELLED) & Q(orders__is_test=False)
    return (
        User.objects.filter(is_staff=False)
        .annotate(
            total_orders=Count("orders", filter=real),
            total_spent=Coalesce(Sum(amount_kept("orders__"), filter=real), Value(Decimal("0")), output_field=_MONEY),
        )
        .order_by("-date_joined", "-pk")
    )


def dashboard_stats() -> dict[str, Any]:
    """The overview's numbers (spec 3 'Dashboard stats'), counts only."""
    orders = Order.objects.aggregate(
        total=Count("pk"),
        pending=Count("pk", filter=Q(status=OrderStatus.PENDING)),
        revenue=Coalesce(Sum(amount_kept(), filter=REAL_ORDER), Value(Decimal("0")), output_field=_MONEY),
        attention=Count("pk", filter=Q(needs_attention=True)),
        # paid, then cancelled, and not refunded yet: money to give back (or an order to restore); cash on
        # delivery too, cancelled once its cash was collected (flagged refund_due, given back by hand)
        captured_on_cancelled=Coalesce(
            Sum(amount_kept(), filter=(Q(status=OrderStatus.CANCELLED, payment_status=PaymentStatus.PAID)
                                       | cash_collected_then_cancelled()) & Q(is_test=False)),
            Value(Decimal("0")), output_field=_MONEY),
    )
    stock = stock_counts()
    return {
        "total_products": stock["total_products"],
        "total_orders": orders["total"],
        "pending_orders": orders["pending"],
        "total_revenue": orders["revenue"],
        "total_customers": User.objects.filter(is_staff=False).count(),
        "low_stock_products": stock["low_stock"],
        "out_of_stock_products": stock["out_of_stock"],
        "unread_messages": ContactMessage.objects.filter(status=ContactMessageStatus.NEW).count(),
        # orders flagged for staff: money captured on a cancelled order, or money returned to check
        "attention_orders": orders["attention"],
        "captured_on_cancelled": orders["captured_on_cancelled"],
    }


def stock_counts() -> dict[str, Any]:
    """Products in stock, low (1 to 10 left) and out (0): the one rule the overview and inventory share."""
    return Product.objects.aggregate(
        total_products=Count("pk"),
        total_units=Coalesce(Sum("stock"), 0),
        in_stock=Count("pk", filter=Availability.stock_filter("in")),
        low_stock=Count("pk", filter=Availability.stock_filter("low")),
        out_of_stock=Count("pk", filter=Availability.stock_filter("out")),
    )


def low_stock_products(*, limit: int = 5) -> list[Product]:
    """The products with the least stock (out or low), titles in the active language."""
    return list(Product.objects.filter(stock__lte=Availability.LOW_STOCK).order_by("stock", "title_en")
                .only("id", "title_en", "title_ar", "stock")[:limit])


def accounts_by_key() -> QuerySet[User]:
    """Customer accounts with their lower-cased e-mail as `key`; not empty ones, as the unique index on
    the lower-cased e-mail (user_email_unique_ci) says, so a lookup by key can use that index."""
    return User.objects.filter(is_staff=False).exclude(email="").annotate(key=Lower("email"))


def _person_matches(text: str, *, email: str) -> Q:
    """Rows (orders or accounts) whose e-mail column `email`, names or phone contain `text`."""
    return (Q(**{f"{email}__icontains": text}) | Q(first_name__icontains=text) | Q(last_name__icontains=text)
            | Q(phone__icontains=text))


def customers_by_email(*, search: str = "", kind: str = "") -> QuerySet[Any, tuple[Any, ...]]:
    """Everyone who bought or registered, one row per e-mail: guests and accounts alike.

    Orders count under their account's e-mail (or the e-mail typed at checkout
    for guests), `Order.buyer_key`; accounts with no order yet are added. Rows are
    (key, last_activity): the lower-cased e-mail and the latest order (or sign-up),
    newest first. They are read from `BuyerActivity` (one row per buyer, kept by
    the orders app) rather than by grouping every order: at 50,000 orders that
    grouping cost 30-90 ms per request (bench/dashboard.py). A search finds a
    buyer by any order's e-mail, names or phone, or by their account's (which the
    row shows), grouping their orders. Who they are and what they spent is `buyer_details(keys)`,
    asked for one page's rows. `kind` is "guest", "registered" or "".
    """
    text = (search or "").strip()
    if text:
        # the row shows the account's names and phone over the orders' (buyer_details): both are searched
        matching_accounts = accounts_by_key().filter(_person_matches(text, email="email")).values("key")
        buyers = (Order.objects.filter(_person_matches(text, email="buyer_key") | Q(buyer_key__in=matching_accounts))
                  .values("buyer_key").annotate(key=F("buyer_key"), last_activity=Max("created_at"))
                  .values_list("key", "last_activity").order_by())
    else:
        buyers = BuyerActivity.objects.annotate(last_activity=F("last_order_at")).values_list(
            "key", "last_activity").order_by()
    if kind == "guest":
        return buyers.exclude(key__in=accounts_by_key().values("key")).order_by("-last_activity", "key")
    if kind == "registered":
        buyers = buyers.filter(key__in=accounts_by_key().values("key"))
    # one probe of the buyers' index per account
    accounts = User.objects.filter(is_staff=False).annotate(key=Lower("email")).filter(
        ~Exists(BuyerActivity.objects.filter(key=OuterRef("key"))))
    if text:
        accounts = accounts.filter(_person_matches(text, email="email"))
    without_orders = accounts.values_list("key", "date_joined").order_by()
    return buyers.union(without_orders, all=True).order_by("-last_activity", "key")


def buyer_details(keys: list[str]) -> dict[str, dict[str, Any]]:
    """Who is behind each lower-cased e-mail of `keys` (a page of the directory) and what they
    bought, in two queries by index: the account (`user_id`, `is_active`; None for a guest), the
    names and phone (the account's, else the ones the orders carry), and the count and sum of
    their real orders (as on the overview)."""
    accounts = {row["key"]: row for row in accounts_by_key().filter(key__in=keys).values(
        "key", "pk", "first_name", "last_name", "phone", "is_active")}
    bought = {row["buyer_key"]: row for row in Order.objects.filter(buyer_key__in=keys).values("buyer_key").annotate(
        first=Max("first_name"), last=Max("last_name"), tel=Max("phone"),
        total_orders=Count("pk", filter=REAL_ORDER),
        total_spent=Coalesce(Sum(amount_kept(), filter=REAL_ORDER), Value(Decimal("0")), output_field=_MONEY),
    ).order_by()}
    details = {}
    for key in keys:
        account, orders = accounts.get(key, {}), bought.get(key, {})
        details[key] = {"user_id": account.get("pk"), "is_active": account.get("is_active"),
                        "first_name": account.get("first_name") or orders.get("first") or "",
                        "last_name": account.get("last_name") or orders.get("last") or "",
                        "phone": account.get("phone") or orders.get("tel") or "",
                        "total_orders": orders.get("total_orders", 0),
                        "total_spent": orders.get("total_spent", Decimal("0"))}
    return details


_LISTS = {"tags", "tags_ar", "flavor_notes", "flavor_notes_ar", "ingredients", "ingredients_ar"}


def _blank(name: str) -> Q:
    """No text: NULL, "" for a text column, [] for a list."""
    return Q(**{f"{name}__isnull": True}) | Q(**{name: [] if name in _LISTS else ""})


# Product.arabic_missing in SQL: a field with English text and no Arabic twin
_ARABIC_PAIRS = [("title_en", "title_ar"), ("short_description_en", "short_description_ar"),
                 ("description_en", "description_ar"), ("brewing_instructions_en", "brewing_instructions_ar"),
                 ("tags", "tags_ar"), ("flavor_notes", "flavor_notes_ar"), ("ingredients", "ingredients_ar")]


def _missing(english: str, arabic: str) -> Q:
    return ~_blank(english) & _blank(arabic)


ARABIC_MISSING = {
    "title": _missing("title_en", "title_ar"),
    "any": reduce(or_, (_missing(english, arabic) for english, arabic in _ARABIC_PAIRS)),
    "imported": ~Q(source_url="") & _missing("title_en", "title_ar"),
}
# the products table's columns staff may sort by; the default is newest first
PRODUCT_SORTS = ("title", "category", "price", "stock")


def _product_order(sort: str) -> list[Any]:
    key = sort.removeprefix("-")
    if key not in PRODUCT_SORTS:
        return ["-created_at", "-pk"]
    arabic = get_language() == "ar"  # the name the table shows: the Arabic one when there is one
    column = {
        "title": Coalesce(NullIf("title_ar", Value("")), "title_en") if arabic else "title_en",
        "category": Coalesce(NullIf("category__name_ar", Value("")), "category__name_en") if arabic
        else "category__name_en",
        "price": "price_amount",
        "stock": "stock",
    }[key]
    expression = F(column) if isinstance(column, str) else column
    return [expression.desc() if sort.startswith("-") else expression.asc(), "-pk"]


def product_admin_list(*, search: str = "", category: str = "", arabic: str = "",
                       sort: str = "") -> QuerySet[Product]:
    """The dashboard's products table: searched (both languages, slug, tags), filtered by category
    and by what is still to write in Arabic, sorted by a column or newest first. Unknown values are ignored."""
    products = Product.objects.select_related("category")
    for term in search_terms(search):
        products = products.filter(Q(search_text__contains=term) | Q(title_en__icontains=term)
                                   | Q(title_ar__icontains=term) | Q(slug__icontains=term))
    if category:
        products = products.filter(category__slug=category)
    if arabic in ARABIC_MISSING:
        products = products.filter(ARABIC_MISSING[arabic])
    return products.order_by(*_product_order(sort))


def product_admin_counts() -> dict[str, int]:
    """How many products there are, and how many lack Arabic text (the Arabic filter's counts)."""
    return Product.objects.aggregate(
        all=Count("pk"), **{f"arabic_{name}": Count("pk", filter=condition)
                            for name, condition in ARABIC_MISSING.items()})


def coupon_orders(*, coupon: Coupon) -> QuerySet[Order]:
    """The orders that used `coupon`, newest first (by the link, or by the code when it was lost)."""
    return Order.objects.filter(Q(coupon=coupon) | Q(coupon__isnull=True, coupon_code=coupon.code)).order_by(
        "-created_at", "-pk")
