"""Operators' commands and the beat jobs."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from catalog.models import Product
from importer import tasks
from importer.models import ExternalProduct, ImporterRun
from importer.tests.fake_site import EXPECTED, Answer
from shop.celery import app
from shop.store_settings import store_settings_update

pytestmark = pytest.mark.django_db


def test_import_products_dry_run_prints_progress_and_a_table_and_changes_nothing(shop_setup, capsys):
    # when
    call_command("import_products", "--base-url", shop_setup.url, "--max-pages", "100", "--dry-run")
    # then
    out = capsys.readouterr().out
    assert "pages, 9 products" in out and "[" in out  # the progress bar
    assert "Hangover Tea" in out and "350.00" in out and "280" in out
    assert "Dry run: nothing imported." in out
    assert Product.objects.count() == 0 and ExternalProduct.objects.count() == 0


def test_import_products_imports_and_a_second_run_updates(shop_setup, capsys):
    # when
    call_command("import_products", "--max-pages", "100")
    call_command("import_products", "--max-pages", "100")
    # then
    out = capsys.readouterr().out
    assert "Imported: 9 created, 0 updated, 0 failed." in out
    assert "Imported: 0 created, 9 updated, 0 failed." in out
    assert Product.objects.count() == len(EXPECTED)


def test_import_products_rejects_a_bad_base_url(shop_setup):
    with pytest.raises(Exception, match="not an http"):
        call_command("import_products", "--base-url", "ftp://example.org/")


def test_beat_refreshes_rates_and_ticks_the_auto_import():
    schedule = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert {"importer.tasks.rates_refresh_task", "importer.tasks.auto_import_tick"} <= schedule


def test_auto_import_is_off_unless_enabled(shop_setup):
    assert tasks.auto_import_tick() == "off"
    assert ImporterRun.objects.count() == 0


def test_auto_import_crawls_when_due_and_never_creates_products(shop_setup, django_capture_on_commit_callbacks):
    # given
    store_settings_update(external_auto_import=True, external_refresh_interval=6)
    ImporterRun.objects.create(base_url=shop_setup.url, status="done",
                               created_at=timezone.now() - timedelta(hours=7))
    # when
    assert tasks.auto_import_tick() == "started"
    # then the crawl is cached; new products wait for staff in the preview
    assert ExternalProduct.objects.count() == 9 and Product.objects.count() == 0
    # and not again before refreshInterval hours pass
    assert tasks.auto_import_tick() == "not due"


def test_a_site_exposing_the_woocommerce_store_api_is_read_from_the_feed(shop_setup, crawl, owner):
    # given
    feed = ('[{"id":1,"name":"Purple Tea","slug":"purple-tea","permalink":"%s/product/purple-tea/",'
            '"short_description":"<p>Rich in antioxidants, grown in Kenya.</p>",'
            '"prices":{"price":"45000","regular_price":"45000","currency_code":"KES","currency_minor_unit":2},'
            '"images":[],"categories":[{"slug":"health-wellness"}]}]') % shop_setup.url
    shop_setup.routes["/wp-json/wc/store/v1/products?per_page=100&page=1"] = Answer(
        200, feed, content_type="application/json")
    # when
    run = crawl(user=owner, max_pages=100)
    # then the feed is the whole catalogue: no HTML guessing
    assert [p.name for p in ExternalProduct.objects.all()] == ["Purple Tea"]
    assert ExternalProduct.objects.get().price == 450
    assert run.pages_fetched <= 6 and shop_setup.hits("/product-category/green-tea/") == 0


def test_a_crawl_survives_garbage_huge_and_redirecting_pages(shop_setup, crawl, owner, settings, monkeypatch):
    # given
    from importer import fetch

    monkeypatch.setattr(fetch, "MAX_PAGE_BYTES", 200_000)
    shop_setup.routes["/teas/"] = Answer(200, b"\xff\xfe<html><li class='product'><h2>\xe9\xe9",
                                         content_type="text/html")
    shop_setup.routes["/product-category/"] = Answer(200, "x" * 300_000)
    shop_setup.routes["/product-category/green-tea/"] = Answer(302, headers={"Location": "http://example.org/"})
    # when
    run = crawl(user=owner, max_pages=100)
    # then the crawl went on and reports the skipped pages
    assert run.status == "done" and run.products_found == 9
    assert any("larger than" in e for e in run.errors) and any("another site" in e for e in run.errors)
