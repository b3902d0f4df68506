"""The dashboard counts days (and months) in the store's time zone (its `timezone` setting), not in
settings.TIME_ZONE (Africa/Cairo): an order placed at 21:30 UTC is the next day in Dubai (UTC+4) but the
same day in Cairo (UTC+2), and 23:00 UTC is still that day in UTC but already the next in Cairo."""

import csv
import io
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
import time_machine
from celery.schedules import crontab
from django.utils import timezone

from backoffice.alerts import daily_summary_send
from backoffice.analytics import analytics_get, daily_sales
from backoffice.api.fields import DayOrDateTimeField
from backoffice.exports import orders_csv
from backoffice.tasks import daily_summary_task
from orders.models import Order
from shop.celery import app
from shop.store_settings import store_settings_update
from tests.factories import make_order, make_product

pytestmark = pytest.mark.django_db

# 21:30 UTC on 28 Nov: 23:30 on the 28th in Cairo, 01:30 on the 29th in Dubai
LATE_EVENING = datetime(2026, 11, 28, 21, 30, tzinfo=UTC)
# 23:00 UTC on 30 Nov: 01:00 on 1 Dec in Cairo, still 30 Nov (and November) in UTC
MONTH_END = datetime(2026, 11, 30, 23, 0, tzinfo=UTC)


@pytest.fixture
def one_order():
    store_settings_update(free_shipping_threshold=Decimal("0"))  # the order's total is its one price
    return make_order(lines=[(make_product(price="100"), 1)], created_at=LATE_EVENING)


def _daily(now):
    return {day["date"]: day["orders"] for day in daily_sales(now=now) if day["orders"]}


def test_the_daily_bars_count_an_order_on_the_store_zones_day(one_order):
    # given
    now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    assert _daily(now) == {"2026-11-28": 1}  # the default zone, Cairo
    # when
    store_settings_update(timezone="Asia/Dubai")
    # then
    assert _daily(now) == {"2026-11-29": 1}


@pytest.mark.django_db(transaction=True)  # the cache is only filled outside a transaction
def test_months_cached_in_one_zone_are_not_reused_in_another():
    # given: a year's figures read (and its whole months cached) with the store in UTC, where the
    # order at 23:00 UTC on 30 Nov is November's
    store_settings_update(free_shipping_threshold=Decimal("0"), timezone="UTC")
    product = make_product(price="100")
    make_order(lines=[(product, 1)], created_at=MONTH_END)
    later = datetime(2027, 1, 15, 12, 0, tzinfo=UTC)
    with time_machine.travel(later, tick=False):
        assert analytics_get(period="1y", now=later)["orders"]["orders_this_month"] == 1
        # when: the store moves to Cairo (where that order is December's), and a second order comes in
        # on 1 Dec in Cairo, which makes December's sums stale
        store_settings_update(timezone="Africa/Cairo")
        make_order(lines=[(product, 1)], created_at=datetime(2026, 11, 30, 22, 30, tzinfo=UTC))
        figures = analytics_get(period="1y", now=later)
    # then: two orders; not November as cached in UTC (the first order) plus December counted in Cairo (both)
    assert figures["orders"]["orders_this_month"] == 2
    assert figures["orders"]["revenue_this_month"] == Decimal("200.00")


def test_the_zone_set_in_the_dashboard_moves_the_daily_bars(client, owner):
    # given
    store_settings_update(free_shipping_threshold=Decimal("0"), timezone="UTC")
    make_order(lines=[(make_product(price="100"), 1)], created_at=MONTH_END)
    with time_machine.travel(datetime(2026, 12, 1, 12, 0, tzinfo=UTC), tick=False):
        client.force_login(owner)
        before = client.get("/api/admin/analytics?period=7d").json()["data"]["orders"]["dailyOrders"]
        # when
        assert client.put("/api/admin/settings", {"timezone": "Africa/Cairo"},
                          content_type="application/json").status_code == 200
        after = client.get("/api/admin/analytics?period=7d").json()["data"]["orders"]["dailyOrders"]
    # then
    assert {d["date"]: d["orders"] for d in before if d["orders"]} == {"2026-11-30": 1}
    assert {d["date"]: d["orders"] for d in after if d["orders"]} == {"2026-12-01": 1}


def test_a_bare_date_in_a_form_is_the_store_zones_day():
    # given
    store_settings_update(timezone="Asia/Dubai")
    # when
    start = DayOrDateTimeField().to_internal_value("2026-11-29")
    end = DayOrDateTimeField(end_of_day=True).to_internal_value("2026-11-29")
    # then
    assert start == datetime(2026, 11, 28, 20, 0, tzinfo=UTC)
    assert end == datetime(2026, 11, 29, 19, 59, 59, tzinfo=UTC)


def test_the_orders_export_writes_the_store_zones_time(one_order):
    # given
    store_settings_update(timezone="Asia/Dubai")
    # when
    rows = list(csv.reader(io.StringIO("".join(orders_csv(orders=Order.objects.all())).lstrip("\ufeff"))))
    # then
    assert rows[1][1] == "2026-11-29T01:30:00+04:00"


def test_the_orders_export_is_named_after_the_store_zones_day(client, owner):
    # given
    store_settings_update(timezone="Asia/Dubai")
    client.force_login(owner)
    # when
    with time_machine.travel(LATE_EVENING, tick=False):
        response = client.get("/api/admin/orders/export")
    # then
    assert 'filename="orders-2026-11-29.csv"' in response["Content-Disposition"]


def test_the_daily_summary_goes_once_per_store_zone_day(owner):
    # given: the store in UTC; a summary sent at 23:00 UTC on the 28th (already the 29th in Cairo)
    store_settings_update(timezone="UTC")
    owner.daily_summary = True
    owner.save(update_fields=["daily_summary"])
    assert daily_summary_send(now=datetime(2026, 11, 28, 23, 0, tzinfo=UTC)) == 1
    # when: 01:00 UTC on the 29th, the next day in the store's zone (the same day in Cairo)
    sent = daily_summary_send(now=datetime(2026, 11, 29, 1, 0, tzinfo=UTC))
    # then
    assert sent == 1


def test_an_unknown_stored_zone_falls_back_to_the_servers(one_order):
    # given: a zone the settings form would refuse, stored some other way
    store_settings_update(timezone="Mars/Olympus")
    # then
    assert _daily(datetime(2026, 11, 29, 12, 0, tzinfo=UTC)) == {"2026-11-28": 1}
    assert timezone.localdate(LATE_EVENING) == date(2026, 11, 28)


def test_the_dashboard_names_the_store_zone_for_its_islands(client, owner):
    # given
    store_settings_update(timezone="Asia/Dubai")
    client.force_login(owner)
    # when
    body = client.get("/admindash").content.decode()
    # then: lib/digits.js shows every date and time in it (tests/test_store_time_js.py)
    assert '<html lang="en" dir="ltr" data-store-zone="Asia/Dubai">' in body


def _summary_hours(zone, day=date(2026, 11, 29)):
    """The UTC hours of `day` at which beat's hourly daily-summary job sent a summary, with the store in `zone`."""
    store_settings_update(timezone=zone)
    sent = []
    for hour in range(24):
        now = datetime(day.year, day.month, day.day, hour, 0, tzinfo=UTC)
        with time_machine.travel(now, tick=False):
            if daily_summary_task.apply().get():
                sent.append(hour)
    return sent


@pytest.fixture
def summary_reader(owner):
    owner.daily_summary = True
    owner.save(update_fields=["daily_summary"])
    return owner


@pytest.mark.parametrize(("zone", "hour_utc"), [("Africa/Cairo", 5), ("UTC", 7), ("Asia/Dubai", 3),
                                                ("Asia/Kolkata", 2)])
def test_the_daily_summary_goes_at_seven_in_the_store_zone(summary_reader, zone, hour_utc):
    # given: beat runs the job every hour, on the hour (of CELERY_TIMEZONE, Cairo)
    # when: a day of hourly ticks (Kolkata, UTC+05:30: the tick at 01:00 UTC is 06:30 there, 02:00 UTC 07:30)
    sent = _summary_hours(zone)
    # then: the first tick from 07:00 in the store's zone sends it, and no other
    assert sent == [hour_utc]


def test_in_summer_time_the_summary_still_goes_at_seven(summary_reader):
    # Egypt keeps summer time again since 2023: 07:00 in July is 04:00 UTC, not 05:00
    assert _summary_hours("Africa/Cairo", day=date(2026, 7, 1)) == [4]


def test_a_summary_missed_at_seven_goes_at_the_next_tick_and_only_once(summary_reader):
    # given: the store in UTC, and no worker at 07:00 (the tick dropped)
    store_settings_update(timezone="UTC")
    with time_machine.travel(datetime(2026, 11, 29, 6, 0, tzinfo=UTC), tick=False):
        assert daily_summary_task.apply().get() == 0  # before seven: nothing yet
    # when: the worker is back for the 08:00 and 09:00 ticks
    sent = []
    for hour in (8, 9):
        with time_machine.travel(datetime(2026, 11, 29, hour, 0, tzinfo=UTC), tick=False):
            sent.append(daily_summary_task.apply().get())
    # then
    assert sent == [1, 0]


def test_beat_asks_for_the_daily_summary_every_hour():
    entry = app.conf.beat_schedule["daily-summary"]
    # every hour on the hour: whatever the store's zone (even a half-hour one), one tick falls in its 7 o'clock
    assert entry["schedule"] == crontab(minute=0)
    assert entry["options"]["expires"] <= 3600  # a tick no worker took does not pile up
