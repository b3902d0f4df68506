"""A status change carries a staff note and, at shipped, a tracking number: stored and shown in the order detail."""

import pytest

from backoffice.models import AuditEntry
from orders.models import Order, OrderStatusChange
from orders.tracking import Shipment, shipment_of
from shop.models import OutboundEmail
from tests.factories import make_order, make_product

pytestmark = pytest.mark.django_db


def _put(client, order, **body):
    return client.put(f"/api/admin/orders/{order.pk}/status", body, content_type="application/json")


def test_shipping_with_a_tracking_number_and_a_note_shows_both_in_the_detail(client, manager):
    # given
    order = make_order(lines=[(make_product(price="150"), 1)])
    client.force_login(manager)
    # when
    response = _put(client, order, status="shipped", note="  Left with the doorman  ", trackingNumber="EG123456789")
    # then
    assert response.status_code == 200
    history = client.get(f"/api/admin/orders/{order.pk}").json()["history"]
    assert (history[-1]["toStatus"], history[-1]["note"], history[-1]["trackingNumber"]) == (
        "shipped", "Left with the doorman", "EG123456789")


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_tracking_number_is_refused_with_any_other_status(client, manager, language):
    # given
    order = make_order()
    client.force_login(manager)
    # when
    response = client.put(f"/api/admin/orders/{order.pk}/status", {"status": "delivered", "trackingNumber": "X1"},
                          content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)
    # then
    assert response.status_code == 400 and response.json()["field"] == "trackingNumber"
    assert response.json()["message"] == {
        "en": "A tracking number goes with the shipped status only",
        "ar": "رقم التتبع يُضاف مع حالة الشحن فقط"}[language]
    assert Order.objects.get(pk=order.pk).status == "processing"


def test_a_note_with_control_characters_is_refused(client, manager):
    # given
    order = make_order()
    client.force_login(manager)
    # when
    response = _put(client, order, status="cancelled", note="bad\x07note")
    # then
    assert response.status_code == 400 and response.json()["field"] == "note"
    assert not OrderStatusChange.objects.filter(order=order, to_status="cancelled").exists()


def test_a_bulk_change_records_its_note_on_every_order(client, manager):
    # given
    orders = [make_order(), make_order()]
    client.force_login(manager)
    # when
    response = client.put("/api/admin/bulk/orders", {"orderIds": [o.pk for o in orders], "status": "delivered",
                                                     "note": "Courier run 12"}, content_type="application/json")
    # then
    assert response.json()["updated"] == 2
    delivered = OrderStatusChange.objects.filter(to_status="delivered")
    assert list(delivered.values_list("note", flat=True)) == ["Courier run 12", "Courier run 12"]


def test_a_tracking_number_for_an_order_already_shipped_is_kept_and_the_customer_told(client, support):
    # given: shipped with a courier, the tracking number not booked yet
    order = make_order(status="shipped")
    client.force_login(support)
    _put(client, order, status="processing")
    _put(client, order, status="shipped", courier="Bosta")
    emails = OutboundEmail.objects.count()
    # when: the tracking number comes with the status the order already has
    response = _put(client, order, status="shipped", trackingNumber="EG123456789")
    # then: kept with the courier given before, shown to the customer, who is told as at shipping
    assert response.status_code == 200
    change = OrderStatusChange.objects.filter(order=order).last()
    assert (change.from_status, change.to_status, change.tracking_number, change.courier) == (
        "shipped", "shipped", "EG123456789", "Bosta")
    assert shipment_of(order) == Shipment(tracking_number="EG123456789", courier="Bosta", note="")
    assert OutboundEmail.objects.count() == emails + 1
    assert "EG123456789" in OutboundEmail.objects.order_by("pk").last().text
    assert AuditEntry.objects.filter(action="order.shipment", details=f"{order.number}: EG123456789").exists()
    # when: the same details are sent again (a double click)
    again = _put(client, order, status="shipped", trackingNumber="EG123456789")
    # then: nothing more recorded or sent
    assert again.status_code == 200
    assert OrderStatusChange.objects.filter(order=order, tracking_number="EG123456789").count() == 1
    assert OutboundEmail.objects.count() == emails + 1


def test_a_note_with_the_current_status_is_recorded_without_telling_the_customer(client, support):
    # given: an order shipped with a tracking number
    order = make_order()
    client.force_login(support)
    _put(client, order, status="shipped", trackingNumber="EG1")
    emails = OutboundEmail.objects.count()
    # when: a staff note alone, with the status it has
    response = _put(client, order, status="shipped", note="Customer called: leave it at the pharmacy")
    # then: the note is in the history; the shipment and the customer's inbox are as they were
    assert response.status_code == 200
    history = client.get(f"/api/admin/orders/{order.pk}").json()["history"]
    assert (history[-1]["fromStatus"], history[-1]["toStatus"], history[-1]["note"]) == (
        "shipped", "shipped", "Customer called: leave it at the pharmacy")
    assert shipment_of(order).tracking_number == "EG1"
    assert OutboundEmail.objects.count() == emails
    assert AuditEntry.objects.filter(action="order.note").exists()


def test_the_current_status_alone_records_nothing(client, support):
    # given
    order = make_order(status="shipped")
    client.force_login(support)
    changes = OrderStatusChange.objects.filter(order=order).count()
    # when
    response = _put(client, order, status="shipped")
    # then
    assert response.status_code == 200
    assert OrderStatusChange.objects.filter(order=order).count() == changes
    assert not AuditEntry.objects.exists()


def test_a_bulk_change_counts_only_the_orders_it_moved(client, manager):
    # given: one order already shipped, one not
    shipped, processing = make_order(status="shipped"), make_order()
    client.force_login(manager)
    # when
    answer = client.put("/api/admin/bulk/orders", {"orderIds": [shipped.pk, processing.pk], "status": "shipped"},
                        content_type="application/json").json()
    # then
    assert (answer["updated"], answer["failed"]) == (1, [])
    assert AuditEntry.objects.filter(action="order.status").count() == 1
