"""A status change audits the move it made, read under the order's lock, not the status the request read
before another member of staff moved the order."""

import pytest

import backoffice.orders
from backoffice.models import AuditEntry
from backoffice.orders import order_status_change, order_status_change_bulk
from orders.models import Order
from tests.factories import make_order, make_product

pytestmark = pytest.mark.django_db


def test_a_move_made_from_a_stale_read_is_audited_from_the_status_it_left(manager, head_support):
    product = make_product(stock=10)
    order = make_order(lines=[(product, 2)], payment_status="cod", status="processing")
    read_by_manager = Order.objects.get(pk=order.pk)  # the request's read, before the lock
    # meanwhile head support cancels it (the stock comes back) …
    order_status_change(actor=head_support, order=Order.objects.get(pk=order.pk), status="cancelled")
    AuditEntry.objects.all().delete()
    # … and the manager's request, which read it as processing, sets processing: the order is restored
    # (its stock taken again), a real move that must be in the audit log
    order_status_change(actor=manager, order=read_by_manager, status="processing")

    assert Order.objects.get(pk=order.pk).status == "processing"
    entry = AuditEntry.objects.get(action="order.status")
    assert entry.actor == manager and entry.details == f"{order.number}: cancelled → processing"


def test_a_stale_read_audits_the_move_from_the_status_it_left(manager, head_support):
    order = make_order(payment_status="cod", status="processing")
    read_by_manager = Order.objects.get(pk=order.pk)
    order_status_change(actor=head_support, order=Order.objects.get(pk=order.pk), status="shipped")
    AuditEntry.objects.all().delete()

    order_status_change(actor=manager, order=read_by_manager, status="delivered")

    assert AuditEntry.objects.get(action="order.status").details == f"{order.number}: shipped → delivered"


def _moved_first_by(actor, status, monkeypatch):
    """Another member of staff moves each order to `status` after the bulk change read the selection and
    before it takes the order's lock."""
    move = backoffice.orders.order_status_move

    def other_first(*, order, **kwargs):
        move(actor=actor, order=Order.objects.get(pk=order.pk), status=status)
        return move(order=order, **kwargs)

    monkeypatch.setattr(backoffice.orders, "order_status_move", other_first)


def test_a_bulk_change_counts_an_order_it_moved_back_from_a_status_set_meanwhile(manager, head_support,
                                                                                 monkeypatch):
    order = make_order(lines=[(make_product(stock=10), 2)], payment_status="cod", status="processing")
    _moved_first_by(head_support, "cancelled", monkeypatch)

    result = order_status_change_bulk(actor=manager, order_ids=[order.pk], status="processing")

    # read as processing, it was cancelled, and this change restored it: one order moved
    assert Order.objects.get(pk=order.pk).status == "processing"
    assert (result.updated, result.failed) == (1, [])


def test_a_bulk_change_does_not_count_an_order_already_moved_there_meanwhile(manager, head_support, monkeypatch):
    order = make_order(payment_status="cod", status="processing")
    _moved_first_by(head_support, "shipped", monkeypatch)

    result = order_status_change_bulk(actor=manager, order_ids=[order.pk], status="shipped")

    assert (result.updated, result.failed) == (0, [])
    assert not AuditEntry.objects.filter(action="order.status", actor=manager).exists()
