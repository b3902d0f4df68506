"""Abandoned-cart reminders: one opt-in e-mail a few hours after a shopper leaves a cart.

Who: a signed-in customer who turned reminders on in their account
(`User.cart_reminders`), or a guest who typed an e-mail at checkout and ticked
"Remind me" (`Cart.reminder_*`, `cart_reminder_opt_in`). When: the cart last
changed CART_REMINDER_DELAY_HOURS ago (and not more than
CART_REMINDER_MAX_AGE_DAYS ago). At most one per cart (`reminder_sent_at`,
cleared when an order empties the cart), and one a day per address however
many carts name it (a guest's address is typed, never confirmed); none once the shopper has bought
since (the order empties the cart, and an order by the same e-mail or
customer after the cart's last change suppresses it). Every e-mail has an
unsubscribe link and goes through the outbox in the recipient's language.
Beat runs `orders.tasks.cart_reminders_task`, which queues one job per cart
through `shop.queue.enqueue`.
"""

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import connection, transaction
from django.db.models import Q
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from rest_framework.request import Request

from accounts.models import User
from orders import cart as carts
from orders.models import Cart, Order
from shop.errors import ShopError
from shop.mail import mail_queue
from shop.store_settings import store_settings_get
from shop.validation import EMAIL_MAX, clean_text

logger = logging.getLogger(__name__)
_SALT = "orders.cart-reminder.unsubscribe"
# one address gets at most one reminder in this time, however many carts name it (a guest's address is
# typed, never confirmed: a script could fill carts in many sessions under a stranger's address)
ADDRESS_REMINDER_GAP = timedelta(days=1)


class ReminderError(ShopError):
    """An opt-in the shopper can correct."""


def cart_reminder_opt_in(*, request: HttpRequest | Request, email: object, opt_in: object, language: str = "en",
                         base_url: str = "") -> Cart | None:
    """Turn this visitor's reminder on (with the e-mail typed at checkout) or off. Signed-in: their account's choice."""
    user = request.user if request.user.is_authenticated else None
    if user is not None:
        user.cart_reminders = bool(opt_in)
        user.save(update_fields=["cart_reminders"])
    cart = carts.cart_get_for_request(request)
    if cart is None:
        if user is not None:
            return None
        raise ReminderError(_("Your cart is empty"), field="cart")
    email = clean_text(email, field="email", max_length=EMAIL_MAX).lower() if user is None else user.email
    if opt_in:
        try:
            validate_email(email)
        except ValidationError:
            raise ReminderError(_("Please enter a valid email address"), field="email") from None
    # update(), not save(): the reminder's clock counts from the cart's last real change
    Cart.objects.filter(pk=cart.pk).update(
        reminder_email=email if opt_in else cart.reminder_email, reminder_opt_in=bool(opt_in),
        reminder_language=language if language in ("en", "ar") else "en", reminder_base_url=(base_url or "")[:500],
    )
    return cart


def _recipient(cart: Cart) -> tuple[str, str] | None:
    """(e-mail, language) of whoever opted in for this cart, or None."""
    user = cart.user
    if user is not None:
        if user.cart_reminders and user.email and user.is_active:
            return user.email, (user.language if user.language in ("en", "ar") else "en")
        return None
    if cart.reminder_opt_in and cart.reminder_email:
        return cart.reminder_email, cart.reminder_language or "en"
    return None


def cart_reminders_due(*, now: datetime | None = None) -> list[int]:
    """Ids of carts whose one reminder is due now."""
    now = now or timezone.now()
    cutoff = now - timedelta(hours=settings.CART_REMINDER_DELAY_HOURS)
    oldest = now - timedelta(days=settings.CART_REMINDER_MAX_AGE_DAYS)
    opted_in = Q(user__isnull=False, user__cart_reminders=True) | Q(user__isnull=True, reminder_opt_in=True)
    return list(Cart.objects.filter(opted_in, reminder_sent_at__isnull=True, updated_at__lte=cutoff,
                                    updated_at__gte=oldest, lines__isnull=False)
                .distinct().order_by("pk").values_list("pk", flat=True))


def _address_reminded_since(*, email: str, since: datetime, other_than: Cart) -> bool:
    """Whether another cart's reminder went to `email` since `since` (a guest's typed address or a customer's)."""
    to_email = Q(user__isnull=True, reminder_email__iexact=email) | Q(user__email__iexact=email)
    return Cart.objects.filter(to_email, reminder_sent_at__gte=since).exclude(pk=other_than.pk).exists()


def _address_lock(email: str) -> None:
    """Inside the transaction, wait for any other job deciding about a reminder to `email`, so that of two
    carts naming it at once one sends and the other then finds it reminded. PostgreSQL: a lock on the
    address until the commit; SQLite's write transactions already take turns."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [f"cart-reminder:{email.lower()}"])


def unsubscribe_token(*, cart: Cart, email: str) -> str:
    return signing.dumps({"c": cart.pk, "e": email}, salt=_SALT, compress=True)


def cart_reminder_send(*, cart_id: int, now: datetime | None = None) -> bool:
    """Send the cart's one reminder if it is still due and wanted; True when an e-mail was queued."""
    now = now or timezone.now()
    cutoff = now - timedelta(hours=settings.CART_REMINDER_DELAY_HOURS)
    with transaction.atomic():
        cart = Cart.objects.select_related("user").filter(pk=cart_id).first()
        if cart is None:
            return False
        recipient = _recipient(cart)
        if recipient is None:
            return False
        email, language = recipient
        _address_lock(email)
        if _address_reminded_since(email=email, since=now - ADDRESS_REMINDER_GAP, other_than=cart):
            # its one reminder is spent: the carts a script filled under a stranger's address mail them once a day
            Cart.objects.filter(pk=cart.pk, reminder_sent_at__isnull=True).update(reminder_sent_at=now)
            return False
        bought = Order.objects.filter(Q(email__iexact=email) | Q(user_id=cart.user_id) if cart.user_id
                                      else Q(email__iexact=email), created_at__gte=cart.updated_at)
        if bought.exists():
            return False
        # claim: a second job for the same cart (or a cart changed meanwhile) finds nothing to claim
        claimed = Cart.objects.filter(pk=cart.pk, reminder_sent_at__isnull=True, updated_at__lte=cutoff).update(
            reminder_sent_at=now)
        if not claimed:
            return False
        with translation.override(language):
            lines = [(product.title, quantity) for product, quantity in carts.cart_lines(cart)
                     if product.is_active and product.stock > 0]
            if not lines:
                return False
            base = (settings.SITE_URL or cart.reminder_base_url or "").rstrip("/")
            context = {
                "lines": lines, "store": store_settings_get(), "cart_url": base + reverse("orders:cart"),
                "unsubscribe_url": f"{base}{reverse('orders:cart-reminder-unsubscribe')}?"
                                   f"token={unsubscribe_token(cart=cart, email=email)}",
            }
            subject = render_to_string("orders/email/cart_reminder_subject.txt", context).strip()
            text = render_to_string("orders/email/cart_reminder.txt", context)
        mail_queue(to=email, subject=subject, text=text, language=language)
    logger.info("cart reminder queued for cart %s", cart_id)
    return True


def cart_reminder_unsubscribe(*, token: str) -> bool:
    """The e-mail's unsubscribe link: no more reminders for that cart, for any guest's cart naming that e-mail,
    nor for the account with that e-mail."""
    try:
        data = signing.loads(str(token or "")[:500], salt=_SALT)
    except signing.BadSignature:
        return False
    email = str(data.get("e") or "")
    carts_named = Q(pk=data.get("c"))
    if email:
        carts_named |= Q(user__isnull=True, reminder_email__iexact=email)
        User.objects.filter(email__iexact=email).update(cart_reminders=False)
    Cart.objects.filter(carts_named).update(reminder_opt_in=False)
    return True
