"""Runs whose worker died, and runs that waited in the queue: when they stop blocking, and what staff see."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from importer import services
from importer.api import status_payload
from importer.models import ImporterRun, RunStatus
from importer.selectors import run_error
from importer.tasks import runs_end_dead_task
from shop.celery import app
from shop.errors import ShopError

pytestmark = pytest.mark.django_db


def _run(*, status, queued_ago, started_ago=None):
    now = timezone.now()
    run = ImporterRun.objects.create(base_url="https://producer.example", max_pages=5, status=status)
    ImporterRun.objects.filter(pk=run.pk).update(
        created_at=now - queued_ago, started_at=None if started_ago is None else now - started_ago)
    return run


def test_a_crawl_that_waited_in_the_queue_still_blocks_a_second_one_while_it_runs(shop_setup):
    # given a crawl queued 70 minutes ago that a worker started 40 minutes ago (the job may run 50)
    _run(status=RunStatus.RUNNING, queued_ago=timedelta(minutes=70), started_ago=timedelta(minutes=40))
    # when staff start another, then it is refused: two crawls at once would race on the cache
    with pytest.raises(ShopError, match="already running"):
        services.run_start(base_url=shop_setup.url)


def test_a_run_whose_worker_died_shows_failed_and_no_longer_blocks():
    # given a crawl started 70 minutes ago and never finished (its worker was killed)
    run = _run(status=RunStatus.RUNNING, queued_ago=timedelta(minutes=75), started_ago=timedelta(minutes=70))
    # when the panel asks
    job = status_payload()["job"]
    # then it is shown failed, with why, ended when it became dead, and a new crawl can start
    assert (job["status"], job["finished"], job["error"]) == ("failed", True, services.DEAD_ERROR)
    assert job["finished_at"] == ImporterRun.objects.get(pk=run.pk).started_at + services.STALE_AFTER
    assert job["elapsed_seconds"] == 3600.0
    assert services.run_active() is None


def _writes(queries):
    return [q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith("SELECT")]


def test_polling_the_status_writes_nothing_even_with_a_dead_run(client, owner):
    # given a crawl whose worker died, and the panel polling
    client.force_login(owner)
    client.get("/api/admin/scrape/status")  # the session's first read (its expiry) is not the poll's
    run = _run(status=RunStatus.RUNNING, queued_ago=timedelta(minutes=75), started_ago=timedelta(minutes=70))
    # when
    with CaptureQueriesContext(connection) as polled:
        answer = client.get("/api/admin/scrape/status")
    # then: shown ended, and not one write (a poll every few seconds took the write lock each time)
    assert answer.json()["job"]["status"] == "failed"
    assert _writes(polled.captured_queries) == []
    assert ImporterRun.objects.get(pk=run.pk).status == RunStatus.RUNNING


def test_a_poll_reads_as_many_queries_with_a_dead_run_as_with_a_live_one(django_assert_num_queries):
    # given
    live = _run(status=RunStatus.RUNNING, queued_ago=timedelta(minutes=6), started_ago=timedelta(minutes=5))
    status_payload()  # the settings' first read (cached since) is no poll's
    with CaptureQueriesContext(connection) as baseline:
        status_payload()
    ImporterRun.objects.filter(pk=live.pk).update(started_at=timezone.now() - timedelta(minutes=70))
    # then
    with django_assert_num_queries(len(baseline.captured_queries)):
        assert status_payload()["job"]["status"] == "failed"


def test_starting_a_crawl_stores_the_dead_run_failed(shop_setup):
    # given
    dead = _run(status=RunStatus.RUNNING, queued_ago=timedelta(minutes=75), started_ago=timedelta(minutes=70))
    # when
    services.run_start(base_url=shop_setup.url)
    # then
    dead.refresh_from_db()
    assert (dead.status, dead.error) == (RunStatus.FAILED, services.DEAD_ERROR)
    assert dead.finished_at is not None


def test_beat_sweeps_dead_runs_every_ten_minutes():
    # given
    dead = _run(status=RunStatus.QUEUED, queued_ago=timedelta(hours=2))
    live = _run(status=RunStatus.QUEUED, queued_ago=timedelta(minutes=2))
    # when
    runs_end_dead_task()
    # then
    assert ImporterRun.objects.get(pk=dead.pk).status == RunStatus.FAILED
    assert ImporterRun.objects.get(pk=live.pk).status == RunStatus.QUEUED
    entry = app.conf.beat_schedule["importer-dead-runs"]
    assert (entry["task"], entry["schedule"]) == ("importer.tasks.runs_end_dead_task", 600.0)


def test_a_run_queued_too_long_ago_is_not_started_when_a_worker_finally_takes_it():
    # given a crawl queued two hours ago (the queue was down): run_active no longer counts it
    run = _run(status=RunStatus.QUEUED, queued_ago=timedelta(hours=2))
    assert services.run_active() is None
    # when a worker takes its job at last
    services.run_crawl(run_id=run.pk)
    # then it does not crawl: a later run may have started since; it is ended as failed
    run.refresh_from_db()
    assert (run.status, run.started_at, run.error) == (RunStatus.FAILED, None, services.DEAD_ERROR)


@pytest.mark.django_db(transaction=True)
def test_a_process_of_the_release_before_importer_0005_can_still_queue_a_run():
    # given importer 0005 (ImporterRun.unpriced) applied while an older web or beat process still runs: its
    # INSERT names no such column
    columns = ["status", "base_url", "max_pages", "pages_planned", "pages_fetched", "products_found", "errors",
               "error", "cancel_requested", "complete", "created_at"]
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO importer_importerrun ({', '.join(columns)}) VALUES "
                       f"({', '.join(['%s'] * len(columns))})",
                       ["queued", "https://producer.example/", 20, 0, 0, 0, "[]", "", False, False,
                        "2026-11-29 10:00:00+00"])
    # then the run is there with no unpriced pages
    run = ImporterRun.objects.get(base_url="https://producer.example/")
    assert run.unpriced == []
    # and importer 0006's columns have their defaults too: no failure, nothing accepted, nobody told
    assert (run.failure, run.products_before, run.accept_fewer, run.owners_told) == ("", None, False, False)


@pytest.mark.django_db
def test_a_run_the_queue_refused_says_why_in_the_readers_language(monkeypatch):
    # given: a crawl handed to a queue that cannot be reached
    run = ImporterRun.objects.create(base_url="https://producer.example", max_pages=5)
    monkeypatch.setattr(services, "enqueue", lambda *args, **kwargs: False)
    services.dispatch(run.pk)
    run.refresh_from_db()
    assert (run.status, run.error) == (RunStatus.FAILED, services.QUEUE_ERROR)
    # then: the dashboard's status reads it in Arabic to an Arabic reader, as a dead worker's
    with translation.override("ar"):
        assert run_error(run) == "طابور المهام غير متاح؛ يُرجى المحاولة مرة أخرى."
    with translation.override("en"):
        assert run_error(run) == "The job queue is unavailable; please try again."
