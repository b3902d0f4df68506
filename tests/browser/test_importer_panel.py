"""The importer panel in a real browser: crawl with live progress, preview, import all."""

import time
from contextlib import contextmanager

import pytest
from django.conf import settings as django_settings
from django.db import OperationalError
from django.test import Client

from catalog.models import Product
from importer import services
from importer.tests.fake_site import EXPECTED, producer_site, rate_services, shop_point_at, steady
from shop.rates import rates_refresh
from tests.browser.conftest import ARTIFACTS, DESKTOP, PHONE
from tests.threads import thread

pytestmark = pytest.mark.django_db(transaction=True)


@contextmanager
def recrawled_after(change, settings, tmp_path, monkeypatch, owner):
    """Nine products crawled and imported from the fake producer; then `change(site)` changes the producer's
    site and staff crawl it again (the crawl runs in the test's thread). Yields the site."""
    with producer_site() as site, rate_services() as rates:
        shop_point_at(steady(site), rates, settings=settings, media_root=tmp_path / "media", delay=0.002)
        monkeypatch.setattr(services, "dispatch", lambda run_id: services.run_crawl(run_id=run_id))
        services.run_start(user=owner, max_pages=100)
        services.external_products_import(user=owner)
        change(site)
        services.run_start(user=owner, max_pages=100)
        yield site


@pytest.fixture
def producer(settings, tmp_path, monkeypatch):
    with producer_site() as site, rate_services() as rates:
        shop_point_at(site, rates, settings=settings, media_root=tmp_path / "media", delay=0.05)
        # a worker of our own: the crawl runs beside the web server, so progress is really live
        workers = []

        # The test database is SQLite in shared memory, where a busy table fails at once instead
        # of waiting (file SQLite waits, PostgreSQL locks rows): store the rate up front so the
        # worker only writes its run, and let the worker start again if its first write collides.
        rates_refresh(force=True)

        def work(run_id):
            for _attempt in range(3):
                try:
                    return services.run_crawl(run_id=run_id)
                except OperationalError:
                    time.sleep(0.2)

        def dispatch(run_id):
            worker = thread(work, args=(run_id,), daemon=True)  # closes its connection when done
            workers.append(worker)
            worker.start()

        monkeypatch.setattr(services, "dispatch", dispatch)
        site.workers = workers
        yield site
        for worker in workers:
            worker.join(timeout=30)


def test_a_manager_crawls_watches_progress_previews_and_imports_everything(new_page, live_server, producer,
                                                                            manager, screenshot):
    # given
    page = new_page(viewport=DESKTOP)
    login(page, live_server, manager)
    page.goto("/admindash/external-products")
    panel = page.locator('[data-island="admin-external-products"][data-mounted="true"]')
    panel.wait_for()
    page.fill("#importer-max-pages", "100")
    # when a crawl starts
    page.get_by_role("button", name="Fetch latest").click()
    # then progress is drawn while it runs, and reaches 100 %
    page.locator(".importer-progress[data-status='running']").wait_for(timeout=20_000)
    page.wait_for_function("() => Number(document.querySelector('[data-testid=found]')?.textContent) >= 3",
                           timeout=20_000)
    screenshot(page, "importer-panel-running-en-desktop")
    page.locator(".importer-progress[data-status='done']").wait_for(timeout=60_000)
    assert page.get_by_role("progressbar").get_attribute("aria-valuenow") == "100"
    assert page.get_by_test_id("found").inner_text() == "9"
    # and the preview lists the products with EGP and KES prices
    items = page.get_by_test_id("preview-item")
    assert items.count() == 9
    hangover = items.filter(has_text="Hangover Tea")
    assert "E£280.00" in hangover.inner_text() and "KSh" in hangover.inner_text()
    assert "Attitude Teas" in hangover.inner_text()  # the shop category it will get, by name
    screenshot(page, "importer-panel-done-en-desktop")
    # when everything is imported: the diff before the import offers all nine, ticked
    page.get_by_test_id("diff-new").get_by_text("New products (9)").wait_for()
    page.get_by_role("button", name="Apply 9 changes").click()
    page.get_by_text("Applied: 9 new, 0 updated, 0 deactivated.").first.wait_for()
    # then the products are in the shop in EGP with the KES price kept beside
    assert Product.objects.count() == 9
    for name, (kes, egp, category) in EXPECTED.items():
        product = Product.objects.get(title=name)
        assert str(product.sale_price_amount or product.price_amount) == f"{egp}.00"
        assert str(product.kes_price_amount) == kes and product.category.slug == category
    # and a shopper sees the EGP price with the producer's KES price beside it, and the downloaded picture
    shop = new_page(viewport=DESKTOP)
    shop.goto(f"/product/{Product.objects.get(title='Hangover Tea').slug}")
    body = shop.locator("main").inner_text()
    assert "E£280.00" in body and "KSh\u00a0350" in body
    assert "/media/products/imported/" in shop.locator("main img").first.get_attribute("src")
    screenshot(shop, "importer-imported-product-en-desktop")


def test_the_panel_reads_right_to_left_in_arabic_on_a_phone(new_page, live_server, producer, owner, screenshot):
    # given a finished crawl
    services.run_start(user=owner, max_pages=100)
    producer.workers[0].join(timeout=30)
    page = new_page(viewport=PHONE, locale="ar-EG")
    login(page, live_server, owner)
    # when
    page.goto("/ar/admindash/external-products")
    page.locator('[data-island="admin-external-products"][data-mounted="true"]').wait_for()
    # then
    assert page.locator("html").get_attribute("dir") == "rtl"
    page.get_by_role("button", name="جلب الأحدث").wait_for()
    page.get_by_text("اكتمل الزحف").wait_for()
    assert page.get_by_test_id("preview-item").count() == 9
    screenshot(page, "importer-panel-done-ar-phone")
    page.screenshot(path=str(ARTIFACTS / "importer-panel-done-ar-phone-top.png"))
    page.locator(".importer-progress").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "importer-panel-done-ar-phone-progress.png"))


def test_support_staff_see_the_panel_but_not_its_actions(new_page, live_server, support, producer):
    page = new_page()
    login(page, live_server, support)
    page.goto("/admindash/external-products")
    # support may view (role matrix): the panel loads read-only
    page.locator('[data-island="admin-external-products"][data-mounted="true"]').wait_for()
    page.get_by_text("Your role can view the importer but not run it.").wait_for()
    assert page.get_by_role("button", name="Fetch latest").is_disabled()
    assert page.get_by_role("button", name="Clear cache").is_disabled()


def login(page, live_server, user):
    client = Client()
    client.force_login(user)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
