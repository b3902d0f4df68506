"""Background work for orders: expiring unpaid orders, abandoned-cart reminders (mail through the outbox)."""

import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from orders.actions import order_expire_unpaid
from orders.models import Order, OrderStatus, PaymentStatus
from orders.payments.services import payment_verify
from orders.reminders import cart_reminder_send, cart_reminders_due
from shop.queue import each_apart, enqueue

logger = logging.getLogger(__name__)

UNPAID_LIFETIME = timedelta(minutes=30)


@shared_task
def orders_expire_unpaid() -> int:
    """Cancel card orders left unpaid for 30 minutes and put their stock back.

    Each order's provider is asked first, so a payment whose callback never arrived is recorded
    rather than its order cancelled; an order paid meanwhile is kept (order_expire_unpaid).
    """
    cutoff = timezone.now() - UNPAID_LIFETIME
    stale = Order.objects.filter(
        status=OrderStatus.PENDING, payment_status=PaymentStatus.AWAITING, created_at__lt=cutoff
    ).order_by("pk")
    # each order on its own: one the job fails on stays for the next run, the others are not held back
    return each_apart(stale, _order_expire_if_unpaid, what="expiring unpaid order")


def _order_expire_if_unpaid(order: Order) -> bool:
    for payment in order.payments.filter(status=PaymentStatus.AWAITING):
        payment_verify(payment=payment)  # a provider that cannot answer leaves it awaiting
    if order_expire_unpaid(order=order, note="Unpaid for 30 minutes"):
        logger.info("order %s expired unpaid; stock released", order.number)
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
