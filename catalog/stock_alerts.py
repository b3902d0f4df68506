"""Back-in-stock alerts: "Notify me" on an out-of-stock product, double opt-in, sent once.

`stock_alert_request` stores a pending alert and e-mails a confirmation link
(guests and customers alike: the address must prove it is theirs);
`stock_alert_confirm` turns it on; `stock_alerts_send` (run by the stock hook,
catalog.stock_events) e-mails every confirmed alert of a product that has
stock again, once, and marks it sent. Every e-mail goes through the outbox in
the language the visitor asked in.
"""

import logging
import secrets
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Count
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from catalog.models import Product, StockAlert
from shop.errors import ShopError
from shop.mail import isolate, mail_queue
from shop.queue import each_apart
from shop.ratelimit import address_mail_allowed
from shop.store_settings import store_settings_get
from shop.validation import EMAIL_MAX, clean_text

logger = logging.getLogger(__name__)
# confirmation e-mails one address gets in a clock hour, whatever the products and whoever asks
CONFIRMATIONS_PER_HOUR = 3


class StockAlertError(ShopError):
    """A "Notify me" request the visitor can correct."""


def _base(base_url: str | None) -> str:
    return (settings.SITE_URL or base_url or "").rstrip("/")


def _mail(alert: StockAlert, template: str, subject_template: str, extra: dict[str, Any] | None = None) -> None:
    language = alert.language if alert.language in ("en", "ar") else "en"
    with translation.override(language):
        product = alert.product
        base = _base(alert.base_url)
        context = {"alert": alert, "product": product, "title": isolate(product.title), "store": store_settings_get(),
                   "product_url": base + reverse("catalog:product-detail", args=[product.slug]),
                   "confirm_url": f"{base}{reverse('catalog:stock-alert-confirm')}?token={alert.token}",
                   "cancel_url": f"{base}{reverse('catalog:stock-alert-cancel')}?token={alert.token}",
                   **(extra or {})}
        subject = render_to_string(subject_template, context).strip()
        text = render_to_string(template, context)
    mail_queue(to=alert.email, subject=subject, text=text, language=language)


@transaction.atomic
def stock_alert_request(*, product_id: int | str, email: object, language: str = "en",
                        base_url: str = "") -> StockAlert:
    """Ask for one e-mail when the product is back; answers the same whether or not the address asked before."""
    email = clean_text(email, field="email", max_length=EMAIL_MAX).lower()
    try:
        validate_email(email)
    except ValidationError:
        raise StockAlertError(_("Please enter a valid email address"), field="email") from None
    product = Product.objects.filter(pk=product_id, is_active=True).first()
    if product is None:
        raise StockAlertError(_("Product not found"), field="productId", status=404, code="not_found")
    if product.stock > 0:
        raise StockAlertError(_("This product is in stock: you can order it now."), field="productId")
    alert = StockAlert.objects.select_for_update().filter(product=product, email=email).first()
    if alert is not None and alert.confirmed_at and alert.notified_at is None:
        return alert  # already waiting: no second confirmation mail
    if not address_mail_allowed("stock-alert", email, per_hour=CONFIRMATIONS_PER_HOUR):
        # quietly, as for the reset links: the answer is the same, a stranger's mailbox is not flooded
        return alert or StockAlert(product=product, email=email)
    if alert is None:
        alert = StockAlert(product=product, email=email)
    # a new round: after an earlier alert was sent, or a confirmation that never came
    alert.language = language if language in ("en", "ar") else "en"
    alert.token = secrets.token_urlsafe(24)
    alert.base_url = (base_url or "")[:500]
    alert.confirmed_at = None
    alert.notified_at = None
    alert.save()
    _mail(alert, "catalog/email/stock_alert_confirm.txt", "catalog/email/stock_alert_confirm_subject.txt")
    return alert


def stock_alert_by_token(token: object) -> StockAlert | None:
    token = str(token or "")
    if not token or len(token) > 64:
        return None
    return StockAlert.objects.select_related("product").filter(token=token).first()


@transaction.atomic
def stock_alert_confirm(*, token: object) -> StockAlert | None:
    """Turn a pending alert on (the link in the confirmation e-mail); None for an unknown link."""
    alert = stock_alert_by_token(token)
    if alert is None:
        return None
    if alert.confirmed_at is None:
        alert.confirmed_at = timezone.now()
        alert.save(update_fields=["confirmed_at"])
    if alert.product.stock > 0 and alert.product.is_active and alert.notified_at is None:
        transaction.on_commit(lambda: stock_alerts_send(product_ids=[alert.product_id]))
    return alert


@transaction.atomic
def stock_alert_cancel(*, token: object) -> StockAlert | None:
    """Forget an alert (the link in either e-mail)."""
    alert = stock_alert_by_token(token)
    if alert is not None:
        alert.delete()
    return alert


def stock_alerts_send(*, product_ids: Iterable[int]) -> int:
    """E-mail every confirmed, unsent alert of these products that have stock again; each exactly once."""
    back = Product.objects.filter(pk__in=product_ids, is_active=True, stock__gt=0).values_list("pk", flat=True)
    waiting = StockAlert.objects.filter(product_id__in=list(back), confirmed_at__isnull=False,
                                        notified_at__isnull=True).values_list("pk", flat=True)
    # each alert on its own: one whose e-mail cannot be made stays unsent for the next run, the others go
    sent = each_apart(list(waiting), _alert_send, what="back-in-stock alert")
    if sent:
        logger.info("back-in-stock e-mails queued: %s", sent)
    return sent


@transaction.atomic
def _alert_send(alert_id: int) -> bool:
    # claim it: a second job running at once finds nothing left to claim
    if not StockAlert.objects.filter(pk=alert_id, notified_at__isnull=True).update(notified_at=timezone.now()):
        return False
    alert = StockAlert.objects.select_related("product").get(pk=alert_id)
    _mail(alert, "catalog/email/stock_alert_back.txt", "catalog/email/stock_alert_back_subject.txt")
    return True


def stock_alerts_sweep() -> int:
    """Send what a missed stock hook left behind (beat, hourly)."""
    waiting = StockAlert.objects.filter(confirmed_at__isnull=False, notified_at__isnull=True,
                                        product__stock__gt=0).values_list("product_id", flat=True).distinct()
    return stock_alerts_send(product_ids=list(waiting))


def stock_alert_waiting_counts(*, product_ids: Iterable[int] | None = None) -> dict[int, int]:
    """{product id: confirmed alerts not yet sent}, for the dashboard."""
    rows = StockAlert.objects.filter(confirmed_at__isnull=False, notified_at__isnull=True)
    if product_ids is not None:
        rows = rows.filter(product_id__in=list(product_ids))
    return dict(rows.values("product_id").annotate(n=Count("pk")).values_list("product_id", "n"))

