"""E-mail alerts to staff: stock falling to low or out, a refused exchange rate, and the opt-in daily summary.

Stock alerts hear of every stock write through one hook (`catalog.signals.stock_changed`,
sent by `Product.objects.update(stock=…)` and `Product.save`) and compare each product's
level (Availability: in, low 1–10, out 0) with the level remembered on the product
(`stock_alert_level`). Only a fall past a line (in → low, in/low → out) sends mail, and a
conditional UPDATE of the remembered level lets one transaction only report a crossing:
the tenth sale of a low product says nothing; restocking it re-arms the alert. The mail
is queued in the transaction of the stock change, so a rolled-back checkout sends none.
"""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Sum
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import User
from accounts.roles import has_permission
from catalog.models import Product
from catalog.pricing import Availability
from orders.models import Order, OrderStatus, PaymentStatus, amount_kept
from shop.mail import mail_queue
from shop.models import ContactMessage, ContactMessageStatus, Heartbeat
from shop.money import quantize
from shop.store_time import store_day_start, store_localdate, store_localtime

SEVERITY = {"in": 0, "low": 1, "out": 2}
# who looks after stock: the roles that may change products (Owner, Manager)
STOCK_ALERT_RIGHT = ("products", "edit")
DAILY_SUMMARY_MARK = "daily-summary"
NEVER = datetime(2000, 1, 1, tzinfo=UTC)  # the mark before the first summary
DAILY_SUMMARY_HOUR = 7  # the summary goes from 07:00 of the store's day


def _staff():
    # a superuser without a role has the Owner's (User.staff_role)
    return (User.objects.filter(is_staff=True, is_active=True).exclude(role="", is_superuser=False)
            .exclude(email="").order_by("pk"))


def stock_alert_recipients():
    return [user for user in _staff() if has_permission(user, *STOCK_ALERT_RIGHT)]


def _link(path):
    return f"{settings.SITE_URL}{path}" if settings.SITE_URL else ""


def stock_levels_check(*, product_ids):
    """Record each product's new stock level; e-mail stock staff about those that fell past a line.

    Returns the [(product, level)] reported."""
    crossed = []
    products = Product.objects.filter(pk__in=product_ids).only(
        "pk", "stock", "stock_alert_level", "title_en", "title_ar").order_by("pk")
    for product in products:
        level, before = Availability.status(product.stock), product.stock_alert_level
        if level == before:
            continue
        moved = Product.objects.filter(pk=product.pk, stock_alert_level=before).update(stock_alert_level=level)
        if moved and SEVERITY[level] > SEVERITY[before]:
            crossed.append((product, level))
    if crossed:
        _stock_alert_send(crossed)
    return crossed


def _stock_alert_send(crossed):
    for user in stock_alert_recipients():
        language = user.language or settings.LANGUAGE_CODE
        with translation.override(language):
            context = {
                "lines": [{"title": product.title, "stock": product.stock, "out": level == "out"}
                          for product, level in crossed],
                "out": sum(1 for _product, level in crossed if level == "out"),
                "link": _link(reverse("backoffice:section", args=["inventory"])),
            }
            subject = render_to_string("backoffice/email/stock_alert_subject.txt", context).strip()
            text = render_to_string("backoffice/email/stock_alert.txt", context)
        mail_queue(to=user.email, subject=subject, text=text, language=language)


def _on_stock_changed(sender, product_ids, **kwargs):
    stock_levels_check(product_ids=product_ids)


# --- a refused exchange rate ---------------------------------------------------------

# who may set the rate by hand and change the import's markup: the roles with the settings right (Owner, Manager)
RATE_ALERT_RIGHT = ("settings", "edit")


def rate_refused_send(*, stored: Decimal, refused: Decimal, move: Decimal, limit: Decimal) -> None:
    """Tell the staff who set prices that a rate service's answer moved too far and was not taken.

    `move` and `limit` are fractions (0.40 for 40 %); shop.rates sends this once per refusal, until a
    rate is taken again."""
    for user in _staff():
        if not has_permission(user, *RATE_ALERT_RIGHT):
            continue
        language = user.language or settings.LANGUAGE_CODE
        with translation.override(language):
            context = {"stored": stored.normalize(), "refused": refused.normalize(),
                       "percent": round(move * 100), "limit": round(limit * 100),
                       "link": _link(reverse("backoffice:dashboard"))}
            subject = render_to_string("backoffice/email/rate_refused_subject.txt", context).strip()
            text = render_to_string("backoffice/email/rate_refused.txt", context)
        mail_queue(to=user.email, subject=subject, text=text, language=language)


# --- the daily summary ------------------------------------------------------------

def daily_summary_figures(*, now=None):
    """The last 24 hours' orders and revenue, and what is waiting now: COD orders whose cash
    is not in yet, and messages nobody answered. Test orders never count."""
    now = now or timezone.now()
    since = now - timedelta(hours=24)
    real = Order.objects.filter(is_test=False)
    placed = real.filter(created_at__gte=since, created_at__lt=now)
    revenue = placed.filter(payment_status__in=[PaymentStatus.PAID, PaymentStatus.COD]).exclude(
        status=OrderStatus.CANCELLED).aggregate(total=Sum(amount_kept()))["total"]
    cod = real.filter(payment_status=PaymentStatus.COD, status__in=[
        OrderStatus.PENDING, OrderStatus.PROCESSING, OrderStatus.SHIPPED,
    ]).aggregate(count=Count("pk"), total=Sum("total_amount"))
    return {
        "since": since,
        "until": now,
        "orders": placed.count(),
        "revenue": quantize(revenue or Decimal("0")),
        "pending_cod": cod["count"],
        "pending_cod_amount": quantize(cod["total"] or Decimal("0")),
        "unanswered_messages": ContactMessage.objects.filter(
            status__in=[ContactMessageStatus.NEW, ContactMessageStatus.READ]).count(),
    }


def daily_summary_send(*, now=None):
    """E-mail the summary to every staff member who opted in, once per day of the store's time zone; return how many.

    Revenue is left out for roles without the analytics right."""
    now = now or timezone.now()
    today = store_localdate(now)
    # one transaction: the day's mark and every summary are stored together, so a job that dies halfway
    # leaves the day unsent (its rerun sends them all), and a second job at once finds the day taken
    with transaction.atomic():
        if not _daily_summary_claim(now=now, today=today):
            return 0
        figures = daily_summary_figures(now=now)
        sent = 0
        for user in _staff().filter(daily_summary=True):
            _daily_summary_queue(user=user, figures=figures, today=today)
            sent += 1
    return sent


def daily_summary_send_due(*, now=None):
    """Beat's hourly job: the daily summary at the first tick from 07:00 in the store's time zone (a tick
    a dead worker missed is made up at the next), once per store day (daily_summary_send); return how many.

    Beat keeps its own fixed clock (CELERY_TIMEZONE), while the store's zone is a setting staff may change:
    so beat asks every hour, on the hour, and the store's clock decides. An hour holds one tick in any zone
    whose offset is whole or half hours."""
    now = now or timezone.now()
    if store_localtime(now).hour < DAILY_SUMMARY_HOUR:
        return 0
    return daily_summary_send(now=now)


def _daily_summary_claim(*, now, today):
    """Take `today`'s summary for this job: True unless a summary of that local day was already taken.

    A conditional UPDATE, so of two jobs at once exactly one moves the mark (the other waits for its
    row lock, then finds the mark already on today)."""
    day_start = store_day_start(today)
    Heartbeat.objects.get_or_create(name=DAILY_SUMMARY_MARK, defaults={"seen_at": NEVER})
    return bool(Heartbeat.objects.filter(name=DAILY_SUMMARY_MARK, seen_at__lt=day_start).update(seen_at=now))


def _daily_summary_queue(*, user, figures, today):
    language = user.language or settings.LANGUAGE_CODE
    with translation.override(language):
        context = {**figures, "day": today, "show_revenue": has_permission(user, "analytics"),
                   "link": _link(reverse("backoffice:dashboard"))}
        subject = render_to_string("backoffice/email/daily_summary_subject.txt", context).strip()
        text = render_to_string("backoffice/email/daily_summary.txt", context)
    mail_queue(to=user.email, subject=subject, text=text, language=language)


def daily_summary_opt(*, user, enabled):
    """A staff member turns their own daily summary on or off."""
    user.daily_summary = bool(enabled)
    user.save(update_fields=["daily_summary"])
    return user
