"""A status change carries a staff note and, at shipped, a tracking number: stored and shown in the order detail."""

import pytest

from orders.models import Order, OrderStatusChange
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
