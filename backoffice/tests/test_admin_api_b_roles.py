"""Every part-B admin endpoint × every role, against DECISIONS.md's permission table."""

from datetime import timedelta

import pytest
from django.utils import timezone

from orders.models import Coupon
from shop.models import Announcement, NewsletterSubscriber
from tests.factories import make_message, make_order, make_product, make_review

ALL_STAFF = {"owner", "manager", "head_support", "support"}
NOT_SUPPORT = {"owner", "manager", "head_support"}
MANAGERS = {"owner", "manager"}


def _announcement():
    return Announcement.objects.create(
        title="Sale", content="10% off", display_end_date=timezone.now() + timedelta(days=3)
    )


def _coupon():
    return Coupon.objects.create(code="TEA10", type="percentage", value=10)


def _subscriber():
    return NewsletterSubscriber.objects.create(email="fan@example.com")


# (name, method, url builder → url, body, roles allowed by the matrix)
ENDPOINTS = [
    ("orders list", "get", lambda: "/api/admin/orders", None, ALL_STAFF),
    ("order detail", "get", lambda: f"/api/admin/orders/{make_order().pk}", None, ALL_STAFF),
    ("order status", "put", lambda: f"/api/admin/orders/{make_order().pk}/status",
     {"status": "shipped"}, ALL_STAFF),
    ("bulk order status", "put", lambda: "/api/admin/bulk/orders",
     lambda: {"orderIds": [make_order().pk], "status": "delivered"}, ALL_STAFF),
    ("analytics", "get", lambda: "/api/admin/analytics?period=7d", None, NOT_SUPPORT),
    ("announcements list", "get", lambda: "/api/admin/announcements", None, NOT_SUPPORT),
    ("announcement create", "post", lambda: "/api/admin/announcements",
     {"title": "Eid", "content": "Eid hours"}, MANAGERS),
    ("announcement update", "put", lambda: f"/api/admin/announcements/{_announcement().pk}",
     {"title": "Eid sale"}, MANAGERS),
    ("announcement delete", "delete", lambda: f"/api/admin/announcements/{_announcement().pk}", None, MANAGERS),
    ("coupons list", "get", lambda: "/api/admin/coupons", None, NOT_SUPPORT),
    ("coupon create", "post", lambda: "/api/admin/coupons",
     {"code": "eid5", "type": "fixed", "value": "5"}, MANAGERS),
    ("coupon deactivate", "put", lambda: f"/api/admin/coupons/{_coupon().pk}", {"isActive": False}, MANAGERS),
    ("newsletter list", "get", lambda: (_subscriber(), "/api/admin/newsletter")[1], None, NOT_SUPPORT),
    ("newsletter export", "get", lambda: (_subscriber(), "/api/admin/newsletter/export")[1], None, NOT_SUPPORT),
    ("messages list", "get", lambda: "/api/admin/contact-messages", None, ALL_STAFF),
    ("message status", "put", lambda: f"/api/admin/contact-messages/{make_message().pk}",
     {"status": "read"}, NOT_SUPPORT),
    ("message reply", "post", lambda: f"/api/admin/messages/{make_message().pk}/reply",
     {"replyMessage": "On its way!"}, ALL_STAFF),
    ("reviews list", "get", lambda: "/api/reviews/admin?status=pending", None, ALL_STAFF),
    ("review approve", "put", lambda: f"/api/reviews/admin/{make_review().pk}/approve",
     {"isApproved": True}, NOT_SUPPORT),
    ("review response", "put", lambda: f"/api/reviews/admin/{make_review().pk}/response",
     {"adminResponse": "Thank you!"}, ALL_STAFF),
    ("review delete", "delete", lambda: f"/api/reviews/admin/{make_review().pk}", None, NOT_SUPPORT),
]
PEOPLE = ["anonymous", "alice", "owner", "manager", "head_support", "support"]


@pytest.mark.django_db
@pytest.mark.parametrize("person", PEOPLE)
@pytest.mark.parametrize(("name", "method", "url", "body", "allowed"), ENDPOINTS, ids=[e[0] for e in ENDPOINTS])
def test_each_endpoint_answers_each_role_as_the_matrix_says(
    client, request, person, name, method, url, body, allowed
):
    # given
    if person != "anonymous":
        client.force_login(request.getfixturevalue(person))
    make_product()  # something to count and sell
    payload = body() if callable(body) else body
    # when
    kwargs = {"data": payload, "content_type": "application/json"} if payload is not None else {}
    response = getattr(client, method)(url(), **kwargs)
    # then
    if person in ("anonymous", "alice"):
        assert response.status_code == 401
        assert response.json()["message"] == "Admin authentication required"
    elif person not in allowed:
        assert response.status_code == 403
        assert response.json()["message"] == "Admin permissions required"
    else:
        assert response.status_code in (200, 201, 204), response.content


@pytest.mark.django_db
def test_a_staff_bearer_token_works_without_a_session(client, head_support):
    # given
    from accounts.models import AuthToken

    _token, key = AuthToken.issue(user=head_support, lifetime=timedelta(hours=1))
    # when
    response = client.get("/api/admin/analytics", headers={"Authorization": f"Bearer {key}"})
    # then
    assert response.status_code == 200
    assert "data" in response.json()


@pytest.mark.django_db
def test_every_part_b_endpoint_is_in_the_openapi_schema(client):
    # when
    schema = client.get("/api/schema/", headers={"Accept": "application/vnd.oai.openapi+json"}).json()
    # then
    for path in [
        "/api/admin/orders", "/api/admin/orders/{order_id}", "/api/admin/orders/{order_id}/status",
        "/api/admin/bulk/orders", "/api/admin/analytics", "/api/admin/announcements",
        "/api/admin/announcements/{announcement_id}", "/api/admin/coupons", "/api/admin/coupons/{coupon_id}",
        "/api/admin/newsletter", "/api/admin/newsletter/export", "/api/admin/contact-messages",
        "/api/admin/contact-messages/{message_id}", "/api/admin/messages/{message_id}/reply",
        "/api/reviews/admin", "/api/reviews/admin/{review_id}/approve", "/api/reviews/admin/{review_id}/response",
        "/api/reviews/admin/{review_id}",
    ]:
        assert path in schema["paths"], path
