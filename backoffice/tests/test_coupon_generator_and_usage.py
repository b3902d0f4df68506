"""Coupons (issue 17): a bulk code generator and the list of orders that used a coupon."""

from unittest import mock

import pytest

from backoffice.marketing import CODE_ALPHABET
from backoffice.models import AuditEntry
from orders.models import Coupon
from tests.factories import make_order

pytestmark = pytest.mark.django_db

GENERATE = "/api/admin/coupons/generate"


def _generate(client, **body):
    return client.post(GENERATE, {"type": "percentage", "value": "10", **body}, content_type="application/json")


def test_it_makes_the_asked_number_of_unique_readable_codes_after_the_prefix(client, manager):
    # given
    client.force_login(manager)
    # when
    response = _generate(client, prefix="eid-", count=50)
    # then
    assert response.status_code == 201
    codes = [row["code"] for row in response.json()]
    assert len(codes) == len(set(codes)) == 50
    assert Coupon.objects.filter(code__startswith="EID-").count() == 50
    for code in codes:
        assert code.startswith("EID-") and len(code) == 12
        assert set(code[4:]) <= set(CODE_ALPHABET)
    assert not set("01IOL5S") & set(CODE_ALPHABET)
    coupon = Coupon.objects.get(code=codes[0])
    assert (coupon.type, str(coupon.value), coupon.usage_limit, coupon.is_active) == ("percentage", "10.00", 1, True)
    assert AuditEntry.objects.filter(action="coupon.generate").count() == 1


def test_a_code_already_taken_is_never_drawn_again(client, manager):
    # given: the random source first repeats an existing code, then gives a fresh one
    Coupon.objects.create(code="VIP-AAAAAAAA", type="fixed", value="5")
    client.force_login(manager)
    draws = iter("A" * 8 + "B" * 8)
    # when
    with mock.patch("backoffice.marketing.secrets.choice", side_effect=lambda alphabet: next(draws)):
        response = _generate(client, prefix="VIP-", count=1)
    # then
    assert [row["code"] for row in response.json()] == ["VIP-BBBBBBBB"]


@pytest.mark.parametrize("body, field", [
    ({"prefix": "EID 2026", "count": 3}, "prefix"),
    ({"prefix": "EID", "count": 0}, "count"),
    ({"prefix": "EID", "count": 501}, "count"),
    ({"prefix": "EID", "count": 2, "value": "150"}, "value"),
])
def test_a_bad_request_names_its_field_and_creates_nothing(client, manager, body, field):
    # given
    client.force_login(manager)
    # when
    response = _generate(client, **body)
    # then
    assert response.status_code == 400 and response.json()["field"] == field
    assert not Coupon.objects.exists()


def test_the_message_comes_in_arabic_for_arabic_staff(client, manager):
    # given
    client.force_login(manager)
    # when
    response = client.post(GENERATE, {"type": "fixed", "value": "5", "prefix": "عيد", "count": 2},
                           content_type="application/json", HTTP_ACCEPT_LANGUAGE="ar")
    # then
    assert response.status_code == 400 and response.json()["field"] == "prefix"
    assert "أرقام" in response.json()["message"]


def test_roles_without_the_coupon_create_right_cannot_generate(client, head_support):
    # given
    client.force_login(head_support)
    # when
    response = _generate(client, prefix="X", count=2)
    # then
    assert response.status_code == 403


def test_the_usage_list_shows_the_orders_that_used_the_coupon(client, head_support):
    # given
    coupon = Coupon.objects.create(code="NILE10", type="percentage", value="10")
    other = Coupon.objects.create(code="OTHER", type="percentage", value="10")
    first = make_order(first_name="Mona")
    first.coupon, first.coupon_code, first.discount_amount = coupon, "NILE10", 15
    first.save()
    second = make_order(first_name="Omar")
    second.coupon, second.coupon_code = coupon, "NILE10"
    second.save()
    third = make_order()
    third.coupon, third.coupon_code = other, "OTHER"
    third.save()
    make_order()
    client.force_login(head_support)
    # when
    body = client.get(f"/api/admin/coupons/{coupon.pk}/orders").json()
    # then
    assert [row["number"] for row in body["results"]] == [second.number, first.number]
    assert body["results"][1]["discount"] == "15.00"
    assert body["results"][1]["customerName"].startswith("Mona")


def test_the_usage_list_of_an_unknown_coupon_is_404(client, manager):
    client.force_login(manager)
    assert client.get("/api/admin/coupons/999/orders").status_code == 404
