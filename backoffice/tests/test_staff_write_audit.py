"""Every staff write leaves exactly one audit entry, recorded by its service (issue 15)."""

import pytest

from backoffice.models import AuditEntry
from backoffice.orders import order_status_change
from backoffice.store import store_settings_change
from catalog.models import Review
from catalog.services import review_reject, review_set_approved
from tests.factories import make_order, make_product

pytestmark = pytest.mark.django_db


def _review():
    return Review.objects.create(product=make_product(title="Kenya Gold"), user_name="Alice",
                                 user_email="alice@example.com", rating=4, title="Lovely tea", comment="Malty.")


REVIEW_WRITES = [
    ("put", "approve", {"isApproved": True}, "review.approve"),
    ("put", "approve", {"isApproved": False}, "review.pending"),
    ("put", "reject", None, "review.reject"),
    ("put", "response", {"adminResponse": "Thank you!"}, "review.respond"),
    ("delete", "", None, "review.delete"),
]


@pytest.mark.parametrize("method, action, body, audited", REVIEW_WRITES, ids=[w[3] for w in REVIEW_WRITES])
def test_each_review_moderation_leaves_one_audit_entry(client, manager, method, action, body, audited):
    review = _review()
    client.force_login(manager)
    url = f"/api/reviews/admin/{review.pk}" + (f"/{action}" if action else "")
    response = getattr(client, method)(url, body, content_type="application/json")
    assert response.status_code in (200, 204), response.content
    assert list(AuditEntry.objects.values_list("action", "actor", "target_id")) == [
        (audited, manager.pk, str(review.pk))]


def test_a_refused_moderation_leaves_no_entry(client, manager):
    review = _review()
    client.force_login(manager)
    response = client.put(f"/api/reviews/admin/{review.pk}/response", {"adminResponse": " "},
                          content_type="application/json")
    assert response.status_code == 400
    assert not AuditEntry.objects.exists()


def test_the_review_services_audit_only_a_staff_write(manager):
    review = _review()
    review_set_approved(review=review, approved=True)  # no actor: a script or a test
    review_reject(review=review, actor=manager)
    assert list(AuditEntry.objects.values_list("action", flat=True)) == ["review.reject"]


def test_an_order_status_change_leaves_one_entry_and_setting_the_same_status_none(client, manager):
    order = make_order(status="processing")
    client.force_login(manager)
    response = client.put(f"/api/admin/orders/{order.pk}/status", {"status": "shipped", "trackingNumber": "T1"},
                          content_type="application/json")
    assert response.status_code == 200, response.content
    order_status_change(actor=manager, order=order, status="shipped")  # already shipped: no move
    [entry] = AuditEntry.objects.all()
    assert (entry.action, entry.actor) == ("order.status", manager)
    assert entry.details == f"{order.number}: processing → shipped"


def test_a_bulk_status_change_leaves_one_entry_per_moved_order(client, manager):
    moved, already = make_order(status="processing"), make_order(status="delivered")
    client.force_login(manager)
    response = client.put("/api/admin/bulk/orders", {"orderIds": [moved.pk, already.pk], "status": "delivered"},
                          content_type="application/json")
    # the order already delivered is neither counted nor audited
    assert response.status_code == 200 and response.json()["updated"] == 1
    assert list(AuditEntry.objects.values_list("action", "target_id")) == [("order.status", str(moved.pk))]


def test_a_settings_save_leaves_one_entry_listing_its_changes_and_a_save_of_nothing_none(client, owner):
    client.force_login(owner)
    form = client.get("/api/admin/settings").json()
    assert client.put("/api/admin/settings", {**form, "codFee": "15.00", "storeName": "Nile Tea"},
                      content_type="application/json").status_code == 200
    assert client.put("/api/admin/settings", {"codFee": "15.00"}, content_type="application/json").status_code == 200
    [entry] = AuditEntry.objects.all()
    assert (entry.action, entry.actor) == ("settings.update", owner)
    assert sorted(c["field"] for c in entry.changes) == ["cod_fee", "store_name"]


def test_the_settings_service_records_the_old_and_new_value(owner):
    store_settings_change(actor=owner, fields={"store_name": "Nile Tea"})
    [entry] = AuditEntry.objects.all()
    assert entry.changes[0]["field"] == "store_name" and entry.changes[0]["new"] == "Nile Tea"
