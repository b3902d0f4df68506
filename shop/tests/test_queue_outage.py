"""A job that cannot be queued (broker down) never fails the request and is not silently lost."""

from unittest import mock

import pytest
from kombu.exceptions import OperationalError

from importer.models import ImporterRun, RunStatus
from importer.services import dispatch, run_active
from importer.tasks import crawl_run_task
from shop.queue import enqueue
from shop.tasks import heartbeat

pytestmark = pytest.mark.django_db


def test_enqueue_reports_a_broker_outage_instead_of_raising():
    with mock.patch.object(heartbeat, "apply_async", side_effect=OperationalError("connection refused")):
        assert enqueue(heartbeat) is False


def test_enqueue_queues_the_job_when_the_broker_answers():
    with mock.patch.object(heartbeat, "apply_async") as queued:
        assert enqueue(heartbeat) is True
    queued.assert_called_once_with(args=(), kwargs={}, retry=False)


def test_enqueue_from_a_worker_may_use_the_brokers_retry_policy():
    with mock.patch.object(heartbeat, "apply_async") as queued:
        assert enqueue(heartbeat, fail_fast=False) is True
    queued.assert_called_once_with(args=(), kwargs={}, retry=True)


def test_enqueue_takes_a_task_by_its_dotted_path():
    with mock.patch.object(heartbeat, "apply_async") as queued:
        assert enqueue("shop.tasks.heartbeat", 1, flag=True) is True
    queued.assert_called_once_with(args=(1,), kwargs={"flag": True}, retry=False)


def test_enqueue_reports_a_refused_connection_as_an_outage():
    with mock.patch.object(heartbeat, "apply_async", side_effect=ConnectionRefusedError(111, "refused")):
        assert enqueue(heartbeat) is False


def test_a_crawl_that_cannot_be_queued_fails_at_once_so_the_next_one_can_start():
    # given a queued run
    run = ImporterRun.objects.create(base_url="https://producer.example")
    # when the broker refuses it
    with mock.patch.object(crawl_run_task, "apply_async", side_effect=OperationalError("down")):
        dispatch(run.pk)
    # then the run says why, and no longer counts as running
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and "queue" in run.error
    assert run_active() is None
