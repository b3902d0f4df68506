"""Real threads on PostgreSQL: no overselling, no coupon over its limit, no cart placed twice."""

import threading
from decimal import Decimal

import pytest
from django.db import connection

from orders.checkout import CheckoutError, order_place
from orders.models import Coupon, Order
from orders.stock import InsufficientStock
from tests.threads import at_once, thread

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]


def _race(n, work):
    """Run `work` n times at once: "ok" for each that went through, "refused" for each refused."""
    outcomes = at_once(*[work] * n)
    for outcome in outcomes:
        if isinstance(outcome, Exception) and not isinstance(outcome, (InsufficientStock, CheckoutError)):
            raise outcome
    return ["refused" if isinstance(outcome, Exception) else "ok" for outcome in outcomes]


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
    from orders.payments.services import callback_process, payment_create, payment_start

    settings.PAYMENT_SANDBOX = True
    tea = make_product(stock=5)
    order = order_place(lines=[(tea, 1)], form=checkout_form(payment_method="sandbox"))
    payment = payment_create(order=order, provider_name="sandbox")
    payment_start(payment=payment, return_url="http://x/", notification_url="http://x/")
    body, signature = get_provider("sandbox").transaction(payment=payment, success=True)
    # when
    outcomes = _race(8, lambda: callback_process(provider_name="sandbox", body=body, received_hmac=signature))
    # then
    assert outcomes.count("ok") == 8
    assert PaymentEvent.objects.count() == 1
    assert Payment.objects.get().status == PaymentStatus.PAID
    assert len(mail.outbox) == 1


def test_one_cart_checked_out_from_four_tabs_at_once_is_one_order(make_product, checkout_body, monkeypatch,
                                                                   settings):
    # given a guest's cart, and four tabs of that session that all read it before any places its order
    from django.test import Client

    from orders import checkout

    tea = make_product(stock=10)
    tabs = [Client() for _ in range(4)]
    tabs[0].post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, content_type="application/json")
    session = tabs[0].cookies[settings.SESSION_COOKIE_NAME].value
    for tab in tabs[1:]:
        tab.cookies[settings.SESSION_COOKIE_NAME] = session
    all_have_read = threading.Barrier(len(tabs), timeout=10)
    client_ip = checkout.client_ip  # read after the cart, before the placing's transaction

    def after_every_tab_has_read(request):
        all_have_read.wait()
        return client_ip(request)

    monkeypatch.setattr(checkout, "client_ip", after_every_tab_has_read)
    answers = []

    def check_out(tab):
        answers.append(tab.post("/api/payment/create-intention", checkout_body(paymentMethod="cod"),
                                content_type="application/json").status_code)

    # when
    threads = [thread(check_out, args=(tab,)) for tab in tabs]
    for each in threads:
        each.start()
    for each in threads:
        each.join()
    # then one tab places the order; the others wait for it, then are told the cart changed
    assert sorted(answers) == [201, 409, 409, 409]
    assert Order.objects.count() == 1
    tea.refresh_from_db()
    assert tea.stock == 8


def test_a_sign_in_during_a_checkout_of_the_guest_cart_does_not_copy_the_ordered_lines(make_product, alice):
    # given a customer with a cart of their own, and their guest cart being checked out in another tab
    # (held, its lines cleared, not yet committed)
    from django.db import transaction

    from orders.cart import cart_clear, cart_hold, cart_merge
    from orders.models import Cart

    tea = make_product(stock=10)
    Cart.objects.create(user=alice)
    guest = Cart.objects.create(session_key="guest-session")
    guest.lines.create(product=tea, quantity=2)
    held, merged = threading.Event(), threading.Event()

    def check_out():
        with transaction.atomic():
            assert cart_hold(guest)
            cart_clear(cart=guest)
            held.set()
            merged.wait(0.5)  # the sign-in must wait for this commit: it does not get to merge first

    def sign_in():
        held.wait(10)
        cart_merge(session_key="guest-session", user=alice)
        merged.set()

    # when
    threads = [thread(check_out), thread(sign_in)]
    for each in threads:
        each.start()
    for each in threads:
        each.join()
    # then the ordered lines stay ordered: none is copied into the customer's cart
    assert not Cart.objects.get(user=alice).lines.exists()


def test_two_sign_ins_adopting_guest_carts_at_once_leave_one_cart_holding_both(make_product, alice, monkeypatch):
    # given alice has no cart yet, and a guest cart in each of two browsers
    from orders import cart as carts
    from orders.models import Cart

    green, black = make_product(stock=10), make_product(stock=10)
    Cart.objects.create(session_key="phone").lines.create(product=green, quantity=2)
    Cart.objects.create(session_key="laptop").lines.create(product=black, quantity=3)
    adopted = threading.Event()
    changed = carts.user_cart_changed

    def adopt_and_linger(user_ids):
        # the phone's sign-in has made the phone's cart alice's and not committed yet: the laptop's
        # sign-in reads no cart of hers and tries to adopt its own (the race the IntegrityError covers)
        changed(user_ids)
        if threading.current_thread().name == "phone":
            adopted.set()
            threading.Event().wait(0.5)

    monkeypatch.setattr(carts, "user_cart_changed", adopt_and_linger)

    def sign_in(session_key):
        if session_key == "laptop":
            adopted.wait(10)
        carts.cart_merge(session_key=session_key, user=alice)

    # when
    threads = [thread(sign_in, args=(key,), name=key) for key in ("phone", "laptop")]
    for each in threads:
        each.start()
    for each in threads:
        each.join()
    # then alice has one cart holding both browsers' lines, and no guest cart is left
    cart = Cart.objects.get(user=alice)
    assert {line.product_id: line.quantity for line in cart.lines.all()} == {green.pk: 2, black.pk: 3}
    assert not Cart.objects.filter(user=None).exists()


def test_staff_recording_cash_refunds_at_once_never_return_more_than_was_paid(manager):
    # given a delivered cash-on-delivery order of E£200 (E£150 of tea, E£50 shipping)
    from backoffice.models import AuditEntry
    from orders.actions import order_cash_refund
    from shop.errors import ShopError
    from shop.models import OutboundEmail
    from tests.factories import make_order

    order = make_order(payment_status="cod", status="delivered")
    assert order.total_amount == Decimal("200.00")
    OutboundEmail.objects.all().delete()
    AuditEntry.objects.all().delete()
    # when six E£50 cash refunds are recorded at once, each from its own read of the order
    outcomes = at_once(*[lambda: order_cash_refund(order=Order.objects.get(pk=order.pk), amount=Decimal("50.00"),
                                                   actor=manager)] * 6)
    # then four went through, the others were refused: all of it is refunded, once each
    assert [type(o) for o in outcomes if isinstance(o, Exception)] == [ShopError, ShopError], outcomes
    order.refresh_from_db()
    assert (order.refunded_amount, order.payment_status) == (Decimal("200.00"), "refunded")
    assert OutboundEmail.objects.count() == 4 and AuditEntry.objects.filter(actor=manager).count() == 4
