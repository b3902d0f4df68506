"""Background work for orders: e-mails and expiring unpaid orders."""

import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from orders.models import Order, OrderStatus, PaymentStatus

logger = logging.getLogger(__name__)

UNPAID_LIFETIME = timedelta(minutes=30)


@shared_task
def order_confirmation_email(order_id):
    from orders.emails import order_confirmation_send

    order = Order.objects.filter(pk=order_id).first()
    if order is not None:
        order_confirmation_send(order=order)


@shared_task
def order_status_email(order_id, status):
    from orders.emails import order_status_send

    order = Order.objects.filter(pk=order_id).first()
    if order is not None:
        order_status_send(order=order, status=status)


@shared_task
def order_attention_email(order_id):
    from orders.emails import order_attention_send

    order = Order.objects.filter(pk=order_id).first()
    if order is not None:
        order_attention_send(order=order)


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
