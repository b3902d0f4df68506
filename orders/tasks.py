"""Background work for orders: expiring unpaid orders (e-mails go through the outbox)."""

import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from orders.models import Order, OrderStatus, PaymentStatus

logger = logging.getLogger(__name__)

UNPAID_LIFETIME = timedelta(minutes=30)


@shared_task
def orders_expire_unpaid():
    """Cancel card orders left unpaid for 30 minutes and put their stock back."""
    from orders.actions import order_cancel

    cutoff = timezone.now() - UNPAID_LIFETIME
    stale = Order.objects.filter(
        status=OrderStatus.PENDING, payment_status=PaymentStatus.AWAITING, created_at__lt=cutoff
    )
    count = 0
    for order in stale:
        order_cancel(order=order, note="Unpaid for 30 minutes")
        logger.info("order %s expired unpaid; stock released", order.number)
        count += 1
    return count
