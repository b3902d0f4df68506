"""The overview says what is wrong in the reader's words: the task broker by what it is, not the setting's value;
a failed rate update, e-mail or job in Arabic, the programs' own words only behind "technical detail"."""

import pytest
from playwright.sync_api import expect

from tests.arabic_text import arabic_page_problems
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.staff_pages import open_island, signed_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("locale, prefix, words", [("ar", "/ar", "ملفات على هذا الخادم"),
                                                   ("en-US", "", "files on this server")])
def test_the_task_broker_is_named_in_words(new_page, live_server, owner, settings, locale, prefix, words):
    settings.REDIS_URL = ""
    page = signed_in(new_page, live_server, owner, locale=locale)
    open_island(page, f"{prefix}/admindash", "admin-overview")
    status = page.locator("li", has=page.get_by_text("وسيط المهام" if prefix else "Task broker", exact=True))
    expect(status).to_contain_text(words)
    expect(status).not_to_contain_text("filesystem")


@pytest.mark.parametrize("viewport, tag", [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_an_arabic_owner_reads_the_overview_s_failures_in_arabic_and_the_raw_errors_as_details(
        new_page, live_server, owner, screenshot, viewport, tag):
    # given a failed rate refresh, an e-mail the outbox gave up on, one the mail server refused, a failed job
    from shop.models import ExchangeRate, FailedJob, OutboundEmail, OutboundEmailStatus
    from shop.outbox import LAPSED_ERROR

    ExchangeRate.objects.create(from_currency="KES", to_currency="EGP", rate="0.39", source="frankfurter",
                                last_error="frankfurter: HTTP 503; open.er-api: ConnectTimeout")
    for error in (LAPSED_ERROR, "SMTPRecipientsRefused: 550 no such user"):
        OutboundEmail.objects.create(to="mona@example.com", subject="طلبك في الطريق", text="مرحبًا",
                                     status=OutboundEmailStatus.FAILED, attempts=10, last_error=error)
    FailedJob.objects.create(task="importer.tasks.rates_refresh_task", error="ConnectionError: producer down")
    page = signed_in(new_page, live_server, owner, viewport=viewport, locale="ar")
    open_island(page, "/ar/admindash", "admin-overview")
    page.wait_for_load_state("networkidle")
    # then each says what failed in Arabic
    rate = page.locator("li", has=page.get_by_text("سعر الصرف", exact=True))
    expect(rate).to_contain_text("فشل آخر تحديث")
    expect(page.locator('[data-list="failed-emails"]')).to_contain_text("توقّف عامل الخلفية أثناء الإرسال")
    expect(page.locator('[data-list="failed-jobs"]')).to_contain_text("تحديث سعر الصرف")
    # and the programs' own words wait, left-to-right, behind "technical detail"
    for raw in ("HTTP 503", "550 no such user", "ConnectionError: producer down"):
        detail = page.locator("details.admin-detail code", has_text=raw)
        expect(detail).to_be_hidden()
        assert detail.get_attribute("dir") == "ltr"
    assert LAPSED_ERROR not in page.locator("main").inner_text()
    for summary in page.locator("details.admin-detail summary").all():
        summary.click()
    screenshot(page, f"overview-failures-{tag}-ar")
    assert arabic_page_problems(page.content(), where="/ar/admindash") == []
