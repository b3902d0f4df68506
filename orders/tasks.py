"""Background work for orders: expiring unpaid orders, abandoned-cart reminders (mail through the outbox)."""

import logging
from functools import partial

from celery import shared_task
from django.utils import timezone

from orders.actions import order_expire_unpaid
from orders.models import Order, OrderStatus, PaymentStatus
from orders.payments.base import PaymentError
from orders.payments.services import payment_verify
from orders.reminders import cart_reminder_send, cart_reminders_due
from orders.selectors import UNPAID_LIFETIME, order_unpaid_lifetime
from shop.queue import each_apart, enqueue

logger = logging.getLogger(__name__)


@shared_task
def orders_expire_unpaid() -> int:
    """Cancel card orders left unpaid past their lifetime and put their stock back: 30 minutes, or
    PAYMOB_PENDING_HOURS for one whose payment was reported pending (kiosk; order_unpaid_lifetime).

    Each order's provider is asked first, so a payment whose callback never arrived is recorded
    rather than its order cancelled; an order paid meanwhile is kept (order_expire_unpaid).
    """
    cutoff = timezone.now() - UNPAID_LIFETIME  # the shortest lifetime
    stale = Order.objects.filter(
        status=OrderStatus.PENDING, payment_status=PaymentStatus.AWAITING, created_at__lt=cutoff
    ).order_by("pk")
    # a provider that could not answer is not asked again in this run ({provider: why}): a hanging one
    # would otherwise cost PAYMOB_TIMEOUT per stale order, every run, while it is down
    unanswered: dict[str, str] = {}
    # each order on its own: one the job fails on stays for the next run, the others are not held back
    return each_apart(stale, partial(_order_expire_if_unpaid, unanswered=unanswered), what="expiring unpaid order")


def _order_expire_if_unpaid(order: Order, *, unanswered: dict[str, str]) -> bool:
    """Expire `order` if its provider says it is not paid (or has nothing to say of it).

    A provider that cannot answer (down, slow, garbage) has not said so: the order is kept and asked about
    again at the next run, as long as a payment reported pending would be (order_unpaid_lifetime). Expired
    at once, a payment whose callback never came was lost: its order cancelled, its payment never asked
    about again, the money in the provider's account and nobody told."""
    if not order_unpaid_lifetime(order).over(timezone.now()):
        return False  # held longer, its payment reported pending: its callback comes when it is paid
    silent: dict[str, str] = {}
    for payment in order.payments.filter(status=PaymentStatus.AWAITING):
        if payment.provider not in unanswered:
            try:
                payment_verify(payment=payment, provider_must_answer=True)
                continue
            except PaymentError as exc:
                unanswered[payment.provider] = exc.message[:100]
        silent = {"provider": payment.provider.title(), "reason": unanswered[payment.provider]}
    # the provider may just have said it is pending
    lifetime = order_unpaid_lifetime(order)
    if not lifetime.over(timezone.now()):
        return False
    note = lifetime.note
    if silent:
        lifetime = order_unpaid_lifetime(order, provider_silent=silent)
        if not lifetime.over(timezone.now()):
            logger.warning("order %s kept unpaid: %s could not be asked whether it was paid (%s); asked again at "
                           "the next run", order.number, silent["provider"], silent["reason"])
            return False
        note = lifetime.note
    if order_expire_unpaid(order=order, note=note):
        logger.info("order %s expired unpaid (%s); stock released", order.number, note)
        return True
    return False


@shared_task(ignore_result=True)
def cart_reminders_task() -> int:
    """Beat, every 15 minutes: queue one job per cart whose reminder is due."""
    due = cart_reminders_due()
    for cart_id in due:
        enqueue(cart_reminder_send_task, cart_id)
    return len(due)


@shared_task(ignore_result=True)
def cart_reminder_send_task(cart_id: int) -> bool:
    return cart_reminder_send(cart_id=cart_id)
