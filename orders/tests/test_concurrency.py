"""Real threads on PostgreSQL: no overselling, no coupon over its limit."""

import threading
from decimal import Decimal

import pytest
from django.db import connection

from orders.checkout import CheckoutError, order_place
from orders.models import Coupon, Order
from orders.stock import InsufficientStock

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]


def _race(n, work):
    barrier = threading.Barrier(n)
    outcomes = []

    def run():
        try:
            barrier.wait()
            work()
            outcomes.append("ok")
        except (InsufficientStock, CheckoutError):
            outcomes.append("refused")
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def test_twenty_parallel_checkouts_for_five_in_stock_make_exactly_five_orders(make_product, checkout_form):
    # given
    tea = make_product(stock=5)
    # when
    outcomes = _race(20, lambda: order_place(lines=[(tea, 1)], form=checkout_form()))
    # then
    tea.refresh_from_db()
    assert outcomes.count("ok") == 5 and outcomes.count("refused") == 15
    assert Order.objects.count() == 5
    assert tea.stock == 0


def test_a_coupon_with_usage_limit_three_is_used_exactly_three_times(make_product, checkout_form):
    # given
    tea = make_product(stock=100)
    Coupon.objects.create(code="THREE", type="fixed", value=Decimal("10"), usage_limit=3)
    # when
    outcomes = _race(20, lambda: order_place(lines=[(tea, 1)], form=checkout_form(coupon_code="THREE")))
    # then
    assert outcomes.count("ok") == 3
    assert Coupon.objects.get().used_count == 3
    assert Order.objects.filter(coupon_code="THREE").count() == 3
    tea.refresh_from_db()
    assert tea.stock == 97  # refused checkouts gave their stock back


def test_the_same_callback_arriving_twice_at_once_is_applied_once(make_product, settings, checkout_form):
    # given a sandbox card order and its signed callback
    from django.core import mail

    from orders.models import Payment, PaymentEvent, PaymentStatus
    from orders.payments import get_provider
    from orders.payments.services import callback_process, payment_start

    settings.PAYMENT_SANDBOX = True
    tea = make_product(stock=5)
    order = order_place(lines=[(tea, 1)], form=checkout_form(payment_method="sandbox"))
    payment, _ = payment_start(order=order, provider_name="sandbox", return_url="http://x/", notification_url="http://x/")
    body, signature = get_provider("sandbox").transaction(payment=payment, success=True)
    # when
    outcomes = _race(8, lambda: callback_process(provider_name="sandbox", body=body, received_hmac=signature))
    # then
    assert outcomes.count("ok") == 8
    assert PaymentEvent.objects.count() == 1
    assert Payment.objects.get().status == PaymentStatus.PAID
    assert len(mail.outbox) == 1
