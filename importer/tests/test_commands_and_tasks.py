"""Operators' commands and the beat jobs."""

from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from catalog.models import Product
from importer import services, tasks
from importer.models import ExternalProduct, ImporterRun, RunFailure, RunStatus
from importer.tests.fake_site import EXPECTED, Answer, card, listing, page, woo_price
from shop.celery import app
from shop.models import OutboundEmail
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
    with pytest.raises(Exception, match="--base-url: .*not a web address"):
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


def _one_product_left(site):
    """The producer's listings now read as one product: a changed layout, a maintenance page almost everywhere."""
    for path in list(site.routes):
        if path != "/robots.txt":
            site.routes[path] = Answer(200, page("<main><h1>We'll be back soon</h1></main>"))
    site.routes["/"] = Answer(200, page('<main><a href="/product-category/health-wellness/">Wellness</a></main>'))
    site.routes["/product-category/health-wellness/"] = Answer(200, listing([
        card("Detox Tea", "/product/detox-tea/", category="health-wellness", price_html=woo_price("420.00"))]))


def test_import_products_is_held_to_the_last_good_crawl_s_count_as_any_crawl(shop_setup, capsys):
    # given nine products imported by the command, and the producer's site now showing one
    call_command("import_products", "--max-pages", "100")
    _one_product_left(shop_setup)
    # when the operator imports again
    with pytest.raises(CommandError) as failed:
        call_command("import_products", "--max-pages", "100")
    # then it fails, saying why and how to go on, and nothing was cached or imported from it
    assert str(failed.value).startswith("The crawl failed, nothing imported: Too few products found on")
    assert "1, against 9 in the last complete crawl" in str(failed.value)
    assert "--accept-fewer" in str(failed.value)
    assert ExternalProduct.objects.count() == 9
    run = ImporterRun.objects.order_by("-created_at").first()
    assert (run.status, run.failure, run.products_before) == (RunStatus.FAILED, RunFailure.TOO_FEW, 9)
    # and the dry run says the same, writing nothing
    with pytest.raises(CommandError, match="Too few products found"):
        call_command("import_products", "--max-pages", "100", "--dry-run")
    assert ImporterRun.objects.count() == 2
    # when the operator confirms the producer really lists one product now
    capsys.readouterr()
    call_command("import_products", "--max-pages", "100", "--accept-fewer")
    # then it is imported, and it is the new last good crawl
    assert "Imported: 0 created, 1 updated, 0 failed." in capsys.readouterr().out
    assert [p.name for p in ExternalProduct.objects.all()] == ["Detox Tea"]
    assert services.last_good_run(shop_setup.url).accept_fewer


def test_import_products_exits_non_zero_when_the_site_shows_no_products(shop_setup):
    # given
    for path in list(shop_setup.routes):
        shop_setup.routes[path] = Answer(200, page("<main><h1>We'll be back soon</h1></main>"))
    # when / then (a CommandError: exit status 1 in the shell)
    with pytest.raises(CommandError, match="answered, but no products were found on it"):
        call_command("import_products", "--max-pages", "100")
    assert Product.objects.count() == 0 and ExternalProduct.objects.count() == 0


@pytest.mark.parametrize("dry_run", [(), ("--dry-run",)], ids=["import", "dry run"])
def test_import_products_refuses_to_run_beside_a_running_crawl(shop_setup, owner, dry_run):
    running = ImporterRun.objects.create(base_url=shop_setup.url, status=RunStatus.RUNNING, started_at=timezone.now())
    with pytest.raises(CommandError, match="A crawl is already running."):
        call_command("import_products", *dry_run)
    # and nothing was asked of the producer's site
    assert list(ImporterRun.objects.all()) == [running] and not shop_setup.requests


def test_a_failed_import_products_is_not_a_failed_scheduled_update_for_the_owners(shop_setup, owner):
    # given the operator's import failed (the site shows a maintenance page)
    for path in list(shop_setup.routes):
        shop_setup.routes[path] = Answer(200, page("<main><h1>We'll be back soon</h1></main>"))
    with pytest.raises(CommandError):
        call_command("import_products", "--max-pages", "5")
    # when beat's sweep looks for a failing series of scheduled updates
    tasks.runs_end_dead_task()
    # then the Owners are not told the scheduled update failed: the operator saw it fail
    assert not OutboundEmail.objects.exists()
