"""Payment news that arrives late or out of order: money captured on a cancelled order (success after a
decline, or after expiry) is never silent, money returned never marks an order paid and is recorded
however Paymob reports it (what cannot be matched is flagged for staff), and the expiry job never
cancels an order that has been paid."""

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from backoffice.alerts import daily_summary_figures
from backoffice.models import AuditEntry
from orders import tasks
from orders.actions import order_expire_unpaid, order_mark_paid
from orders.models import Order, OrderStatus, Payment, PaymentEvent, PaymentStatus
from orders.tasks import orders_expire_unpaid
from orders.tests.payments.paymob_messages import paymob_callback, paymob_transaction
from shop.models import OutboundEmail
from shop.store_settings import store_settings_update

pytestmark = pytest.mark.django_db


def _place(api, make_product, checkout_body):
    tea = make_product(price="300.00", stock=10)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, format="json")
    response = api.post("/api/payment/create-intention", checkout_body(paymentMethod="card"), format="json")
    assert response.status_code == 201, response.content
    return tea, Payment.objects.get()


def _callback(client, payment, *, success, tx_id, **flags):
    return paymob_callback(client, paymob_transaction(payment, success=success, tx_id=tx_id, **flags))


def _staff_alerts(owner):
    staff = Client()
    staff.force_login(owner)
    return staff


def test_a_success_after_a_decline_is_recorded_and_flagged_for_staff(
        client, api, owner, make_product, checkout_body, fake_paymob, django_capture_on_commit_callbacks):
    # given a declined card (the order is cancelled and its stock released)
    store_settings_update(store_email="orders@shop.example")
    tea, payment = _place(api, make_product, checkout_body)
    _callback(client, payment, success=False, tx_id=1)
    # when a second card on the same hosted page succeeds
    with django_capture_on_commit_callbacks(execute=True):
        response = _callback(client, payment, success=True, tx_id=2)
    # then the money is on record and staff are told everywhere they look
    assert response.status_code == 200
    payment.refresh_from_db()
    order = Order.objects.get()
    assert payment.status == PaymentStatus.PAID and payment.transaction_id == "2"
    assert order.status == OrderStatus.CANCELLED and order.payment_status == PaymentStatus.PAID
    assert order.needs_attention is True and order.attention_reason == "paid_after_decline"
    tea.refresh_from_db()
    assert tea.stock == 10  # not taken again behind staff's back
    entry = AuditEntry.objects.get(action="order.captured_on_cancelled")
    assert entry.target_id == str(order.pk) and order.number in entry.details
    store_mail = [m for m in mail.outbox if m.to == ["orders@shop.example"]]
    assert len(store_mail) == 1 and order.number in store_mail[0].subject
    assert "paid after it was cancelled" in store_mail[0].subject
    staff = _staff_alerts(owner)
    assert staff.get("/api/admin/dashboard").json()["attentionOrders"] == 1
    row = staff.get("/api/admin/orders").json()["results"][0]
    assert row["needsAttention"] is True and row["attentionReason"] == "paid_after_decline"
    assert PaymentEvent.objects.count() == 2


def test_a_late_success_after_expiry_is_flagged_the_same_way(
        client, api, owner, make_product, checkout_body, fake_paymob, django_capture_on_commit_callbacks):
    # given a card order left unpaid for 30 minutes and expired
    tea, payment = _place(api, make_product, checkout_body)
    Order.objects.update(created_at=timezone.now() - timedelta(minutes=31))
    assert orders_expire_unpaid() == 1
    # when Paymob reports the payment after all
    with django_capture_on_commit_callbacks(execute=True):
        _callback(client, payment, success=True, tx_id=3)
    # then
    order = Order.objects.get()
    assert order.status == OrderStatus.CANCELLED and order.payment_status == PaymentStatus.PAID
    assert order.needs_attention is True and order.attention_reason == "paid_after_cancel"
    assert AuditEntry.objects.filter(action="order.captured_on_cancelled", target_id=str(order.pk)).count() == 1
    assert any(m.to == ["hello@nilehighlandstea.example"] for m in mail.outbox)
    assert _staff_alerts(owner).get("/api/admin/dashboard").json()["attentionOrders"] == 1
    # and the customer is told their money arrived on a cancelled order, never that it is on its way
    customer_mail = [m for m in mail.outbox if m.to == [order.email]]
    assert [m.subject for m in customer_mail] == [f"Payment received for your cancelled order {order.number}"]
    assert "We will refund it or restore your order" in customer_mail[0].body


def test_the_customer_paying_a_cancelled_order_is_told_in_their_language(
        client, api, make_product, checkout_body, fake_paymob, django_capture_on_commit_callbacks):
    _tea, payment = _place(api, make_product, checkout_body)
    Order.objects.update(language="ar", created_at=timezone.now() - timedelta(minutes=31))
    orders_expire_unpaid()
    with django_capture_on_commit_callbacks(execute=True):
        _callback(client, payment, success=True, tx_id=3)
    last = [m for m in mail.outbox if m.to == [payment.order.email]][-1]
    assert last.subject.startswith("استلمنا دفعة طلبك الملغى رقم")
    assert "سنعيد إليك المبلغ أو نعيد تفعيل طلبك" in last.body


def test_a_payment_confirmed_by_paymob_alone_empties_the_cart_it_paid_for(client, api, make_product, checkout_body,
                                                                          fake_paymob):
    # given a card order placed, its tab closed on Paymob's page (the shop's page never comes back)
    _tea, payment = _place(api, make_product, checkout_body)
    assert api.get("/api/cart").json()["itemCount"] == 2
    # when Paymob's server reports it paid
    _callback(client, payment, success=True, tx_id=1)
    # then the cart no longer offers the same tea again
    assert api.get("/api/cart").json()["itemCount"] == 0


def test_a_cart_changed_after_its_order_is_kept_when_the_payment_comes(client, api, make_product, checkout_body,
                                                                       fake_paymob):
    # given a card order placed, and the shopper then adding another tea
    _tea, payment = _place(api, make_product, checkout_body)
    other = make_product(stock=5)
    api.post("/api/cart/items", {"productId": other.pk, "quantity": 1}, format="json")
    # when the payment is confirmed
    _callback(client, payment, success=True, tx_id=1)
    # then what they are shopping for now stays, also when the payment's return page asks about it
    assert api.get("/api/cart").json()["itemCount"] == 3
    assert api.get(f"/api/payment/verify/{payment.payment_id}").json()["confirmed"] is True
    assert api.get("/api/cart").json()["itemCount"] == 3


def test_a_replayed_late_success_flags_once(client, api, make_product, checkout_body, fake_paymob):
    # given
    _tea, payment = _place(api, make_product, checkout_body)
    _callback(client, payment, success=False, tx_id=1)
    # when
    _callback(client, payment, success=True, tx_id=2)
    _callback(client, payment, success=True, tx_id=2)
    # then
    assert AuditEntry.objects.filter(action="order.captured_on_cancelled").count() == 1


def test_a_staff_status_change_settles_the_alert(client, api, owner, make_product, checkout_body, fake_paymob):
    # given a flagged order
    _tea, payment = _place(api, make_product, checkout_body)
    _callback(client, payment, success=False, tx_id=1)
    _callback(client, payment, success=True, tx_id=2)
    staff = _staff_alerts(owner)
    order = Order.objects.get()
    # when staff restore it (the stock is still there)
    response = staff.put(f"/api/admin/orders/{order.pk}/status", {"status": "processing"},
                         content_type="application/json")
    # then
    assert response.status_code == 200, response.content
    order.refresh_from_db()
    assert order.status == OrderStatus.PROCESSING and order.needs_attention is False
    assert staff.get("/api/admin/dashboard").json()["attentionOrders"] == 0


def test_staff_cancelling_a_paid_order_are_asked_to_refund_it_until_the_refund_comes(
        client, api, owner, make_product, checkout_body, fake_paymob):
    # given a paid card order
    payment = _paid(client, api, make_product, checkout_body)
    staff = _staff_alerts(owner)
    # when staff cancel it
    staff.put(f"/api/admin/orders/{payment.order_id}/status", {"status": "cancelled"}, content_type="application/json")
    # then it is flagged with the money owed, in the audit log and on the overview
    order = Order.objects.get()
    assert (order.status, order.needs_attention, order.attention_reason) == (OrderStatus.CANCELLED, True, "refund_due")
    assert AuditEntry.objects.get(action="order.refund_due").details.endswith(
        "cancelled with 650.00 EGP paid. Refund it in the payment provider's dashboard.")
    overview = staff.get("/api/admin/dashboard").json()
    assert (overview["attentionOrders"], overview["capturedOnCancelled"]) == (1, "650.00")
    # when the refund made in Paymob comes back
    _refund(client, payment, tx_id=2)
    # then the order is settled
    order.refresh_from_db()
    assert (order.payment_status, order.needs_attention) == (PaymentStatus.REFUNDED, False)


def test_the_refund_coming_back_settles_the_refund_due_and_leaves_the_money_to_check(
        client, api, owner, make_product, checkout_body, fake_paymob):
    # given a paid order with money returned to check (a refund of a transaction not its own), then
    # cancelled by staff: a refund is due as well
    payment = _paid(client, api, make_product, checkout_body)
    _refund(client, payment, tx_id=2, of=99)
    staff = _staff_alerts(owner)
    staff.put(f"/api/admin/orders/{payment.order_id}/status", {"status": "cancelled"}, content_type="application/json")
    assert Order.objects.get().attention_reasons == ["refund_to_check", "refund_due"]
    # when the refund made in Paymob comes back
    _refund(client, payment, tx_id=3)
    # then the refund due is settled, and the earlier return is still to check
    order = Order.objects.get()
    assert (order.payment_status, order.needs_attention, order.attention_reasons) == (
        PaymentStatus.REFUNDED, True, ["refund_to_check"])


def test_restoring_a_cancelled_paid_order_settles_the_refund_it_no_longer_owes(
        client, api, owner, make_product, checkout_body, fake_paymob):
    payment = _paid(client, api, make_product, checkout_body)
    staff = _staff_alerts(owner)
    for status in ("cancelled", "processing"):
        staff.put(f"/api/admin/orders/{payment.order_id}/status", {"status": status}, content_type="application/json")
    order = Order.objects.get()
    assert (order.status, order.payment_status, order.needs_attention) == (
        OrderStatus.PROCESSING, PaymentStatus.PAID, False)


def test_a_bulk_status_change_keeps_the_alert_nobody_saw(client, api, owner, make_product, checkout_body,
                                                         fake_paymob):
    # given a paid order flagged with a refund to check
    payment = _paid(client, api, make_product, checkout_body)
    _refund(client, payment, tx_id=2, of=99)  # a refund of a transaction that is not this payment's
    assert _flagged()
    staff = _staff_alerts(owner)
    # when staff mark it shipped with a selection from the list, where no alert shows
    response = staff.put("/api/admin/bulk/orders", {"orderIds": [payment.order_id], "status": "shipped"},
                         content_type="application/json")
    # then it moved, and is still flagged
    assert response.status_code == 200 and response.json()["updated"] == 1, response.content
    flagged = Order.objects.get(pk=payment.order_id)
    assert flagged.status == OrderStatus.SHIPPED and flagged.needs_attention
    assert flagged.attention_reason == "refund_to_check"
    assert staff.get("/api/admin/dashboard").json()["attentionOrders"] == 1


def _refund(client, payment, *, tx_id, cents=None, of=1, success=True):
    """Paymob's refund or void: a transaction of its own, a child of transaction `of` (the payment's
    own is 1 in these tests), returning `cents` (all of the payment unless said)."""
    cents = int(payment.amount * 100) if cents is None else cents
    return _callback(client, payment, success=success, tx_id=tx_id, amount_cents=cents, has_parent_transaction=True,
                     is_refund=True, parent_transaction=of)


def _reported_again(client, payment, *, claimed_cents=None, **flag):
    """Paymob's second report of a refund or void: the payment's own transaction (1), flagged."""
    extra = {} if claimed_cents is None else {"refunded_amount_cents": claimed_cents}
    return _callback(client, payment, success=True, tx_id=1, **flag, **extra)


def _paid(client, api, make_product, checkout_body):
    """A paid card order of E£650 (transaction 1)."""
    _tea, payment = _place(api, make_product, checkout_body)
    _callback(client, payment, success=True, tx_id=1)
    return payment


def _flagged():
    order = Order.objects.get()
    return order.needs_attention and order.attention_reason == "refund_to_check"


def test_what_a_partly_refunded_order_kept_is_its_revenue_everywhere_staff_read_it(
        client, api, owner, make_product, checkout_body, fake_paymob):
    # given a paid order of E£650
    payment = _paid(client, api, make_product, checkout_body)
    staff = _staff_alerts(owner)
    staff.get("/api/admin/analytics?period=30d")  # its month's sums cached before the refund
    # when E£100 of it is refunded
    _refund(client, payment, tx_id=2, cents=10000)
    # then the overview, analytics, the daily summary and the customer directory count the E£550 it kept
    assert staff.get("/api/admin/dashboard").json()["totalRevenue"] == "550.00"
    figures = staff.get("/api/admin/analytics?period=30d").json()["data"]["orders"]
    assert (figures["revenueThisMonth"], figures["ordersThisMonth"]) == ("550.00", 1)
    assert figures["dailyOrders"][-1]["revenue"] == "550.00"
    assert daily_summary_figures()["revenue"] == Decimal("550.00")
    buyer, = staff.get("/api/admin/customers").json()["results"]
    assert buyer["totalSpent"] == "550.00"
    # and the order shows its total and what was refunded, on its page and in the CSV
    order = staff.get(f"/api/admin/orders/{payment.order_id}").json()
    assert (order["total"], order["refunded"], order["paymentStatus"]) == ("650.00", "100.00", "paid")
    row, = csv.DictReader(io.StringIO(b"".join(staff.get("/api/admin/orders/export").streaming_content)
                                      .decode("utf-8-sig")))
    assert (row["total"], row["refunded"]) == ("650.00", "100.00")
    # and cancelled, it owes back what it kept
    staff.put(f"/api/admin/orders/{payment.order_id}/status", {"status": "cancelled"}, content_type="application/json")
    assert staff.get("/api/admin/dashboard").json()["capturedOnCancelled"] == "550.00"


@pytest.mark.parametrize("reports", ["refund transaction", "both", "both, reversed", "void"])
def test_a_full_refund_or_void_marks_a_paid_payment_refunded_however_paymob_reports_it(
        client, api, make_product, checkout_body, fake_paymob, reports):
    # given a paid order
    payment = _paid(client, api, make_product, checkout_body)
    full = int(payment.amount * 100)
    # when Paymob reports all of it returned: the refund's own transaction, with or without the payment
    # sent again flagged refunded (in either order), or the payment flagged voided
    answers = {
        "refund transaction": lambda: [_refund(client, payment, tx_id=2)],
        "both": lambda: [_refund(client, payment, tx_id=2),
                         _reported_again(client, payment, claimed_cents=full, is_refunded=True)],
        "both, reversed": lambda: [_reported_again(client, payment, claimed_cents=full, is_refunded=True),
                                   _refund(client, payment, tx_id=2)],
        "void": lambda: [_reported_again(client, payment, is_voided=True)],
    }[reports]()
    # then every report is acknowledged, and the payment and its order are refunded; the order, not shipped
    # yet, is flagged once so that staff cancel it rather than send it
    assert [answer.status_code for answer in answers] == [200] * len(answers)
    payment.refresh_from_db()
    assert payment.status == PaymentStatus.REFUNDED
    order = Order.objects.get()
    assert order.payment_status == PaymentStatus.REFUNDED and order.status == OrderStatus.PROCESSING
    assert (order.needs_attention, order.attention_reason) == (True, "refunded_unshipped")
    # and the audit log has one entry for it: the refund, and that it came before the order shipped
    assert _audited("order.refunded_unshipped") == [
        "650.00 EGP returned through the payment provider; all of its 650.00 EGP is refunded now, before it "
        "shipped. Cancel it, or ship it only if the customer pays again."]
    assert not AuditEntry.objects.filter(action="order.refunded").exists()


def test_a_partial_refund_keeps_the_payment_paid_and_is_recorded_until_the_rest_is_returned(
        client, api, make_product, checkout_body, fake_paymob):
    # given a paid order of E£650
    payment = _paid(client, api, make_product, checkout_body)
    # when E£100 is refunded (Paymob's refund transaction, then the payment sent again with that total)
    first = _refund(client, payment, tx_id=2, cents=10000)
    again = _reported_again(client, payment, claimed_cents=10000, is_refunded=True)
    # then it is recorded once for staff; the order stays paid, nothing to check
    assert (first.status_code, again.status_code) == (200, 200)
    payment.refresh_from_db()
    assert payment.status == PaymentStatus.PAID and Order.objects.get().payment_status == PaymentStatus.PAID
    assert [entry.details.split(": ")[1] for entry in AuditEntry.objects.filter(action="order.partly_refunded")] == [
        "100.00 of 650.00 EGP returned through the payment provider; the rest stays paid."]
    assert not _flagged()
    # and once E£200 more and then the other E£350 are refunded, the payment is refunded
    _refund(client, payment, tx_id=3, cents=20000)
    _reported_again(client, payment, claimed_cents=30000, is_refunded=True)
    assert Payment.objects.get().status == PaymentStatus.PAID
    _refund(client, payment, tx_id=4, cents=35000)
    assert Payment.objects.get().status == PaymentStatus.REFUNDED
    assert AuditEntry.objects.filter(action="order.partly_refunded").count() == 2


@pytest.mark.parametrize("report", ["refund transaction", "payment reported refunded", "payment reported voided"])
@pytest.mark.parametrize("before", [None, False], ids=["awaiting", "declined"])
def test_money_returned_for_a_payment_never_recorded_as_paid_is_flagged_and_marks_nothing_paid(
        client, api, make_product, checkout_body, fake_paymob, report, before):
    # given a card payment still awaiting (its success callback missed), or declined
    _tea, payment = _place(api, make_product, checkout_body)
    if before is not None:
        _callback(client, payment, success=before, tx_id=1)
    status_before = Payment.objects.get().status
    order_before = Order.objects.values("status", "payment_status").get()
    mails_before = OutboundEmail.objects.count()
    # when a signed report of the money returned arrives
    response = {"refund transaction": lambda: _refund(client, payment, tx_id=2),
                "payment reported refunded": lambda: _reported_again(client, payment, is_refunded=True),
                "payment reported voided": lambda: _reported_again(client, payment, is_voided=True)}[report]()
    # then it is acknowledged, nothing is paid and no e-mail queued; the order is flagged for staff
    assert response.status_code == 200
    assert Payment.objects.get().status == status_before != PaymentStatus.PAID
    assert Order.objects.values("status", "payment_status").get() == order_before
    assert OutboundEmail.objects.count() == mails_before
    assert _flagged()
    assert AuditEntry.objects.filter(action="order.refund_to_check").count() == 1


@pytest.mark.parametrize("refunded", [65000, 10000], ids=["all of it", "part of it"])
def test_a_success_arriving_after_its_refund_is_settled_by_it_and_stays_flagged(
        client, api, make_product, checkout_body, fake_paymob, refunded):
    # given a refund reported for a payment whose success callback has not arrived yet
    _tea, payment = _place(api, make_product, checkout_body)
    _refund(client, payment, tx_id=2, cents=refunded)
    # when the success arrives after all
    _callback(client, payment, success=True, tx_id=1)
    # then the refund counts: a full one refunds the payment, and the order is flagged not to be shipped; a
    # part is recorded, and the order stays flagged for staff to check in Paymob before shipping it
    expected = PaymentStatus.REFUNDED if refunded == 65000 else PaymentStatus.PAID
    assert Payment.objects.get().status == expected
    order = Order.objects.get()
    assert order.payment_status == expected and order.needs_attention
    # (the return to check raised before the success stays open beside the later flag, never replaced by it)
    assert order.attention_reasons == (
        ["refund_to_check", "refunded_unshipped"] if refunded == 65000 else ["refund_to_check"])
    assert AuditEntry.objects.filter(action="order.partly_refunded").exists() == (refunded == 10000)


def test_a_void_arriving_before_its_success_is_settled_by_it(client, api, make_product, checkout_body, fake_paymob):
    # given the payment's transaction reported voided before it was reported paid (the callbacks crossed)
    _tea, payment = _place(api, make_product, checkout_body)
    _callback(client, payment, success=True, tx_id=1, is_voided=True)
    # when the success arrives
    _callback(client, payment, success=True, tx_id=1)
    # then the void counts, as it would had it come second: refunded, and flagged not to be shipped
    order = Order.objects.get()
    assert Payment.objects.get().status == order.payment_status == PaymentStatus.REFUNDED
    assert order.refunded_amount == order.total_amount
    # the void that came first stays to check in Paymob beside it
    assert (order.needs_attention, order.attention_reasons) == (True, ["refund_to_check", "refunded_unshipped"])


def test_a_second_payment_for_a_paid_order_is_flagged_for_staff(
        client, api, owner, make_product, checkout_body, fake_paymob, django_capture_on_commit_callbacks):
    # given a paid card order (one hosted payment page open in two tabs)
    _tea, payment = _place(api, make_product, checkout_body)
    _callback(client, payment, success=True, tx_id=1)
    # when another transaction captures the same amount, and is reported again
    with django_capture_on_commit_callbacks(execute=True):
        assert _callback(client, payment, success=True, tx_id=2).status_code == 200
        _callback(client, payment, success=True, tx_id=2)
    # then the order stays paid, is flagged for staff to refund one payment, once, and the store is told
    order = Order.objects.get()
    assert (order.status, order.payment_status) == (OrderStatus.PROCESSING, PaymentStatus.PAID)
    assert (order.needs_attention, order.attention_reason) == (True, "paid_twice")
    assert AuditEntry.objects.filter(action="order.paid_twice").count() == 1
    assert [m.subject for m in mail.outbox if "paid twice" in m.subject] == [
        f"Action needed: order {order.number} was paid twice"]
    assert ("Refund one of the two payments in Paymob, then mark the second payment as checked on the order in "
            "the dashboard.") in next(m.body for m in mail.outbox if "paid twice" in m.subject)
    # and the capture of an earlier authorisation is not a second payment
    Order.objects.update(needs_attention=False, attention_reasons=[])
    _callback(client, payment, success=True, tx_id=3, has_parent_transaction=True, is_capture=True)
    assert not Order.objects.get().needs_attention


def test_a_refund_voided_the_same_day_returns_nothing(client, api, make_product, checkout_body, fake_paymob):
    # given a paid order of E£650, E£325 of it refunded
    payment = _paid(client, api, make_product, checkout_body)
    _refund(client, payment, tx_id=2, cents=32500)
    # when that refund is voided (a child of the refund: the refund sent again flagged voided is one more
    # report of it), and later the other E£325 is refunded
    _refund(client, payment, tx_id=3, cents=32500, of=2)
    _callback(client, payment, success=True, tx_id=2, amount_cents=32500, has_parent_transaction=True,
              is_voided=True, parent_transaction=1)
    _refund(client, payment, tx_id=4, cents=32500)
    # then E£325 has been returned in all: the payment stays paid, nothing flagged
    assert Payment.objects.get().status == PaymentStatus.PAID and not _flagged()
    assert [entry.details.split(": ")[1].split(" of")[0]
            for entry in AuditEntry.objects.filter(action="order.partly_refunded").order_by("pk")] == [
        "325.00", "325.00"]


@pytest.mark.parametrize("voided", ["the one refund of all of it", "the refund completing all of it"])
def test_a_full_refund_voided_afterwards_makes_the_payment_paid_again_and_flags_it_to_check(
        client, api, owner, make_product, checkout_body, fake_paymob, voided):
    # given a paid order of E£650 not shipped yet, refunded in full (at once, or E£100 and then E£550): flagged
    # for staff to cancel it rather than ship it
    payment = _paid(client, api, make_product, checkout_body)
    last, cents = {"the one refund of all of it": (2, 65000), "the refund completing all of it": (3, 55000)}[voided]
    if last == 3:
        _refund(client, payment, tx_id=2, cents=10000)
    _refund(client, payment, tx_id=last, cents=cents)
    assert Order.objects.get().attention_reasons == ["refunded_unshipped"]
    # when that last refund is voided in Paymob (the money stays with the shop after all), and the void replayed
    _void(client, payment, tx_id=4, of=last, cents=cents)
    # then the shop holds the money again: the payment and its order are paid, still to ship, and what is
    # still returned is recorded; staff are no longer told to cancel it, but to check the void in Paymob
    kept = Decimal({"the one refund of all of it": "0.00"}.get(voided, "100.00"))
    order = Order.objects.get()
    assert Payment.objects.get().status == order.payment_status == PaymentStatus.PAID
    assert (order.status, order.refunded_amount) == (OrderStatus.PROCESSING, kept)
    assert (order.needs_attention, order.attention_reasons) == (True, ["refund_to_check"])
    # and the dashboard says the same: paid, its revenue what it kept, the reason to check it
    staff = _staff_alerts(owner)
    shown = staff.get(f"/api/admin/orders/{payment.order_id}").json()
    assert (shown["paymentStatus"], shown["refunded"], shown["attentionReasons"]) == (
        "paid", str(kept), ["refund_to_check"])
    assert Decimal(staff.get("/api/admin/dashboard").json()["totalRevenue"]) == 650 - kept
    # and the void is audited once, saying the order is paid again
    assert _audited("order.refund_voided") == [
        f"a refund of {cents // 100}.00 EGP was voided in the payment provider; {kept} of 650.00 EGP is returned "
        f"now. The order is paid again."]


def test_a_refund_after_a_voided_full_refund_is_recorded_again(
        client, api, make_product, checkout_body, fake_paymob):
    # given a paid order of E£650 refunded in full, that refund voided since: paid again
    payment = _paid(client, api, make_product, checkout_body)
    _refund(client, payment, tx_id=2)
    _void(client, payment, tx_id=3, of=2, cents=65000)
    # when E£200 of it is refunded in Paymob, and that refund's callback replayed
    _refund(client, payment, tx_id=4, cents=20000)
    _refund(client, payment, tx_id=4, cents=20000)
    # then it is recorded, once: the order keeps paid, E£200 returned
    order = Order.objects.get()
    assert (Payment.objects.get().status, order.payment_status, order.refunded_amount) == (
        PaymentStatus.PAID, PaymentStatus.PAID, Decimal("200.00"))
    assert _audited("order.partly_refunded") == [
        "200.00 of 650.00 EGP returned through the payment provider; the rest stays paid."]
    # and once the other E£450 is refunded, the payment is refunded again and the order flagged not to ship
    _refund(client, payment, tx_id=5, cents=45000)
    order = Order.objects.get()
    assert Payment.objects.get().status == order.payment_status == PaymentStatus.REFUNDED
    assert order.refunded_amount == 650
    assert order.attention_reasons == ["refund_to_check", "refunded_unshipped"]
    assert AuditEntry.objects.filter(action="order.refunded_unshipped").count() == 2


def test_a_full_refund_voided_after_staff_cancelled_the_order_is_a_refund_due_again(
        client, api, owner, make_product, checkout_body, fake_paymob):
    # given a paid order of E£650 refunded in full, then cancelled by staff as its flag asked (stock back)
    payment = _paid(client, api, make_product, checkout_body)
    _refund(client, payment, tx_id=2)
    staff = _staff_alerts(owner)
    staff.put(f"/api/admin/orders/{payment.order_id}/status", {"status": "cancelled"}, content_type="application/json")
    assert not AuditEntry.objects.filter(action="order.refund_due").exists()
    # when that refund is voided in Paymob, and the void replayed
    _void(client, payment, tx_id=3, of=2, cents=65000)
    # then the cancelled order holds money paid again: a refund is due, once, beside the void to check
    order = Order.objects.get()
    assert (order.status, order.payment_status) == (OrderStatus.CANCELLED, PaymentStatus.PAID)
    assert order.attention_reasons == ["refund_to_check", "refund_due"]
    assert _audited("order.refund_due") == [
        "cancelled with 650.00 EGP paid. Refund it in the payment provider's dashboard."]
    assert staff.get("/api/admin/dashboard").json()["capturedOnCancelled"] == "650.00"
    # when it is refunded again, then the refund due is settled and the void stays to check
    _refund(client, payment, tx_id=4)
    order = Order.objects.get()
    assert (order.payment_status, order.refunded_amount, order.attention_reasons) == (
        PaymentStatus.REFUNDED, 650, ["refund_to_check"])


def _void(client, payment, *, tx_id, of, cents):
    """Paymob's void of refund `of` (returning `cents`), replayed: its own transaction, a child of the refund,
    and the refund sent again flagged voided, each sent twice."""
    for _ in range(2):
        _refund(client, payment, tx_id=tx_id, cents=cents, of=of)
        _callback(client, payment, success=True, tx_id=of, amount_cents=cents, has_parent_transaction=True,
                  is_voided=True, parent_transaction=1)


def _audited(action):
    """The details of each audit entry `action`, oldest first, without the order number that opens them."""
    return [entry.details.split(": ", 1)[1] for entry in AuditEntry.objects.filter(action=action).order_by("pk")]


@pytest.mark.parametrize("voided", ["the only refund", "one of two refunds", "the refund completing all of it"])
def test_a_refund_voided_is_audited_once_whatever_it_leaves_returned(
        client, api, make_product, checkout_body, fake_paymob, voided):
    # given a paid order of E£650, E£100 of it refunded, and E£200 or all the other E£550 more (or not)
    payment = _paid(client, api, make_product, checkout_body)
    _refund(client, payment, tx_id=2, cents=10000)
    last, cents = {"the only refund": (2, 10000), "one of two refunds": (3, 20000),
                   "the refund completing all of it": (3, 55000)}[voided]
    if last == 3:
        _refund(client, payment, tx_id=3, cents=cents)
    refunds_audited = _audited("order.partly_refunded")
    # when the last refund is voided in Paymob, and the void replayed
    _void(client, payment, tx_id=4, of=last, cents=cents)
    # then one audit entry records it: the amount that stays with the shop, and what is returned now
    left = {"the only refund": "0.00"}.get(voided, "100.00")
    paid_again = " The order is paid again." if voided == "the refund completing all of it" else ""
    assert _audited("order.refund_voided") == [
        f"a refund of {cents // 100}.00 EGP was voided in the payment provider; {left} of 650.00 EGP is returned "
        f"now.{paid_again}"]
    assert _audited("order.partly_refunded") == refunds_audited  # a void is no refund
    assert Order.objects.get().refunded_amount == Decimal(left)


@pytest.mark.parametrize("then", ["the payment voided", "the refund voided twice"])
def test_a_void_after_a_full_refund_never_records_less_than_what_came_back(
        client, api, make_product, checkout_body, fake_paymob, then):
    # given a paid order of E£650, refunded in full: its transaction voided after E£100 was refunded, or one
    # refund of all of it voided (its void told once)
    payment = _paid(client, api, make_product, checkout_body)
    if then == "the payment voided":
        _refund(client, payment, tx_id=2, cents=10000)
        _reported_again(client, payment, is_voided=True)
    else:
        _refund(client, payment, tx_id=2)
        _void(client, payment, tx_id=3, of=2, cents=65000)
    before = (Order.objects.get().refunded_amount, OutboundEmail.objects.count(), AuditEntry.objects.count())
    # when Paymob reports (another) void of that refund
    _refund(client, payment, tx_id=4, cents=10000 if then == "the payment voided" else 65000, of=2)
    # then nothing more is recorded or mailed; the order is flagged again for staff to check it, whether the
    # payment is refunded or paid again since the first void
    assert (Order.objects.get().refunded_amount, OutboundEmail.objects.count()) == before[:2]
    assert AuditEntry.objects.count() == before[2] + 1
    assert AuditEntry.objects.latest("pk").action == "order.refund_to_check"
    assert _flagged()
    assert Order.objects.get().refunded_amount == (650 if then == "the payment voided" else 0)


def test_a_full_refund_of_a_delivered_order_is_audited_once(client, api, make_product, checkout_body, fake_paymob):
    # given a paid order of E£650, delivered, E£100 of it refunded
    payment = _paid(client, api, make_product, checkout_body)
    Order.objects.update(status=OrderStatus.DELIVERED)
    _refund(client, payment, tx_id=2, cents=10000)
    # when the other E£550 is refunded, and that refund's callback replayed
    _refund(client, payment, tx_id=3, cents=55000)
    _refund(client, payment, tx_id=3, cents=55000)
    # then the audit log has that refund too (no flag records it: the order is no longer to ship)
    assert _audited("order.refunded") == [
        "550.00 EGP returned through the payment provider; all of its 650.00 EGP is refunded now."]
    assert not AuditEntry.objects.filter(action="order.refunded_unshipped").exists()


@pytest.mark.parametrize("claimed", [65000, "650.00", "²"], ids=["all of it", "not a number", "a digit that is not"])
def test_a_refund_total_the_signature_does_not_cover_never_refunds_a_payment(
        client, api, make_product, checkout_body, fake_paymob, claimed):
    # given a paid order of E£650, E£325 of it refunded
    payment = _paid(client, api, make_product, checkout_body)
    _refund(client, payment, tx_id=2, cents=32500)
    # when the payment is reported again claiming, unsigned, some other total
    response = _reported_again(client, payment, claimed_cents=claimed, is_refunded=True)
    # then that is recorded and changes nothing
    assert response.status_code == 200
    assert Payment.objects.get().status == PaymentStatus.PAID and not _flagged()


def test_partial_refund_reports_in_either_order_flag_nothing(client, api, make_product, checkout_body, fake_paymob):
    # given a paid order
    payment = _paid(client, api, make_product, checkout_body)
    # when Paymob's second report of a partial refund arrives before the refund's own transaction
    _reported_again(client, payment, claimed_cents=10000, is_refunded=True)
    _refund(client, payment, tx_id=2, cents=10000)
    # then the partial refund is recorded and nothing is flagged
    assert Payment.objects.get().status == PaymentStatus.PAID and not _flagged()
    assert AuditEntry.objects.filter(action="order.partly_refunded").count() == 1


def test_a_failed_refund_changes_nothing(client, api, make_product, checkout_body, fake_paymob):
    # given a paid order
    payment = _paid(client, api, make_product, checkout_body)
    # when a refund is reported failed
    response = _refund(client, payment, tx_id=2, success=False)
    # then
    assert response.status_code == 200
    assert Payment.objects.get().status == PaymentStatus.PAID and not _flagged()


def test_a_refund_of_more_than_was_paid_is_refused(client, api, make_product, checkout_body, fake_paymob):
    # given a paid order
    payment = _paid(client, api, make_product, checkout_body)
    # when a refund transaction claims more than the payment
    response = _refund(client, payment, tx_id=2, cents=int(payment.amount * 100) + 1)
    # then it is refused and nothing changes
    assert response.status_code == 400
    assert Payment.objects.get().status == PaymentStatus.PAID and not _flagged()


def _stale(api, make_product, checkout_body):
    tea, payment = _place(api, make_product, checkout_body)
    Order.objects.update(created_at=timezone.now() - timedelta(minutes=31))
    return tea, payment


def test_an_order_paid_after_the_expiry_job_read_it_is_kept(api, make_product, checkout_body, fake_paymob):
    # given the expiry job has read a stale order
    tea, _payment = _stale(api, make_product, checkout_body)
    read_by_the_job = Order.objects.get()
    # when its payment is recorded before the job cancels it
    order_mark_paid(order=Order.objects.get())
    # then the job leaves it: paid, processing, its stock still taken
    assert order_expire_unpaid(order=read_by_the_job, note="Unpaid for 30 minutes") is False
    order = Order.objects.get()
    assert (order.status, order.payment_status) == (OrderStatus.PROCESSING, PaymentStatus.PAID)
    tea.refresh_from_db()
    assert tea.stock == 8


def test_the_expiry_job_keeps_an_order_whose_callback_lands_while_it_runs(
        client, api, make_product, checkout_body, fake_paymob, monkeypatch):
    # given Paymob's callback arrives between the job's read of the stale orders and their cancelling
    tea, payment = _stale(api, make_product, checkout_body)
    expire = tasks.order_expire_unpaid

    def callback_first(*, order, note):
        _callback(client, payment, success=True, tx_id=9)
        return expire(order=order, note=note)

    monkeypatch.setattr(tasks, "order_expire_unpaid", callback_first)
    # when
    expired = orders_expire_unpaid()
    # then
    assert expired == 0
    order = Order.objects.get()
    assert (order.status, order.payment_status, order.needs_attention) == (
        OrderStatus.PROCESSING, PaymentStatus.PAID, False)
    tea.refresh_from_db()
    assert tea.stock == 8


def test_the_expiry_job_asks_paymob_before_cancelling(api, make_product, checkout_body, fake_paymob):
    # given a stale order whose payment went through but whose callback never came
    tea, payment = _stale(api, make_product, checkout_body)
    fake_paymob.inquiry = {
        "id": 31, "pending": False, "amount_cents": int(payment.amount * 100), "success": True,
        "is_voided": False, "is_refunded": False, "currency": "EGP",
        "order": {"id": int(payment.provider_order_id)}, "created_at": "2026-11-21T20:00:00.123456",
    }
    # when
    expired = orders_expire_unpaid()
    # then the payment is recorded and the order goes on
    assert expired == 0
    order = Order.objects.get()
    assert (order.status, order.payment_status) == (OrderStatus.PROCESSING, PaymentStatus.PAID)
    assert PaymentEvent.objects.get().kind == "inquiry"
    tea.refresh_from_db()
    assert tea.stock == 8


@pytest.mark.parametrize("mode", ["error", "malformed"])
def test_the_expiry_job_keeps_an_order_while_paymob_cannot_say_whether_it_was_paid(
        api, make_product, checkout_body, fake_paymob, mode):
    # given a stale order whose payment went through, whose callback never came, and a Paymob that is down
    tea, payment = _stale(api, make_product, checkout_body)
    fake_paymob.mode = mode
    # when the expiry job runs
    expired = orders_expire_unpaid()
    # then the order is kept, its stock still held: cancelled now, with its payment never asked about again,
    # the customer's money would be in Paymob and the order cancelled without a word to staff
    assert expired == 0
    assert Order.objects.get().status == OrderStatus.PENDING
    tea.refresh_from_db()
    assert tea.stock == 8
    # when Paymob answers at a later run
    fake_paymob.mode = "ok"
    fake_paymob.inquiry = {
        "id": 31, "pending": False, "amount_cents": int(payment.amount * 100), "success": True,
        "is_voided": False, "is_refunded": False, "currency": "EGP",
        "order": {"id": int(payment.provider_order_id)}, "created_at": "2026-11-21T20:00:00.123456",
    }
    assert orders_expire_unpaid() == 0
    # then the payment is recorded and the order goes on
    order = Order.objects.get()
    assert (order.status, order.payment_status) == (OrderStatus.PROCESSING, PaymentStatus.PAID)


def test_a_paymob_that_is_down_is_asked_once_per_run_not_once_per_stale_order(
        api, make_product, checkout_body, fake_paymob):
    # given two stale orders of two shoppers and a Paymob that is down
    _stale(api, make_product, checkout_body)
    other, tea = APIClient(), make_product(price="300.00", stock=10)
    other.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, format="json")
    assert other.post("/api/payment/create-intention", checkout_body(paymentMethod="card"),
                      format="json").status_code == 201
    Order.objects.update(created_at=timezone.now() - timedelta(minutes=31))
    fake_paymob.mode = "error"
    asked_before = len(fake_paymob.requests)
    # when the expiry job runs
    assert orders_expire_unpaid() == 0
    # then it gave up on Paymob at its first failure (a hanging one costs PAYMOB_TIMEOUT a call) and kept both
    assert len(fake_paymob.requests) - asked_before == 1
    assert set(Order.objects.values_list("status", flat=True)) == {"pending"}


def test_an_order_paymob_never_answers_about_expires_when_a_pending_one_would(
        api, make_product, checkout_body, fake_paymob, settings):
    # given a stale order and a Paymob that stays down
    tea, _payment = _stale(api, make_product, checkout_body)
    fake_paymob.mode = "error"
    # when it has been down for as long as a kiosk payment is waited for
    Order.objects.update(created_at=timezone.now() - timedelta(hours=settings.PAYMOB_PENDING_HOURS, minutes=1))
    expired = orders_expire_unpaid()
    # then the order expires (a late payment is flagged for staff), and its history says why it waited
    assert expired == 1
    order = Order.objects.get()
    assert order.status == OrderStatus.CANCELLED
    assert order.status_changes.filter(note__contains="Paymob could not be asked").exists()
    tea.refresh_from_db()
    assert tea.stock == 10


def test_a_decline_for_an_order_staff_already_shipped_never_puts_its_stock_back(
        client, api, owner, make_product, checkout_body, fake_paymob):
    # given a card order awaiting its payment that staff shipped anyway (the customer said they paid)
    from orders.actions import order_set_status

    tea, payment = _place(api, make_product, checkout_body)
    order_set_status(order=payment.order, status=OrderStatus.SHIPPED, actor=owner)
    # when Paymob reports the card declined
    assert _callback(client, payment, success=False, tx_id=1).status_code == 200
    # then the decline is recorded, but the order staff sent out is not cancelled behind their back: its
    # two packs left the shop, so they do not come back into stock to be sold again
    order = Order.objects.get()
    assert (order.status, order.payment_status) == (OrderStatus.SHIPPED, PaymentStatus.FAILED)
    tea.refresh_from_db()
    assert tea.stock == 8
    assert order.status_changes.filter(note="Payment declined (1)").exists()  # staff read it in its history


def test_the_return_page_never_tells_a_payer_whose_order_was_cancelled_that_it_is_confirmed(
        client, api, make_product, checkout_body, fake_paymob):
    # given a shopper whose first card was declined (the order cancelled) and whose second card on the same
    # Paymob page went through, and an order paid the ordinary way
    _tea, payment = _place(api, make_product, checkout_body)
    _callback(client, payment, success=False, tx_id=1)
    _callback(client, payment, success=True, tx_id=2)
    # when the return page asks about it
    answer = api.get(f"/api/payment/verify/{payment.payment_id}").json()
    # then the server says the money arrived and that the order is cancelled, for the page to say so (as
    # the e-mail does) rather than "Your order is confirmed and ships within 1-2 business days"
    assert (answer["confirmed"], answer["orderCancelled"]) == (True, True)
    # and the cart is left as the callback left it: nothing is on its way until staff restore the order
    assert api.get("/api/cart").json()["itemCount"] == 2
    Order.objects.update(status=OrderStatus.PROCESSING)
    assert api.get(f"/api/payment/verify/{payment.payment_id}").json()["orderCancelled"] is False


def test_money_taken_in_another_amount_is_flagged_for_staff_not_dropped(
        client, api, manager, make_product, checkout_body, fake_paymob):
    # given a card order of E£650, and Paymob reporting (signed) a successful payment of E£1 for it
    _tea, payment = _place(api, make_product, checkout_body)
    obj_cents = 100
    # when the report comes, and comes again
    first = _callback(client, payment, success=True, tx_id=7, amount_cents=obj_cents)
    again = _callback(client, payment, success=True, tx_id=7, amount_cents=obj_cents)
    # then it is acknowledged and recorded once; the order is not paid (that is not what it costs), and
    # staff are told to check it in Paymob, where the money is, rather than it living in a log line only
    assert (first.status_code, again.status_code) == (200, 200)
    order = Order.objects.get()
    assert (order.payment_status, Payment.objects.get().status) == (PaymentStatus.AWAITING, PaymentStatus.AWAITING)
    assert order.attention_reasons == ["amount_to_check"]
    assert AuditEntry.objects.filter(action="order.amount_to_check").count() == 1
    assert PaymentEvent.objects.count() == 1
    staff = _staff_alerts(manager)
    assert staff.get(f"/api/admin/orders/{order.pk}").json()["attentionToCheck"] == ["amount_to_check"]
    # and once checked in Paymob, staff say so
    assert staff.post(f"/api/admin/orders/{order.pk}/checked", {"reason": "amount_to_check"},
                      content_type="application/json").status_code == 200
    assert not Order.objects.get().needs_attention
    # while a declined report of another amount took no money, and is still refused
    assert _callback(client, payment, success=False, tx_id=8, amount_cents=obj_cents).status_code == 400


def _refund_mails():
    """How many e-mails are queued (a refund, or a void, each tells the customer once)."""
    return OutboundEmail.objects.count()


def test_after_a_full_refund_voided_a_void_of_another_refund_is_applied_once(
        client, api, make_product, checkout_body, fake_paymob):
    # given a paid order of E£650 refunded in full by two refunds (E£100, then E£550), the second voided since:
    # paid again, E£100 returned
    payment = _paid(client, api, make_product, checkout_body)
    _refund(client, payment, tx_id=2, cents=10000)
    _refund(client, payment, tx_id=3, cents=55000)
    _void(client, payment, tx_id=4, of=3, cents=55000)
    assert (Payment.objects.get().status, Order.objects.get().refunded_amount) == (PaymentStatus.PAID, 100)
    mails, voids = _refund_mails(), _audited("order.refund_voided")
    # when the first refund is voided too (another refund transaction), its callbacks replayed
    _void(client, payment, tx_id=5, of=2, cents=10000)
    # then it is applied, once: nothing is returned now, the customer is told once, and it is audited once
    order = Order.objects.get()
    assert (Payment.objects.get().status, order.payment_status, order.refunded_amount) == (
        PaymentStatus.PAID, PaymentStatus.PAID, 0)
    assert _refund_mails() == mails + 1
    assert _audited("order.refund_voided") == [*voids, "a refund of 100.00 EGP was voided in the payment "
                                                       "provider; 0.00 of 650.00 EGP is returned now."]


@pytest.mark.parametrize("paid_again", [True, False], ids=["after a full refund voided", "of a part refunded"])
def test_a_second_void_transaction_of_a_refund_already_voided_returns_nothing_and_is_flagged(
        client, api, make_product, checkout_body, fake_paymob, paid_again):
    # given a paid order of E£650, E£100 refunded and E£550 (or E£200) more, that second refund voided since:
    # E£100 returned, the payment paid
    payment = _paid(client, api, make_product, checkout_body)
    cents = 55000 if paid_again else 20000
    _refund(client, payment, tx_id=2, cents=10000)
    _refund(client, payment, tx_id=3, cents=cents)
    _void(client, payment, tx_id=4, of=3, cents=cents)
    Order.objects.update(needs_attention=False, attention_reasons=[])  # the first void's check, done
    mails, audits = _refund_mails(), AuditEntry.objects.count()
    # when Paymob reports another transaction voiding that voided refund, replayed
    _refund(client, payment, tx_id=5, cents=cents, of=3)
    _refund(client, payment, tx_id=5, cents=cents, of=3)
    # then the E£100 of the first refund is still returned and nobody is told otherwise; staff are asked,
    # once, to check it in Paymob, whatever the payment's state
    order = Order.objects.get()
    assert (Payment.objects.get().status, order.refunded_amount) == (PaymentStatus.PAID, 100)
    assert _refund_mails() == mails
    assert order.attention_reasons == ["refund_to_check"]
    assert AuditEntry.objects.count() == audits + 1
    assert AuditEntry.objects.latest("pk").action == "order.refund_to_check"


def test_a_second_void_of_a_voided_refund_never_undoes_a_later_refund(
        client, api, make_product, checkout_body, fake_paymob):
    # given a paid order of E£650 refunded in full, that refund voided (paid again), then refunded in full again
    payment = _paid(client, api, make_product, checkout_body)
    _refund(client, payment, tx_id=2)
    _void(client, payment, tx_id=3, of=2, cents=65000)
    _refund(client, payment, tx_id=4)
    assert Payment.objects.get().status == PaymentStatus.REFUNDED
    mails = _refund_mails()
    # when another transaction voids the first refund, voided already
    _refund(client, payment, tx_id=5, of=2)
    # then the second refund still returns all of it: refunded, nobody told otherwise, staff asked to check
    order = Order.objects.get()
    assert (Payment.objects.get().status, order.payment_status, order.refunded_amount) == (
        PaymentStatus.REFUNDED, PaymentStatus.REFUNDED, 650)
    assert _refund_mails() == mails
    assert "refund_to_check" in order.attention_reasons
    assert AuditEntry.objects.latest("pk").action == "order.refund_to_check"


def test_refunds_made_after_a_refund_voided_twice_count_in_full(
        client, api, make_product, checkout_body, fake_paymob):
    # given a paid order of E£650, E£100 refunded, and E£200 refunded and voided by two transactions
    payment = _paid(client, api, make_product, checkout_body)
    _refund(client, payment, tx_id=2, cents=10000)
    _refund(client, payment, tx_id=3, cents=20000)
    _void(client, payment, tx_id=4, of=3, cents=20000)
    _refund(client, payment, tx_id=5, cents=20000, of=3)
    # when the other E£550 is refunded
    _refund(client, payment, tx_id=6, cents=55000)
    # then all of it is returned: the second void took nothing off the refunds that still stand
    order = Order.objects.get()
    assert (Payment.objects.get().status, order.refunded_amount) == (PaymentStatus.REFUNDED, 650)
