"""Runs whose worker died, and runs that waited in the queue: when they stop blocking, and what staff see."""

from datetime import timedelta

import pytest
from django.utils import timezone

from importer import services
from importer.api import status_payload
from importer.models import ImporterRun, RunStatus
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
    # then it is shown failed, with why, and a new crawl can start
    assert (job["status"], job["finished"], job["error"]) == ("failed", True, services.DEAD_ERROR)
    assert ImporterRun.objects.get(pk=run.pk).finished_at is not None
    assert services.run_active() is None


def test_a_run_queued_too_long_ago_is_not_started_when_a_worker_finally_takes_it():
    # given a crawl queued two hours ago (the queue was down): run_active no longer counts it
    run = _run(status=RunStatus.QUEUED, queued_ago=timedelta(hours=2))
    assert services.run_active() is None
    # when a worker takes its job at last
    services.run_crawl(run_id=run.pk)
    # then it does not crawl: a later run may have started since; it is ended as failed
    run.refresh_from_db()
    assert (run.status, run.started_at, run.error) == (RunStatus.FAILED, None, services.DEAD_ERROR)
