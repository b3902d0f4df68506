"""A producer site that answers but shows no products, or far fewer than before, is a failed crawl: nothing is
called gone, the last good products stay cached, staff read why in their language. A scheduled crawl that fails
tells the Owners by e-mail, once for a series of failures, and once when it works again."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from importer import services, tasks
from importer.models import DEAD_ERROR, ExternalProduct, ImporterRun, RunFailure, RunStatus
from importer.selectors import run_error
from importer.sync import diff_build
from importer.tests.fake_site import Answer, card, listing, page, woo_price
from shop.models import OutboundEmail
from shop.store_settings import store_settings_update

pytestmark = pytest.mark.django_db

MAINTENANCE = page("<main><h1>We'll be back soon</h1><p>Our shop is down for maintenance.</p></main>")


@pytest.fixture
def imported(shop_setup, crawl, owner):
    """The fake producer's nine products, read by a whole-site crawl and imported by staff a day ago."""
    run = crawl(user=owner, max_pages=100)
    assert (run.status, run.complete, run.products_found) == (RunStatus.DONE, True, 9)
    services.external_products_import(user=owner)
    ImporterRun.objects.filter(pk=run.pk).update(created_at=timezone.now() - timedelta(hours=25))
    store_settings_update(external_auto_import=True, external_refresh_interval=24)
    return shop_setup


def _maintenance(site):
    """Every page of the site answers 200 with a maintenance page (robots.txt still served)."""
    for path in list(site.routes):
        if path != "/robots.txt":
            site.routes[path] = Answer(200, MAINTENANCE)


def _new_layout(site):
    """The listings changed their markup (the parsers read nothing); one category still shows Detox Tea."""
    _maintenance(site)
    site.routes["/"] = Answer(200, page('<main><a href="/product-category/health-wellness/">Wellness</a></main>'))
    site.routes["/product-category/health-wellness/"] = Answer(200, listing([
        card("Detox Tea", "/product/detox-tea/", category="health-wellness", price_html=woo_price("420.00"))]))


def _status(user, language="en"):
    client = APIClient()
    client.force_login(user)
    return client.get("/api/admin/scrape/status", HTTP_ACCEPT_LANGUAGE=language).json()


def test_a_scheduled_crawl_finding_far_fewer_products_fails_and_calls_nothing_gone(imported, owner):
    # given the producer's new layout, where the parsers find one product of the nine
    _new_layout(imported)
    # when beat ticks
    assert tasks.auto_import_tick() == "started"
    # then the run failed, held to the last good crawl's nine
    run = ImporterRun.objects.order_by("-created_at").first()
    assert (run.status, run.failure, run.products_found, run.products_before) == (
        RunStatus.FAILED, RunFailure.TOO_FEW, 1, 9)
    assert "Too few products found" in run.error
    # and nothing is gone: the preview offers no deactivation, the last good products stay cached
    diff = diff_build()
    assert diff.gone == [] and not diff.gone_checked
    assert ExternalProduct.objects.count() == 9
    # and no summary e-mail reports eight products gone
    assert not OutboundEmail.objects.filter(subject__contains="scheduled import updated").exists()


@pytest.mark.parametrize("language", ["en", "ar"])
def test_staff_read_why_in_their_language(imported, owner, crawl, language):
    # given the producer's new layout
    _new_layout(imported)
    # when staff crawl
    crawl(user=owner, max_pages=100)
    # then the panel says the crawl failed, and why, in the reader's language
    job = _status(owner, language)["job"]
    assert (job["status"], job["failure"]) == ("failed", "too_few")
    url = f"\u2068{imported.url}\u2069"
    if language == "en":
        assert job["error"] == (
            f"Too few products found on {url}: 1, against 9 in the last complete crawl (fewer than half: a "
            "maintenance page, an emptied listing or a changed layout?). Nothing is called gone, and the "
            "products found before are kept.")
    else:
        assert job["error"].startswith(f"عُثر على منتجات أقل من اللازم في {url}: 1، مقابل 9 في آخر زحف كامل")
        assert job["error"].endswith("وتبقى المنتجات التي عُثر عليها من قبل.")


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_maintenance_page_everywhere_is_a_failure_with_a_reason(imported, owner, crawl, language):
    # given every page answers 200 with a maintenance page
    _maintenance(imported)
    # when staff crawl
    run = crawl(user=owner, max_pages=100)
    # then
    assert (run.status, run.failure) == (RunStatus.FAILED, RunFailure.NO_PRODUCTS)
    assert not diff_build().gone_checked and ExternalProduct.objects.count() == 9
    error = _status(owner, language)["job"]["error"]
    url = f"\u2068{imported.url}\u2069"
    if language == "en":
        assert error.startswith(f"The producer's site {url} answered, but no products were found on it (a "
                                "maintenance page, an empty listing or a changed layout?).")
    else:
        assert error.startswith(f"أجاب موقع المنتج {url}، لكن لم يُعثر فيه على أي منتج")


def test_a_site_that_is_down_is_a_failure_naming_the_error(imported, owner, crawl, monkeypatch):
    monkeypatch.setattr("importer.fetch.FIRST_BACKOFF", 0.01)
    # given every page answers 500 (robots.txt is there; no feed, as on most sites)
    for path in list(imported.routes):
        if path != "/robots.txt":
            imported.routes[path] = Answer(500, "<html>Internal Server Error</html>")
    # when
    run = crawl(user=owner, max_pages=3)
    # then
    assert (run.status, run.failure) == (RunStatus.FAILED, RunFailure.UNREACHABLE)
    assert run.error.startswith(f"The producer's site \u2068{imported.url}\u2069 could not be read: every page "
                                "failed (\u2068HTTP 500")


def test_a_crawl_cut_short_by_its_page_limit_is_not_held_to_the_last_good_count(imported, owner, crawl):
    # given a staff crawl of four pages (the two feeds, the home page, the shop's first three products)
    run = crawl(user=owner, max_pages=4)
    assert run.products_found == 3
    # then it is a partial crawl, not a failure
    assert (run.status, run.failure, run.complete) == (RunStatus.DONE, "", False)


def test_a_small_catalogue_before_is_not_held_to_it(shop_setup, owner, crawl):
    # given the last good crawl found three products (under SHRINK_MIN_BEFORE)
    ImporterRun.objects.create(base_url=shop_setup.url, status=RunStatus.DONE, complete=True,
                               products_found=services.SHRINK_MIN_BEFORE - 1)
    _new_layout(shop_setup)
    # when a crawl finds one
    run = crawl(user=owner, max_pages=100)
    # then it is taken
    assert (run.status, run.products_found) == (RunStatus.DONE, 1)


def test_another_producer_address_is_not_held_to_the_last_site_s_count(imported, owner, crawl):
    # given the last good crawl was of another producer address
    ImporterRun.objects.update(base_url="https://old-producer.example/")
    _new_layout(imported)
    # when
    run = crawl(user=owner, max_pages=100)
    # then
    assert run.status == RunStatus.DONE


def test_staff_accept_a_producer_that_really_lists_fewer_products(imported, owner, crawl):
    # given the producer really dropped eight products: the crawl fails
    _new_layout(imported)
    assert crawl(user=owner, max_pages=100).failure == RunFailure.TOO_FEW
    # when staff crawl again, accepting fewer products
    run = crawl(user=owner, max_pages=100, accept_fewer=True)
    # then the crawl is taken, and the eight are offered as gone
    assert (run.status, run.complete) == (RunStatus.DONE, True)
    diff = diff_build()
    assert diff.gone_checked and len(diff.gone) == 8
    # and it is the new last good crawl: the next one is held to one product, not nine
    assert services.last_good_run(imported.url).pk == run.pk
    assert crawl(user=owner, max_pages=100).status == RunStatus.DONE


def test_the_api_takes_accept_fewer(imported, owner, django_capture_on_commit_callbacks):
    _new_layout(imported)
    client = APIClient()
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/api/admin/scrape", {"forceRefresh": True, "maxPages": 100, "acceptFewer": True}, format="json")
    run = ImporterRun.objects.order_by("-created_at").first()
    assert (run.accept_fewer, run.status) == (True, RunStatus.DONE)


# -- the Owners told -----------------------------------------------------------------------------------


def _failure_mails(**filters):
    return OutboundEmail.objects.filter(subject__contains="scheduled product update failed", **filters)


def test_a_failing_scheduled_update_mails_the_owners_once_then_once_when_it_works_again(imported, owner):
    # given the last scheduled update worked a day ago, and now the producer shows a maintenance page
    ImporterRun.objects.update(started_by=None)
    good = ImporterRun.objects.get()
    routes = dict(imported.routes)
    _maintenance(imported)
    # when beat ticks: the scheduled crawl fails
    assert tasks.auto_import_tick() == "started"
    # then the Owner gets one e-mail saying so, why, and when the last good update was
    [mail] = _failure_mails(to=owner.email)
    assert mail.language == "en"
    assert "The scheduled update of the shop's products from the producer's site" in mail.text
    assert "Why: The producer's site \u2068" + imported.url + "\u2069 answered, but no products were found" in mail.text
    when = timezone.localtime(good.finished_at).strftime("%Y-%m-%d %H:%M")
    assert f"The last scheduled update that worked was on \u2066{when}\u2069" in mail.text
    assert "/admindash/external-products" in mail.text
    # when the next hourly ticks fail too
    for _hour in range(2):
        assert tasks.auto_import_tick() == "started"
    # then no other e-mail: one for the series, not one per failed run
    assert ImporterRun.objects.filter(status=RunStatus.FAILED).count() == 3
    assert _failure_mails().count() == 1
    # when the producer is back and the next tick works
    imported.routes.update(routes)
    assert tasks.auto_import_tick() == "started"
    assert ImporterRun.objects.order_by("-created_at").first().status == RunStatus.DONE
    # then one e-mail says it works again (beside the usual summary)
    [back] = OutboundEmail.objects.filter(to=owner.email, subject__contains="works again")
    assert "The scheduled update of the shop's products works again" in back.text
    assert OutboundEmail.objects.filter(to=owner.email, subject__contains="scheduled import updated").count() == 1
    # and a later failure starts a new series: one e-mail again
    ImporterRun.objects.update(created_at=timezone.now() - timedelta(hours=25))
    _maintenance(imported)
    assert tasks.auto_import_tick() == "started"
    assert _failure_mails().count() == 2


def test_the_failure_mail_is_in_arabic_for_an_arabic_owner(imported, owner):
    # given an Owner reading Arabic, no scheduled update that ever worked, and a producer in maintenance
    owner.language = "ar"
    owner.save(update_fields=["language"])
    _maintenance(imported)
    # when
    assert tasks.auto_import_tick() == "started"
    # then
    [mail] = OutboundEmail.objects.filter(to=owner.email, subject__contains="فشل التحديث المجدول")
    assert mail.language == "ar" and "\u2068" in mail.subject
    assert f"فشل التحديث المجدول لمنتجات المتجر من موقع المنتج \u2068{imported.url}\u2069 في \u2066" in mail.text
    assert f"السبب: أجاب موقع المنتج \u2068{imported.url}\u2069، لكن لم يُعثر فيه على أي منتج" in mail.text
    assert "لم ينجح أي تحديث مجدول بعد." in mail.text


def test_a_crawl_staff_start_mails_nobody_when_it_fails(imported, owner, crawl):
    _maintenance(imported)
    assert crawl(user=owner, max_pages=100).status == RunStatus.FAILED
    assert not _failure_mails().exists()


def test_a_series_that_began_with_a_dead_worker_is_still_told(imported, owner):
    # given a scheduled run whose worker died (stored failed by the sweep; nobody was e-mailed)
    ImporterRun.objects.create(base_url=imported.url, status=RunStatus.FAILED, error=DEAD_ERROR,
                               created_at=timezone.now() - timedelta(hours=2))
    _maintenance(imported)
    # when the next scheduled crawl fails
    assert tasks.auto_import_tick() == "started"
    # then the Owner is told
    assert _failure_mails(to=owner.email).count() == 1


def test_a_scheduled_run_whose_worker_dies_is_told_by_the_sweep_once(imported, owner):
    # given the last scheduled update worked, and the next one's worker was killed an hour and a half ago
    ImporterRun.objects.update(started_by=None)
    ImporterRun.objects.create(base_url=imported.url, status=RunStatus.RUNNING, started_by=None,
                               created_at=timezone.now() - timedelta(minutes=95),
                               started_at=timezone.now() - timedelta(minutes=90))
    # when beat's sweep stores it failed, and sweeps again ten minutes later
    tasks.runs_end_dead_task()
    tasks.runs_end_dead_task()
    # then the Owner is told once, why (the worker stopped) included, in their language
    [mail] = _failure_mails(to=owner.email)
    assert ImporterRun.objects.order_by("-created_at").first().status == RunStatus.FAILED
    assert f"Why: {DEAD_ERROR}" in mail.text
    # and a crawl staff started whose worker died tells nobody
    OutboundEmail.objects.all().delete()
    ImporterRun.objects.create(base_url=imported.url, status=RunStatus.RUNNING, started_by=owner,
                               created_at=timezone.now() - timedelta(minutes=95),
                               started_at=timezone.now() - timedelta(minutes=90))
    tasks.runs_end_dead_task()
    assert not _failure_mails().exists()


def test_staff_and_owners_read_why_a_dead_worker_s_run_failed_in_arabic(imported, owner):
    owner.language = "ar"
    owner.save(update_fields=["language"])
    ImporterRun.objects.create(base_url=imported.url, status=RunStatus.QUEUED, started_by=None,
                               created_at=timezone.now() - timedelta(minutes=95))  # no worker ever took it
    tasks.runs_end_dead_task()
    arabic = "توقّف عامل الزحف قبل أن ينتهي"
    [mail] = OutboundEmail.objects.filter(to=owner.email, subject__contains="فشل التحديث المجدول")
    assert arabic in mail.text and DEAD_ERROR not in mail.text
    assert arabic in _status(owner, "ar")["job"]["error"]


def test_the_failure_is_told_once_when_the_job_is_delivered_twice(imported, owner):
    # given a scheduled crawl that failed and told the Owner
    _maintenance(imported)
    assert tasks.auto_import_tick() == "started"
    run = ImporterRun.objects.order_by("-created_at").first()
    # when the same job is delivered again (a worker's late acknowledgement)
    tasks.crawl_run_task(run.pk, scheduled=True)
    # then
    assert _failure_mails().count() == 1


def test_the_times_in_the_owners_mails_are_the_store_s(imported, owner):
    # given a store in Tokyo (the server's zone is Cairo's), whose last scheduled update worked a day ago
    store_settings_update(timezone="Asia/Tokyo")
    ImporterRun.objects.update(started_by=None)
    good = ImporterRun.objects.get()
    routes = dict(imported.routes)
    _maintenance(imported)
    # when the scheduled update fails, then works again
    assert tasks.auto_import_tick() == "started"
    failed = ImporterRun.objects.order_by("-created_at").first()
    imported.routes.update(routes)
    ImporterRun.objects.filter(pk=failed.pk).update(created_at=timezone.now() - timedelta(hours=25))
    assert tasks.auto_import_tick() == "started"
    recovered = ImporterRun.objects.order_by("-created_at").first()
    # then both e-mails give Tokyo's wall-clock times
    tokyo = ZoneInfo("Asia/Tokyo")

    def shown(moment):
        return "\u2066" + moment.astimezone(tokyo).strftime("%Y-%m-%d %H:%M") + "\u2069"

    [mail] = _failure_mails(to=owner.email)
    assert f"failed on {shown(failed.finished_at)}." in mail.text
    assert f"worked was on {shown(good.finished_at)}:" in mail.text
    [back] = OutboundEmail.objects.filter(to=owner.email, subject__contains="works again")
    assert f"on {shown(recovered.finished_at)}, after failing since {shown(failed.finished_at)}." in back.text


def test_the_owners_read_a_crash_s_own_error_isolated_and_a_named_failure_in_words(imported, owner, monkeypatch):
    # given a scheduled crawl that crashes
    from importer import services as importer_services

    def crash(self):
        raise RuntimeError("disk full at /srv/cache")

    monkeypatch.setattr(importer_services.Crawl, "run", crash)
    # when beat ticks
    assert tasks.auto_import_tick() == "started"
    # then the Owner reads the stored error as it is, in its own direction inside the sentence
    [mail] = _failure_mails(to=owner.email)
    assert "Why: \u2068RuntimeError: disk full at /srv/cache\u2069" in mail.text
    # and so does the API's error; a failure the importer names is told in words, never wrapped
    crashed = ImporterRun.objects.order_by("-created_at").first()
    from importer.api import _scrape_body

    body = _scrape_body(config=importer_services.importer_config(), run=crashed)
    assert body["error"] == "Server-side scraper failed: \u2068RuntimeError: disk full at /srv/cache\u2069"
    crashed.error, crashed.failure = "", RunFailure.NO_PRODUCTS
    assert run_error(crashed, isolated=True) == run_error(crashed)
    assert run_error(crashed).startswith("The producer's site")
    crashed.failure, crashed.error = "", DEAD_ERROR
    assert run_error(crashed, isolated=True) == DEAD_ERROR
