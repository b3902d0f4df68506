"""Dates and times in the islands are Cairo's (the store's zone), whatever zone the browser is in.

The orders' days in analytics, exports and e-mails are Cairo days; staff outside Egypt (or a shop owner
travelling) must see the same day and hour on the dashboard. Runs static_src/lib/store-day.js in Node with
the process in New York's zone, as a browser there would be."""

import re

import pytest
from django.conf import settings

from tests.node_harness import ROOT, node_results

CHECKS = r"""
import { formatDate, formatTime, STORE_TIME_ZONE, storeDay, addDays } from "./static_src/lib/store-day.js";
// 22:30 UTC: still the 15th in New York, already the 16th in Cairo (+3 in summer, +2 in winter)
const summer = "2026-07-15T22:30:00+00:00";
const winter = new Date(Date.UTC(2026, 0, 15, 22, 30));
console.log(JSON.stringify({
  zone: STORE_TIME_ZONE,
  browserZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  browserHour: new Date(summer).getHours(),
  summer: formatDate(summer, "en", { dateStyle: "medium", timeStyle: "short" }),
  winter: formatDate(winter, "en", { dateStyle: "medium", timeStyle: "short" }),
  summerAr: formatDate(summer, "ar", { day: "numeric", month: "numeric" }),
  time: formatTime(summer, "en"),
  // a caller cannot slip back into the browser's zone
  forced: formatDate(summer, "en", { dateStyle: "medium", timeZone: "America/New_York" }),
  days: [storeDay(summer), storeDay(winter), storeDay("2026-10-29T21:30:00Z"), storeDay("2026-10-29T20:30:00Z")],
  later: [addDays("2026-07-16", 30), addDays("2026-02-20", 10), addDays("2026-12-31", 1)],
  today: storeDay() === storeDay(new Date()),
}));
"""


@pytest.fixture
def results(tmp_path):
    return node_results(CHECKS, tmp_path, "store-time-check", env={"TZ": "America/New_York"})


def test_it_runs_in_a_browser_zone_that_is_not_cairos(results):
    # proves the checks below can fail: the browser's own clock says the 15th, 18:30
    assert results["browserZone"] == "America/New_York" and results["browserHour"] == 18


def test_dates_and_times_are_cairos_with_summer_time(results):
    assert results["zone"] == "Africa/Cairo"
    assert results["summer"] == "16 Jul 2026, 01:30"  # Egypt keeps summer time again since 2023: +3
    assert results["winter"] == "16 Jan 2026, 00:30"  # +2
    assert results["summerAr"].replace("\u200f", "") == "16/7"
    assert results["time"] == "1:30:00"  # hour: "numeric"
    assert results["forced"] == "16 Jul 2026"


def test_the_day_a_form_starts_from_is_cairos_calendar_day(results):
    # summer time ends on the last Thursday of October (2026-10-29, midnight going back to 23:00)
    assert results["days"] == ["2026-07-16", "2026-01-16", "2026-10-29", "2026-10-29"]
    assert results["later"] == ["2026-08-15", "2026-03-02", "2027-01-01"]
    assert results["today"] is True


def test_without_a_named_zone_the_islands_zone_is_the_servers():
    source = (ROOT / "static_src" / "lib" / "store-day.js").read_text()
    assert re.search(r'\|\| "([^"]+)"', source).group(1) == settings.TIME_ZONE


# the dashboard names the store's zone on <html data-store-zone>; read when lib/store-day.js loads
NAMED = r"""
globalThis.document = { documentElement: { dataset: { storeZone: __NAMED__ } } };
const { formatDate, STORE_TIME_ZONE, storeDay } = await import("./static_src/lib/store-day.js");
// 21:30 UTC on 28 Nov: 23:30 on the 28th in Cairo, 01:30 on the 29th in Dubai
const late = "2026-11-28T21:30:00Z";
console.log(JSON.stringify({
  zone: STORE_TIME_ZONE,
  shown: formatDate(late, "en", { dateStyle: "medium", timeStyle: "short" }),
  day: storeDay(late),
}));
"""


@pytest.mark.parametrize(("named", "zone", "shown", "day"), [
    ("Asia/Dubai", "Asia/Dubai", "29 Nov 2026, 01:30", "2026-11-29"),
    ("UTC", "UTC", "28 Nov 2026, 21:30", "2026-11-28"),
    ("", "Africa/Cairo", "28 Nov 2026, 23:30", "2026-11-28"),  # named empty: the server's
])
def test_a_page_that_names_the_stores_zone_shows_its_days(tmp_path, named, zone, shown, day):
    results = node_results(NAMED.replace("__NAMED__", f'"{named}"'), tmp_path, "store-zone-check",
                           env={"TZ": "America/New_York"})
    assert (results["zone"], results["shown"], results["day"]) == (zone, shown, day)
