"""Announcements, coupons and newsletter sections of the admin API."""

import csv
import io
from datetime import UTC, timedelta

import pytest
from django.utils import timezone

from backoffice.models import AuditEntry
from orders.models import Coupon
from shop.models import Announcement, NewsletterSubscriber

pytestmark = pytest.mark.django_db


def _post(client, url, body):
    return client.post(url, body, content_type="application/json")


def _put(client, url, body):
    return client.put(url, body, content_type="application/json")


# --- announcements ------------------------------------------------------------

def test_a_new_announcement_runs_30_days_in_the_default_colours(client, manager):
    # given
    client.force_login(manager)
    # when
    response = _post(client, "/api/admin/announcements", {"title": "Ramadan hours", "content": "Open late"})
    # then
    assert response.status_code == 201
    body = response.json()
    start = timezone.datetime.fromisoformat(body["displayStartDate"])
    end = timezone.datetime.fromisoformat(body["displayEndDate"])
    assert end - start == timedelta(days=30)
    assert (body["bannerColor"], body["textColor"], body["isActive"], body["isLive"]) == (
        "#dc2626", "#ffffff", True, True,
    )
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.details, entry.actor) == ("announcement.create", "Ramadan hours", manager)


def test_dates_from_a_date_input_cover_whole_days(client, manager):
    # given
    client.force_login(manager)
    # when
    body = _post(client, "/api/admin/announcements", {
        "title": "Eid", "content": "Closed", "displayStartDate": "2030-04-01", "displayEndDate": "2030-04-03",
    }).json()
    # then
    announcement = Announcement.objects.get(pk=body["id"])
    start = timezone.localtime(announcement.display_start_date)
    end = timezone.localtime(announcement.display_end_date)
    assert (start.date().isoformat(), start.hour, start.minute) == ("2030-04-01", 0, 0)
    assert (end.date().isoformat(), end.hour, end.minute) == ("2030-04-03", 23, 59)
    assert body["isLive"] is False


@pytest.mark.parametrize(("body", "field"), [
    ({"content": "x"}, "title"),
    ({"title": "x"}, "content"),
    ({"title": "x", "content": "y", "bannerColor": "red"}, "bannerColor"),
    ({"title": "x", "content": "y", "displayStartDate": "2030-05-02", "displayEndDate": "2030-05-01"},
     "displayEndDate"),
    # year 396 was stored and echoed back with Cairo's local-mean-time offset +02:05:09
    ({"title": "x", "content": "y", "displayStartDate": "0396-01-01T00:00:00Z"}, "displayStartDate"),
    ({"title": "x", "content": "y", "displayEndDate": "9999-12-31"}, "displayEndDate"),
])
def test_it_rejects_an_incomplete_or_wrong_announcement(client, manager, body, field):
    # given
    client.force_login(manager)
    # when
    response = _post(client, "/api/admin/announcements", body)
    # then
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert not Announcement.objects.exists()


@pytest.mark.parametrize("language, message", [("en", "A percentage cannot be above 100"),
                                               ("ar", "لا يمكن أن تزيد النسبة المئوية على 100")])
def test_a_coupon_taking_off_more_than_everything_is_refused(client, manager, language, message):
    # given
    client.force_login(manager)
    # when
    response = client.post("/api/admin/coupons", {"code": "ALL", "type": "percentage", "value": "150"},
                           content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)
    # then
    assert response.status_code == 400
    assert (response.json()["field"], response.json()["message"]) == ("value", message)
    assert not Coupon.objects.exists()


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/api/admin/coupons", {"code": "EID", "type": "fixed", "value": "5", "expiryDate": "2026-02-30"}, "expiryDate"),
    ("/api/admin/coupons/generate", {"type": "fixed", "value": "5", "count": 2, "expiryDate": "2026-04-31"},
     "expiryDate"),
    ("/api/admin/announcements", {"title": "Eid", "content": "Eid hours", "displayEndDate": "2026-13-01"},
     "displayEndDate"),
    ("/api/admin/announcements", {"title": "Eid", "content": "Eid hours", "displayStartDate": "2026-02-30T10:00"},
     "displayStartDate"),
])
def test_a_day_the_calendar_does_not_have_is_a_field_error(client, manager, path, body, field):
    # given: a date shaped right that names no day (it was a 500)
    client.force_login(manager)
    # when
    response = _post(client, path, body)
    # then
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert not Coupon.objects.exists() and not Announcement.objects.exists()


def test_only_one_announcement_is_main(client, owner):
    # given
    client.force_login(owner)
    first = _post(client, "/api/admin/announcements", {"title": "A", "content": "a", "isMain": True}).json()
    second = _post(client, "/api/admin/announcements", {"title": "B", "content": "b"}).json()
    # when
    _put(client, f"/api/admin/announcements/{second['id']}", {"isMain": True})
    # then
    mains = list(Announcement.objects.filter(is_main=True).values_list("pk", flat=True))
    assert mains == [second["id"]]
    assert Announcement.objects.get(pk=first["id"]).title == "A"


def test_an_announcement_can_be_edited_and_deleted(client, manager):
    # given
    client.force_login(manager)
    created = _post(client, "/api/admin/announcements", {"title": "Old", "content": "c"}).json()
    # when
    edited = _put(client, f"/api/admin/announcements/{created['id']}", {"title": "New", "isActive": False})
    deleted = client.delete(f"/api/admin/announcements/{created['id']}")
    # then
    assert edited.json()["title"] == "New"
    assert edited.json()["isActive"] is False
    assert edited.json()["displayEndDate"] == created["displayEndDate"]  # untouched fields kept
    assert deleted.status_code == 204
    assert not Announcement.objects.exists()
    assert list(AuditEntry.objects.order_by("pk").values_list("action", flat=True)) == [
        "announcement.create", "announcement.update", "announcement.delete",
    ]


# --- coupons ------------------------------------------------------------------

def test_a_coupon_code_is_upper_cased_and_usage_limit_0_means_unlimited(client, manager):
    # given
    client.force_login(manager)
    # when
    response = _post(client, "/api/admin/coupons", {
        "code": " eid10 ", "type": "percentage", "value": "10", "minimumOrder": "200", "usageLimit": 0,
    })
    # then
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["code"], body["usageLimit"], body["usedCount"], body["isActive"]) == ("EID10", None, 0, True)
    assert body["minimumOrder"] == "200.00"
    assert AuditEntry.objects.get().action == "coupon.create"


def test_an_expiry_date_lasts_to_the_end_of_that_day(client, manager):
    # given
    client.force_login(manager)
    # when
    body = _post(client, "/api/admin/coupons",
                 {"code": "NY", "type": "fixed", "value": "25", "expiryDate": "2030-12-31", "usageLimit": 100}
                 ).json()
    # then
    coupon = Coupon.objects.get(pk=body["id"])
    assert timezone.localtime(coupon.expiry_date).strftime("%Y-%m-%d %H:%M") == "2030-12-31 23:59"
    assert coupon.usage_limit == 100


@pytest.mark.parametrize(("day", "last_moment_utc", "first_moment_utc"), [
    # the last Thursday of October: Cairo's clocks go back at midnight, so 23:00–24:00 comes twice
    ("2026-10-29", "2026-10-29T21:59:59+00:00", None),
    # the last Friday of April: its midnight is skipped, the day starts at 01:00 summer time
    ("2026-04-24", "2026-04-24T20:59:59+00:00", "2026-04-23T22:00:00+00:00"),
    ("2026-12-31", "2026-12-31T21:59:59+00:00", "2026-12-30T22:00:00+00:00"),
])
def test_a_day_given_as_a_date_covers_the_whole_local_day_across_the_clock_change(
        client, manager, day, last_moment_utc, first_moment_utc):
    # given
    client.force_login(manager)
    # when: a coupon that ends on that day, an announcement that runs on it alone
    coupon = _post(client, "/api/admin/coupons", {"code": "EOD", "type": "fixed", "value": "5", "expiryDate": day})
    banner = _post(client, "/api/admin/announcements", {"title": "Sale", "content": "Today only",
                                                        "displayStartDate": day, "displayEndDate": day})
    # then: the coupon works until the day's very end, the banner from its very start
    assert coupon.status_code == 201 and banner.status_code == 201, (coupon.content, banner.content)
    expiry = Coupon.objects.get(pk=coupon.json()["id"]).expiry_date
    assert expiry.astimezone(UTC).isoformat() == last_moment_utc
    announcement = Announcement.objects.get(pk=banner.json()["id"])
    assert announcement.display_end_date == expiry
    if first_moment_utc:
        assert announcement.display_start_date.astimezone(UTC).isoformat() == first_moment_utc


@pytest.mark.parametrize(("body", "field"), [
    ({"type": "fixed", "value": "5"}, "code"),
    ({"code": "A", "type": "fixed"}, "value"),
    ({"code": "A", "type": "fixed", "value": "0"}, "value"),
    ({"code": "A", "type": "percentage", "value": "120"}, "value"),
    ({"code": "A", "type": "bogo", "value": "5"}, "type"),
    ({"code": "A B", "type": "fixed", "value": "5"}, "code"),
    ({"code": "A", "type": "fixed", "value": "5", "usageLimit": -1}, "usageLimit"),
])
def test_it_rejects_a_wrong_coupon(client, manager, body, field):
    # given
    client.force_login(manager)
    # when
    response = _post(client, "/api/admin/coupons", body)
    # then
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_it_refuses_a_second_coupon_with_the_same_code(client, manager):
    # given
    Coupon.objects.create(code="TEA", type="fixed", value=5)
    client.force_login(manager)
    # when
    response = _post(client, "/api/admin/coupons", {"code": "tea", "type": "fixed", "value": "7"})
    # then
    assert response.status_code == 400
    assert response.json() == {"error": "A coupon with this code already exists",
                                "message": "A coupon with this code already exists", "field": "code"}


def test_a_coupon_can_be_deactivated_and_the_list_shows_it(client, owner, head_support):
    # given
    coupon = Coupon.objects.create(code="OLD", type="fixed", value=5)
    client.force_login(owner)
    # when
    response = _put(client, f"/api/admin/coupons/{coupon.pk}", {"isActive": False})
    # then
    assert response.json()["isActive"] is False
    assert AuditEntry.objects.get().action == "coupon.deactivate"
    client.force_login(head_support)
    listed = client.get("/api/admin/coupons").json()
    assert [(c["code"], c["isActive"]) for c in listed] == [("OLD", False)]


# --- newsletter ---------------------------------------------------------------

def test_it_lists_subscribers_with_a_status_filter(client, head_support):
    # given: one confirmed, one awaiting its confirmation, one unsubscribed
    NewsletterSubscriber.objects.create(email="a@example.com", confirmed_at=timezone.now())
    NewsletterSubscriber.objects.create(email="p@example.com")
    NewsletterSubscriber.objects.create(email="b@example.com", is_active=False)
    client.force_login(head_support)
    # when
    active = client.get("/api/admin/newsletter", {"status": "active"}).json()
    pending = client.get("/api/admin/newsletter", {"status": "pending"}).json()
    everyone = client.get("/api/admin/newsletter").json()
    # then: only the confirmed address counts as a subscriber to mail
    assert [s["email"] for s in active["results"]] == ["a@example.com"]
    assert [(s["email"], s["status"]) for s in pending["results"]] == [("p@example.com", "pending")]
    assert everyone["count"] == 3
    assert everyone["activeCount"] == 1


def test_the_csv_export_lists_every_subscriber_safely(client, manager):
    # given
    NewsletterSubscriber.objects.create(email="a@example.com", language="ar", confirmed_at=timezone.now())
    NewsletterSubscriber.objects.create(email="=cmd@example.com", is_active=False)
    client.force_login(manager)
    # when
    response = client.get("/api/admin/newsletter/export")
    # then
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment;" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    assert rows[0] == ["email", "status", "language", "subscribed_at"]
    assert sorted(r[:3] for r in rows[1:]) == [["'=cmd@example.com", "unsubscribed", "en"],
                                               ["a@example.com", "active", "ar"]]


def test_the_audit_entry_of_a_new_coupon_says_what_discount_it_gives(client, manager):
    # given
    client.force_login(manager)
    # when a Manager creates a coupon that makes every order free, and a batch of E£50 codes
    _post(client, "/api/admin/coupons", {"code": "free", "type": "percentage", "value": "100", "minimumOrder": "0"})
    _post(client, "/api/admin/coupons/generate", {"prefix": "gift", "count": 3, "type": "fixed", "value": "50",
                                                  "minimumOrder": "200", "usageLimit": 1})
    # then the log says how much money each takes off, not just its code
    created, generated = AuditEntry.objects.order_by("pk")
    assert created.action == "coupon.create" and created.details == "FREE"
    assert {c["field"]: c["new"] for c in created.changes} == {
        "type": "percentage", "value": "100.00", "minimum_order_amount": "0.00"}
    assert generated.action == "coupon.generate"
    assert {c["field"]: c["new"] for c in generated.changes} == {
        "type": "fixed", "value": "50.00", "minimum_order_amount": "200.00", "usage_limit": 1}
