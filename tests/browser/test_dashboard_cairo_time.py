"""The dashboard shows and starts from Cairo's dates and times, whatever the browser's zone.

A shop owner travelling, or staff outside Egypt, must see the orders' Cairo days, the ones analytics,
exports and e-mails use. The browser here runs in New York's zone (Playwright's timezone_id)."""

import re
from datetime import UTC, datetime

import pytest

from shop.models import Announcement
from tests.browser.staff_pages import open_island, signed_in
from tests.factories import make_order

pytestmark = pytest.mark.django_db(transaction=True)

# 01:30 on 16 July in Cairo (summer time, +3); 18:30 on the 15th in New York
PLACED = datetime(2026, 7, 15, 22, 30, tzinfo=UTC)
NEW_YORK = "America/New_York"


def test_staff_in_new_york_see_an_orders_cairo_date_and_time(new_page, live_server, owner):
    # given
    order = make_order(created_at=PLACED)
    page = signed_in(new_page, live_server, owner, timezone_id=NEW_YORK)
    # when
    open_island(page, "/admindash/orders", "admin-orders")
    # then: the browser's own clock says the 15th (the test can fail), the list says Cairo's 16th
    assert page.evaluate("() => new Date('2026-07-15T22:30:00Z').getDate()") == 15
    row = page.locator("tr", has_text=order.number)
    assert "16 Jul 2026, 01:30" in row.inner_text() and "15 Jul" not in row.inner_text()
    # and so does the order's detail
    page.get_by_role("button", name=order.number).first.click()
    placed = page.get_by_role("dialog").get_by_text(re.compile(r"^Placed "))
    placed.wait_for()
    assert placed.inner_text() == "Placed 16 Jul 2026, 01:30"


def test_the_announcement_form_starts_from_cairos_today(new_page, live_server, manager):
    # given: staff in New York at 18:30 on 15 July, already the 16th in Cairo
    Announcement.objects.create(title="Summer blends", content="New season", display_start_date=PLACED,
                                display_end_date=datetime(2026, 8, 1, 20, 59, tzinfo=UTC))
    page = signed_in(new_page, live_server, manager, timezone_id=NEW_YORK)
    page.clock.set_fixed_time(PLACED)
    open_island(page, "/admindash/announcements", "admin-announcements")
    # then: the list shows Cairo's start, and an existing one opens on its Cairo days
    row = page.locator("tr", has_text="Summer blends")
    assert "16 Jul 2026, 01:30" in row.inner_text()
    row.get_by_role("button", name="Edit").click()
    dialog = page.get_by_role("dialog")
    assert dialog.get_by_label("Start date").input_value() == "2026-07-16"
    assert dialog.get_by_label("End date").input_value() == "2026-08-01"  # 23:59 in Cairo on 1 August
    dialog.get_by_role("button", name="Cancel").click()
    # when: a new one
    page.get_by_role("button", name="Add announcement").click()
    dialog = page.get_by_role("dialog")
    # then: it runs from Cairo's today for 30 days
    assert dialog.get_by_label("Start date").input_value() == "2026-07-16"
    assert dialog.get_by_label("End date").input_value() == "2026-08-15"
