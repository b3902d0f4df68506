"""The Owner's database page, when a step of the initialisation fails: the Owner reads what failed in their
language, and the database's own (English) message only as a technical detail, isolated left-to-right."""

import pytest
from playwright.sync_api import expect

from tests.arabic_text import arabic_page_problems
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.staff_pages import signed_in

pytestmark = pytest.mark.django_db(transaction=True)

RAW = 'relation "catalog_category" does not exist'


def _broken_default_data():
    raise RuntimeError(RAW)


@pytest.mark.parametrize("viewport, tag", [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_an_arabic_owner_reads_a_failed_step_in_arabic_with_the_raw_error_as_a_detail(
        new_page, live_server, owner, screenshot, monkeypatch, viewport, tag):
    # given creating the default data fails on the database's own words
    monkeypatch.setattr("backoffice.database._default_data", _broken_default_data)
    page = signed_in(new_page, live_server, owner, viewport=viewport, locale="ar")
    page.goto("/ar/admindash/database")
    # when the Owner runs the initialisation
    page.get_by_role("button", name="تهيئة قاعدة البيانات").click()
    # then the failed step reads in Arabic
    failed = page.locator('[data-step-failed="default_data"]')
    expect(failed).to_contain_text("تعذّر إنشاء إعدادات المتجر والفئات.")
    expect(failed.get_by_text(RAW)).to_be_hidden()  # the raw error waits behind its detail
    failed.get_by_text("التفاصيل التقنية").click()
    detail = failed.locator("code")
    expect(detail).to_have_text(RAW)
    assert detail.get_attribute("dir") == "ltr"
    page.wait_for_load_state("networkidle")
    screenshot(page, f"database-step-failed-{tag}-ar")
    # and nothing else on the page is English a shop owner reads
    assert arabic_page_problems(page.content(), where="/ar/admindash/database") == []


def test_an_english_owner_reads_the_failed_step_in_english(new_page, live_server, owner, monkeypatch):
    monkeypatch.setattr("backoffice.database._default_data", _broken_default_data)
    page = signed_in(new_page, live_server, owner)
    page.goto("/admindash/database")
    page.get_by_role("button", name="Initialize Database").click()
    expect(page.locator('[data-step-failed="default_data"]')).to_contain_text(
        "The store settings and categories could not be created.")
