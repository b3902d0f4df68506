"""An order's status history in the dashboard's language: the notes the shop wrote itself ("Order placed",
"Payment declined (…)") are stored in English and read in Arabic on the Arabic dashboard; staff's own notes
are shown as they wrote them."""

import pytest

from orders.models import OrderStatusChange
from tests.factories import make_order

pytestmark = pytest.mark.django_db


def _notes(client, order, language):
    detail = client.get(f"/api/admin/orders/{order.pk}", HTTP_ACCEPT_LANGUAGE=language).json()
    return [change["note"] for change in detail["history"]]


def test_the_shops_own_notes_are_read_in_arabic(client, manager):
    # given a cash-on-delivery order, a paid card order and a declined one, and a staff note in English
    cod = make_order(payment_status="cod")
    paid = make_order(payment_status="paid")
    declined = make_order(payment_status="failed")
    client.force_login(manager)
    client.put(f"/api/admin/orders/{cod.pk}/status", {"status": "shipped", "note": "Order placed"},
               content_type="application/json")
    payment = paid.payments.get()
    # when / then
    assert _notes(client, cod, "ar") == ["تم تقديم الطلب", "الدفع عند الاستلام", "Order placed"]
    reference = f"{payment.provider} {payment.transaction_id}"
    assert _notes(client, paid, "ar") == ["تم تقديم الطلب", f"مدفوع (\u2068{reference}\u2069)"]
    declined_id = declined.payments.get().transaction_id
    assert f"رُفض الدفع (\u2068{declined_id}\u2069)" in _notes(client, declined, "ar")
    assert _notes(client, cod, "en") == ["Order placed", "Cash on delivery", "Order placed"]


@pytest.mark.parametrize("note, arabic", [
    ("Unpaid for 30 minutes", "لم يُدفع خلال 30 دقيقة"),
    ("Unpaid for 24 hours, its payment reported pending (kiosk)",
     "لم يُدفع خلال 24 ساعة، وكان دفعه معلّقًا (الدفع نقدًا في منفذ)"),
    ("Replaced by a cash-on-delivery order of the same cart", "حلّ محله طلب بالدفع عند الاستلام للسلة نفسها"),
    ("Something the shop never wrote", "Something the shop never wrote"),
])
def test_an_expiry_note_is_read_in_arabic_and_an_unknown_one_as_written(client, manager, note, arabic):
    order = make_order(payment_status="awaiting", status="pending")
    OrderStatusChange.objects.create(order=order, from_status="pending", to_status="cancelled", note=note)
    client.force_login(manager)
    assert _notes(client, order, "ar")[-1] == arabic
