from collections.abc import Iterable
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Max, OuterRef, Subquery
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Coalesce, Lower
from django.db.models.lookups import Exact
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.user_cache import user_changed
from catalog.models import Product
from orders.signals import sales_written


class Cart(models.Model):
    """A server-side cart: one per session for guests, one per customer."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="cart"
    )
    session_key = models.CharField(max_length=64, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)
    # moved on by every change to the cart's lines: a write computed from the lines it read lands only
    # if the version is still the one it read (orders.cart)
    version = models.PositiveIntegerField(default=0, editable=False)
    # abandoned-cart reminder (orders.reminders): a guest's opt-in at checkout, in the page's language;
    # signed-in customers opt in on their account (User.cart_reminders)
    reminder_email = models.EmailField(blank=True)
    reminder_opt_in = models.BooleanField(default=False)
    reminder_language = models.CharField(max_length=8, blank=True)
    reminder_base_url = models.CharField(max_length=500, blank=True)
    # the one reminder this cart got; cleared when an order empties the cart (a new cart begins)
    reminder_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # a guest's one cart: two first writes at once (two tabs) land in the same cart (orders.cart)
            models.UniqueConstraint(fields=["session_key"], condition=models.Q(user__isnull=True),
                                    name="cart_one_per_guest_session"),
        ]

    def __str__(self) -> str:
        return f"Cart {self.pk}"


class CartLine(models.Model):
    """A product and a quantity; the price is always read from the catalogue."""

    cart = models.ForeignKey(Cart, on_delete=models.CASCADE, related_name="lines")
    product = models.ForeignKey(Product, on_delete=models.CASCADE)
    quantity = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    # the line's place in the cart's list (lowest first): a new line goes last, a line put back by Undo
    # where it was (orders.cart); distinct within a cart
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["cart", "product"], name="cart_line_unique_product"),
            models.CheckConstraint(condition=models.Q(quantity__gte=1), name="cart_line_quantity_positive"),
        ]


class CouponType(models.TextChoices):
    PERCENTAGE = "percentage", _("Percentage")
    FIXED = "fixed", _("Fixed amount")


class Coupon(models.Model):
    code = models.CharField(max_length=40, unique=True)  # stored upper case
    type = models.CharField(max_length=12, choices=CouponType.choices)
    value = models.DecimalField(
        max_digits=12, decimal_places=2, validators=[MinValueValidator(Decimal("0.01"))]
    )
    minimum_order_amount = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal("0"))
    expiry_date = models.DateTimeField(null=True, blank=True)
    usage_limit = models.PositiveIntegerField(null=True, blank=True)  # null: unlimited
    used_count = models.PositiveIntegerField(default=0)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(usage_limit__isnull=True) | models.Q(used_count__lte=models.F("usage_limit")),
                name="coupon_used_within_limit",
            ),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.code = self.code.strip().upper()
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return self.code


class OrderStatus(models.TextChoices):
    PENDING = "pending", _("Pending")  # placed, not yet paid or confirmed
    PROCESSING = "processing", _("Processing")  # paid or COD-confirmed, being packed
    SHIPPED = "shipped", _("Shipped")
    DELIVERED = "delivered", _("Delivered")
    CANCELLED = "cancelled", _("Cancelled")  # stock released


class PaymentStatus(models.TextChoices):
    AWAITING = "awaiting", _("Awaiting payment")
    PAID = "paid", _("Paid")
    FAILED = "failed", _("Failed")
    REFUNDED = "refunded", _("Refunded")
    COD = "cod", _("Cash on delivery")


class PaymentMethod(models.TextChoices):
    CARD = "card", _("Card")
    COD = "cod", _("Cash on Delivery")
    SANDBOX = "sandbox", _("Test payment")


# the order fields the buyer's key is made of, and the ones that move a buyer in the directory
BUYER_KEY_FIELDS = frozenset({"email", "user", "user_id"})
BUYER_FIELDS = BUYER_KEY_FIELDS | {"created_at"}


def _buyer_key() -> Coalesce:
    """An order's buyer in the customer directory: its account's e-mail, else the one typed at
    checkout, lower-cased by the database (as the index of accounts' e-mails lowers them)."""
    users = Order._meta.get_field("user").related_model._default_manager
    return Coalesce(Lower(Subquery(users.filter(pk=OuterRef("user_id")).values("email")[:1])), Lower("email"))


def buyer_activity_refresh(keys: Iterable[str]) -> None:
    """Write the latest order of each buyer of `keys` again from the orders, or drop a buyer with none left."""
    wanted = set(keys)
    if not wanted:
        return
    latest = dict(Order.objects.filter(buyer_key__in=wanted).values("buyer_key").annotate(last=Max("created_at"))
                  .values_list("buyer_key", "last").order_by())
    if wanted - latest.keys():
        BuyerActivity.objects.filter(key__in=wanted - latest.keys()).delete()
    if latest:
        BuyerActivity.objects.bulk_create([BuyerActivity(key=key, last_order_at=last) for key, last in latest.items()],
                                          update_conflicts=True, unique_fields=["key"],
                                          update_fields=["last_order_at"])


def buyers_rewrite(order_ids: Iterable[int], old_keys: Iterable[str] = ()) -> dict[int, str]:
    """After a write of some orders' e-mail, account or date: their buyer keys again (one UPDATE), and
    the buyers they left (`old_keys`) and joined. Answers each order's key."""
    ids = list(order_ids)
    if not ids:
        return {}
    orders = Order.objects.filter(pk__in=ids)
    models.QuerySet.update(orders, buyer_key=_buyer_key())
    keys: dict[int, str] = dict(orders.values_list("pk", "buyer_key"))
    buyer_activity_refresh({*old_keys, *keys.values()})
    return keys


class OrderQuerySet(models.QuerySet["Order"]):
    """Bulk writes keep two things exact. `Order.buyer_key` and `BuyerActivity`: an UPDATE or bulk
    update of an e-mail, an account or a date, and every bulk insert, rewrite the buyers of the
    orders touched. The sales figures cache: every write reports the dates of the orders it
    touched (signals.sales_written; with the model's save and delete, the one place it hears
    about changes)."""

    def update(self, **kwargs: Any) -> int:
        # read first: the update may change which rows the filter matches
        rows = list(self.values_list("pk", "buyer_key", "created_at", "user_id"))
        count = super().update(**kwargs)
        # their customers: what the storefront keeps for them (accounts.user_cache: the products
        # they may review, their last governorate) is read again, also by a customer they move to
        moved_to = kwargs.get("user_id", getattr(kwargs.get("user"), "pk", None))
        # an expression (bulk_update's Case) names no one: bulk_update reports its objects' customers
        user_changed([*(user_id for *_rest, user_id in rows), moved_to if isinstance(moved_to, int) else None])
        if BUYER_FIELDS & kwargs.keys():
            before = {pk: key for pk, key, _placed, _user in rows}
            buyers_rewrite(before, before.values())
        if count:
            placed: list[datetime] | None = [placed_at for _pk, _key, placed_at, _user in rows]
            if "created_at" in kwargs:  # moved: the new date counts too
                moved = kwargs["created_at"]
                placed = [*placed, moved] if isinstance(moved, datetime) and placed is not None else None
            _sales_written(placed)
        return count

    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> list["Order"]:
        created = super().bulk_create(objs, *args, **kwargs)
        ids = [order.pk for order in created]
        if not all(ids):  # a database that does not answer the new keys: every order without a buyer yet
            ids = list(Order.objects.filter(buyer_key="").values_list("pk", flat=True))
        keys = buyers_rewrite(ids)
        for order in created:
            order.buyer_key = keys.get(order.pk, order.buyer_key)
        user_changed(order.user_id for order in created)
        # an upsert may have rewritten rows whose dates the objects do not carry
        _sales_written(None if kwargs.get("update_conflicts") else [order.created_at for order in created])
        return created

    def bulk_update(self, objs: Any, fields: Any, *args: Any, **kwargs: Any) -> int:
        objs = list(objs)
        owners = list(Order.objects.filter(pk__in=[order.pk for order in objs]).values_list("user_id", flat=True))
        user_changed([*owners, *(order.user_id for order in objs)])
        if not BUYER_FIELDS & set(fields):
            return super().bulk_update(objs, fields, *args, **kwargs)
        before = dict(Order.objects.filter(pk__in=[order.pk for order in objs]).values_list("pk", "buyer_key"))
        count = super().bulk_update(objs, fields, *args, **kwargs)
        buyers_rewrite(before, before.values())
        return count

    def delete(self) -> tuple[int, dict[str, int]]:
        placed = list(self.values_list("created_at", flat=True))
        deleted = super().delete()
        _sales_written(placed)
        return deleted


def _sales_written(placed: list[datetime] | None) -> None:
    if placed != []:
        sales_written.send(sender=Order, placed=placed)


def _placed_of(order_ids: Iterable[int | None]) -> list[datetime]:
    ids = {pk for pk in order_ids if pk is not None}
    return list(Order.objects.filter(pk__in=ids).values_list("created_at", flat=True)) if ids else []


def amount_kept(prefix: str = "") -> CombinedExpression:
    """What an order brought in, for revenue: its total less what was refunded of it (`prefix`: the
    path to the order, e.g. "orders__")."""
    return models.F(f"{prefix}total_amount") - models.F(f"{prefix}refunded_amount")


def cash_collected_then_cancelled() -> models.Q:
    """Orders cancelled after the courier collected their cash: cash on delivery, not refunded in full, and
    cancelled from delivered (its last move to cancelled; one moved back from delivered first was not
    collected). In one query for any number of orders: orders.actions.order_cash_collected for a set."""
    cancelled_from = (OrderStatusChange.objects.filter(order=OuterRef("pk"), to_status=OrderStatus.CANCELLED)
                      .exclude(from_status=OrderStatus.CANCELLED).order_by("-pk").values("from_status")[:1])
    return (models.Q(status=OrderStatus.CANCELLED, payment_method=PaymentMethod.COD,
                     payment_status=PaymentStatus.COD)
            & models.Q(Exact(Subquery(cancelled_from), OrderStatus.DELIVERED)))


# what each reason an order is flagged with (orders.actions._order_flag) means, for staff reading it outside
# the dashboard (the orders CSV); the dashboard's own longer texts, with what to do, are in admin-orders.json
ATTENTION_REASONS = {
    "paid_after_cancel": _("Paid after the order expired and was cancelled"),
    "paid_after_decline": _("Paid after the card was declined and the order cancelled"),
    "refund_due": _("Cancelled after it was paid: refund due"),
    "refunded_unshipped": _("All of its payment was refunded in Paymob before it shipped"),
    "refund_to_check": _("Paymob reports money returned that does not match this order's payment"),
    "paid_twice": _("Paid twice in Paymob (two payments for one order)"),
    "amount_to_check": _("Paymob reports a payment of another amount or currency than this order's"),
    "pending_after_cancel": _("A kiosk reference (Aman, Masary) was taken after the order was cancelled"),
    "paid_after_replaced": _("Paid by card after a cash-on-delivery order of the same items replaced it"),
}


def attention_reason_text(reason: str) -> str:
    """`reason` in the active language; one this version does not know, as it is stored."""
    return str(ATTENTION_REASONS.get(reason, reason))


class Order(models.Model):
    objects = OrderQuerySet.as_manager()
    number = models.CharField(max_length=32, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="orders"
    )
    # the session that placed it, so /thankyou shows it to that visitor only
    session_key = models.CharField(max_length=64, blank=True)
    language = models.CharField(max_length=8, default="en")
    status = models.CharField(max_length=12, choices=OrderStatus.choices, default=OrderStatus.PENDING)
    payment_status = models.CharField(
        max_length=10, choices=PaymentStatus.choices, default=PaymentStatus.AWAITING
    )
    payment_method = models.CharField(max_length=10, choices=PaymentMethod.choices)
    # contact and billing address, as entered at checkout
    email = models.EmailField()
    first_name = models.CharField(max_length=120)  # shop.validation.NAME_MAX
    last_name = models.CharField(max_length=120)
    phone = models.CharField(max_length=32)
    street = models.CharField(max_length=200)
    building = models.CharField(max_length=50, blank=True)
    apartment = models.CharField(max_length=50, blank=True)
    floor = models.CharField(max_length=20, blank=True)
    city = models.CharField(max_length=200)  # shop.validation.LINE_MAX
    state = models.CharField(max_length=100)
    postal_code = models.CharField(max_length=20, blank=True)
    country = models.CharField(max_length=3, default="EGY")
    # totals, computed by orders.calculations at placing time
    subtotal_amount = models.DecimalField(max_digits=12, decimal_places=2)
    discount_amount = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal("0"))
    shipping_amount = models.DecimalField(max_digits=12, decimal_places=2)
    cod_fee_amount = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal("0"))
    tax_amount = models.DecimalField(max_digits=12, decimal_places=2)
    total_amount = models.DecimalField(max_digits=12, decimal_places=2)
    # returned through the payment provider (orders.payments.services): part of a paid order, or all of it
    refunded_amount = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal("0"))
    prices_include_tax = models.BooleanField(default=True)
    coupon = models.ForeignKey(Coupon, on_delete=models.SET_NULL, null=True, blank=True)
    coupon_code = models.CharField(max_length=40, blank=True)
    # true while the order holds stock; released on cancel/failed payment
    stock_reserved = models.BooleanField(default=False)
    # the address that placed it, for the limit on unpaid orders per address
    client_ip = models.GenericIPAddressField(null=True, blank=True)
    # paid through the local test page: never real money, never revenue
    is_test = models.BooleanField(default=False)
    # flagged for staff (orders.actions._order_flag): every reason still open, oldest first, e.g.
    # "refund_to_check" and "refund_due"; a later flag never replaces an earlier one. `needs_attention` is
    # whether any is open (the list's filter and the overview's count read it)
    needs_attention = models.BooleanField(default=False, db_index=True)
    attention_reasons = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    paid_at = models.DateTimeField(null=True, blank=True)
    # the delivery window promised at checkout (orders/delivery.py), in working days from placing
    delivery_min_date = models.DateField(null=True, blank=True)
    delivery_max_date = models.DateField(null=True, blank=True)
    # the customer asked for order updates by WhatsApp at checkout
    whatsapp_opt_in = models.BooleanField(default=False)
    # the shop's address the order was placed on, for links in later e-mails when SITE_URL is unset
    site_url = models.CharField(max_length=200, blank=True)
    # the customer directory's row this order counts in (backoffice.selectors.customers_by_email): the
    # account's e-mail, else the typed one, lower-cased. Written by the database after every write of
    # the e-mail or the account (Order.save, OrderQuerySet, an account's e-mail change or deletion:
    # orders.apps), with the buyer's BuyerActivity row; a page's totals are summed by this index.
    buyer_key = models.CharField(max_length=254, blank=True, default="", editable=False)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # analytics sums a year of orders by these columns: read from the index alone, not row by row
            models.Index(fields=["created_at", "payment_status", "status", "is_test", "total_amount",
                                 "refunded_amount"], name="order_sales_by_date"),
            # the customer directory groups by buyer and sums from the index alone
            models.Index(fields=["buyer_key", "created_at", "payment_status", "status", "is_test", "total_amount",
                                 "refunded_amount"], name="order_buyer_totals"),
        ]

    def __str__(self) -> str:
        return self.number

    def save(self, *args: Any, **kwargs: Any) -> None:
        update_fields = kwargs.get("update_fields")
        old_key = "" if self._state.adding else self.buyer_key  # as read, or as the last save left it
        placed = [self.created_at]
        if not self._state.adding and (update_fields is None or "created_at" in update_fields):
            # the order may be moving to another day: the day it leaves counts too
            placed += Order.objects.filter(pk=self.pk).values_list("created_at", flat=True)
        super().save(*args, **kwargs)
        if update_fields is None or BUYER_FIELDS & set(update_fields):
            self.buyer_key = buyers_rewrite([self.pk], [old_key] if old_key else [])[self.pk]
        _sales_written(placed)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        placed = [self.created_at]
        deleted = super().delete(*args, **kwargs)
        _sales_written(placed)
        return deleted

    @property
    def customer_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def attention_reason(self) -> str:
        """The latest reason still open ("" when none): what the API's `attentionReason` always named."""
        return self.attention_reasons[-1] if self.attention_reasons else ""


class BuyerActivity(models.Model):
    """One row per buyer (`Order.buyer_key`) with their latest order: the customer directory's rows
    in their order, so its first page and total read ~6,000 rows by an index instead of grouping
    50,000 orders. Exact by construction: every write that can move a buyer (a new or deleted order,
    an order's e-mail, account or date, an account's e-mail or deletion) rewrites that buyer's row
    from the orders (`buyers_rewrite`, `buyer_activity_refresh`; wired in OrderQuerySet, Order.save
    and orders.apps)."""

    key = models.CharField(max_length=254, unique=True)
    last_order_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["-last_order_at", "key"], name="buyer_latest_first")]

    def __str__(self) -> str:
        return self.key


class OrderItemQuerySet(models.QuerySet["OrderItem"]):
    """Every write reports the dates of the items' orders (signals.sales_written), as Order's do."""

    def update(self, **kwargs: Any) -> int:
        placed: list[datetime] | None = _placed_of(self.values_list("order_id", flat=True))
        count = super().update(**kwargs)
        if count:
            moved = kwargs.get("order", kwargs.get("order_id"))
            if moved is not None:  # items moved to another order: its date counts too
                moved_id = moved.pk if isinstance(moved, Order) else moved
                placed = [*placed, *_placed_of([moved_id])] if isinstance(moved_id, int) and placed else None
            _sales_written(placed)
        return count

    def bulk_create(self, objs: Iterable["OrderItem"], *args: Any, **kwargs: Any) -> list["OrderItem"]:
        created = super().bulk_create(objs, *args, **kwargs)
        _sales_written(None if kwargs.get("update_conflicts") else _placed_of_items(created))
        return created

    def delete(self) -> tuple[int, dict[str, int]]:
        placed = _placed_of(self.values_list("order_id", flat=True))
        deleted = super().delete()
        _sales_written(placed)
        return deleted


def _placed_of_items(items: Iterable["OrderItem"]) -> list[datetime]:
    """The dates of the items' orders: from the order the item holds, else read."""
    placed, unread = [], []
    for item in items:
        if OrderItem.order.is_cached(item):
            placed.append(item.order.created_at)
        else:
            unread.append(item.order_id)
    return placed + _placed_of(unread)


class OrderItem(models.Model):
    """A line as it was bought: title and price are snapshots, not links."""

    objects = OrderItemQuerySet.as_manager()

    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="items")
    product = models.ForeignKey(Product, on_delete=models.SET_NULL, null=True)
    product_title = models.CharField(max_length=200)
    product_slug = models.CharField(max_length=200)
    unit_price_amount = models.DecimalField(max_digits=12, decimal_places=2)
    quantity = models.PositiveIntegerField()
    line_total_amount = models.DecimalField(max_digits=12, decimal_places=2)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(quantity__gte=1), name="order_item_quantity_positive")
        ]
        indexes = [
            # analytics sums the items of a year's orders per product: read from the index alone
            models.Index(fields=["order", "product", "quantity", "line_total_amount"], name="order_item_sales"),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        order_ids = [self.order_id]
        update_fields = kwargs.get("update_fields")
        if not self._state.adding and (update_fields is None or "order" in update_fields):
            # the item may be moving to another order: the one it leaves counts too
            order_ids += OrderItem.objects.filter(pk=self.pk).values_list("order_id", flat=True)
        super().save(*args, **kwargs)
        _sales_written(_placed_of_items([self]) + _placed_of(order_ids[1:]))

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        placed = _placed_of_items([self])
        deleted = super().delete(*args, **kwargs)
        _sales_written(placed)
        return deleted


class OrderStatusChange(models.Model):
    """The history of an order's status, for the order detail screen."""

    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="status_changes")
    from_status = models.CharField(max_length=12, blank=True)
    to_status = models.CharField(max_length=12)
    note = models.CharField(max_length=300, blank=True)
    # the carrier's tracking number, given when the order is marked shipped
    tracking_number = models.CharField(max_length=100, blank=True)
    # at shipped: the courier and a note for the customer (tracking page, e-mail, WhatsApp)
    courier = models.CharField(max_length=100, blank=True)
    customer_note = models.CharField(max_length=300, blank=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at"]


class Payment(models.Model):
    """One attempt to pay for an order through a provider."""

    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="payments")
    provider = models.CharField(max_length=20)  # paymob | sandbox | cod
    # our id for the attempt, shown to the customer and used in return URLs
    payment_id = models.CharField(max_length=100, unique=True)
    # the provider's order id (Paymob intention_order_id), signed in callbacks
    provider_order_id = models.CharField(max_length=100, blank=True, db_index=True)
    # the provider's transaction id once known
    transaction_id = models.CharField(max_length=100, blank=True)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    currency = models.CharField(max_length=3, default="EGP")
    status = models.CharField(max_length=10, choices=PaymentStatus.choices, default=PaymentStatus.AWAITING)
    redirect_url = models.URLField(max_length=1000, blank=True)
    # the numeric integration ids the provider made the attempt for (Paymob's intention answer, as
    # strings): its callbacks must name one of them when the integrations are configured by name. The
    # database's own default too: a process of the release before (a rolling upgrade) inserts without it
    integration_ids = models.JSONField(default=list, db_default=[], blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.payment_id


class PaymentEvent(models.Model):
    """Every callback or status query we received, kept raw for audit and replay."""

    payment = models.ForeignKey(Payment, on_delete=models.CASCADE, related_name="events", null=True)
    kind = models.CharField(max_length=30)  # callback | redirect | inquiry
    transaction_id = models.CharField(max_length=100, blank=True)
    success = models.BooleanField(null=True)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "transaction_id"],
                condition=~models.Q(transaction_id=""),
                name="payment_event_once_per_transaction",
            )
        ]
