"""A crawl of a producer's site that is down: the Arabic panel says why, and lists each failed page in
Arabic, the status code and the URL isolated left-to-right (360 and 1280 px)."""

import pytest
from playwright.sync_api import expect

from importer.models import ImporterRun
from importer.tests.fake_site import Answer
from tests.arabic_text import arabic_page_problems
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.test_importer_panel import login, recrawled_after

pytestmark = pytest.mark.django_db(transaction=True)


def _down(site):
    for path in list(site.routes):
        if path != "/robots.txt":
            site.routes[path] = Answer(500, "<html>Internal Server Error</html>")


@pytest.fixture
def down(settings, tmp_path, monkeypatch, owner):
    monkeypatch.setattr("importer.fetch.FIRST_BACKOFF", 0.001)
    with recrawled_after(_down, settings, tmp_path, monkeypatch, owner) as site:
        assert ImporterRun.objects.order_by("-created_at").first().failure == "unreachable"
        yield site


def test_staff_read_each_failed_page_in_arabic(new_page, live_server, down, owner, screenshot):
    page = new_page(viewport=DESKTOP, locale="ar")
    login(page, live_server, owner)
    page.goto("/ar/admindash/external-products")
    page.locator('[data-island="admin-external-products"][data-mounted="true"]').wait_for()
    expect(page.get_by_test_id("run-failure")).to_contain_text("تعذّرت قراءة موقع المنتج")
    expect(page.get_by_test_id("run-failure")).to_contain_text("ردّ الموقع برمز الحالة")
    errors = page.locator(".importer-errors")
    errors.locator("summary").click()
    expect(errors.locator("li").first).to_contain_text("لم تُقرأ الصفحة، ردّ الموقع برمز الحالة \u2066500\u2069")
    page.wait_for_load_state("networkidle")
    text = page.locator("main").inner_text()
    assert "HTTP" not in text and "attempts" not in text
    assert arabic_page_problems(page.content(), where="/ar/admindash/external-products") == []
    screenshot(page, "importer-errors-ar-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, "importer-errors-ar-phone")
