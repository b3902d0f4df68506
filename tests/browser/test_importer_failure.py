"""A crawl that found far fewer products than the last good one: the panel says why when it opens (EN, AR),
and staff who know the producer really lists fewer accept it with one button."""

import pytest
from playwright.sync_api import expect

from importer.models import ImporterRun, RunStatus
from importer.tests.test_failed_crawls import _new_layout
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.test_importer_panel import login, recrawled_after

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def shrunk(settings, tmp_path, monkeypatch, owner):
    """Nine products imported; then the producer's new layout shows one, and the crawl of it failed."""
    with recrawled_after(_new_layout, settings, tmp_path, monkeypatch, owner) as site:
        assert ImporterRun.objects.order_by("-created_at").first().failure == "too_few"
        yield site


def _panel(page, path):
    page.goto(path)
    page.locator('[data-island="admin-external-products"][data-mounted="true"]').wait_for()


def test_staff_read_why_the_crawl_failed_and_accept_a_smaller_catalogue(new_page, live_server, shrunk, owner):
    # given
    page = new_page(viewport=DESKTOP)
    login(page, live_server, owner)
    _panel(page, "/admindash/external-products")
    # then the panel says why the last crawl failed, and nothing is offered as gone
    expect(page.get_by_test_id("run-failure")).to_contain_text("Too few products found")
    expect(page.get_by_test_id("run-failure")).to_contain_text("1, against 9 in the last complete crawl")
    expect(page.get_by_test_id("diff-gone")).to_have_count(0)
    # when staff confirm the producer really lists fewer products now
    page.get_by_test_id("accept-fewer").click()
    # then the crawl is taken, and the eight others are offered as gone (unticked)
    expect(page.get_by_test_id("diff-gone")).to_contain_text("(8)")
    run = ImporterRun.objects.order_by("-created_at").first()
    assert (run.status, run.accept_fewer, run.max_pages) == (RunStatus.DONE, True, 100)
    expect(page.get_by_test_id("accept-fewer")).to_have_count(0)


def test_the_reason_reads_in_arabic(new_page, live_server, shrunk, owner):
    page = new_page(viewport=PHONE)
    login(page, live_server, owner)
    _panel(page, "/ar/admindash/external-products")
    expect(page.get_by_test_id("run-failure")).to_contain_text("عُثر على منتجات أقل من اللازم")
    expect(page.get_by_test_id("accept-fewer")).to_contain_text("يعرض المنتج فعلًا منتجات أقل الآن")
