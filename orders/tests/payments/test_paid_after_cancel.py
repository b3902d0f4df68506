"""Money captured on a cancelled order (success after a decline, or after expiry) is never silent."""

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from backoffice.models import AuditEntry
from orders.models import Order, OrderStatus, Payment, PaymentEvent, PaymentStatus
from orders.payments.paymob import hmac_sign
from orders.tasks import orders_expire_unpaid
from shop.store_settings import store_settings_update

pytestmark = pytest.mark.django_db


def _place(api, make_product, checkout_body):
    tea = make_product(price="300.00", stock=10)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, format="json")
    response = api.post("/api/payment/create-intention", checkout_body(paymentMethod="card"), format="json")
    assert response.status_code == 201, response.content
    return tea, Payment.objects.get()


def _callback(client, payment, *, success, tx_id):
    obj = {
        "id": tx_id, "pending": False, "amount_cents": int(payment.amount * 100), "success": success,
        "is_auth": False, "is_capture": False, "is_standalone_payment": True, "is_voided": False,
        "is_refunded": False, "is_3d_secure": True, "integration_id": 4097558, "profile_id": 1,
        "has_parent_transaction": False, "order": {"id": int(payment.provider_order_id)},
        "created_at": "2026-11-21T20:00:00.123456", "currency": "EGP", "error_occured": False, "owner": 1,
        "source_data": {"pan": "2346", "type": "card", "sub_type": "MasterCard"},
    }
    return client.post(f"/payment/callback/paymob?hmac={hmac_sign(obj, 'test_hmac_secret')}",
                       data=json.dumps({"type": "TRANSACTION", "obj": obj}), content_type="application/json")


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
