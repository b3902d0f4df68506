"""Background work for orders: expiring unpaid orders, abandoned-cart reminders (mail through the outbox)."""

import logging

from celery import shared_task
from django.utils import timezone

from orders.actions import order_expire_unpaid
from orders.models import Order, OrderStatus, PaymentStatus
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
    # each order on its own: one the job fails on stays for the next run, the others are not held back
    return each_apart(stale, _order_expire_if_unpaid, what="expiring unpaid order")


def _order_expire_if_unpaid(order: Order) -> bool:
    if not order_unpaid_lifetime(order).over(order, timezone.now()):
        return False  # held longer, its payment reported pending: its callback comes when it is paid
    for payment in order.payments.filter(status=PaymentStatus.AWAITING):
        payment_verify(payment=payment)  # a provider that cannot answer leaves it awaiting
    # the provider may just have said it is pending
    lifetime = order_unpaid_lifetime(order)
    if not lifetime.over(order, timezone.now()):
        return False
    if order_expire_unpaid(order=order, note=lifetime.note):
        logger.info("order %s expired unpaid (%s); stock released", order.number, lifetime.note)
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
