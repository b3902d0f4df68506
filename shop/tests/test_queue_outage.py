"""A job that cannot be queued (broker down) never fails the request and is not silently lost."""

import time
from types import SimpleNamespace
from unittest import mock

import pytest
from kombu.exceptions import OperationalError

from importer.models import ImporterRun, RunStatus
from importer.services import dispatch, run_active
from importer.tasks import crawl_run_task
from shop import queue
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


def _hanging(seconds):
    """A broker that accepts the connection and then answers nothing: each try waits out the socket timeout."""
    def publish(*args, **kwargs):
        time.sleep(seconds)
        raise OperationalError("Timeout reading from socket")
    return publish


def test_after_the_broker_hangs_once_requests_stop_waiting_for_it_for_a_few_seconds(monkeypatch):
    # a Redis that hangs (failover, overload) held every request that queues a job for the socket timeout
    # (5 s: a checkout queues two or three); one request per process pays it, the next ones answer at once
    with mock.patch.object(heartbeat, "apply_async", side_effect=_hanging(0.3)) as publish:
        assert enqueue(heartbeat) is False
        started = time.monotonic()
        assert enqueue(heartbeat) is False and enqueue("shop.tasks.heartbeat") is False
        assert time.monotonic() - started < 0.1 and publish.call_count == 1
        # a worker's job (fail_fast=False) still uses the broker's own retry policy
        assert enqueue(heartbeat, fail_fast=False) is False and publish.call_count == 2
    # after the pause the broker is asked again
    later = time.monotonic() + queue.RESTING_SECONDS + 0.1
    monkeypatch.setattr(queue, "time", SimpleNamespace(monotonic=lambda: later))
    with mock.patch.object(heartbeat, "apply_async") as publish:
        assert enqueue(heartbeat) is True and publish.call_count == 1


def test_the_health_check_does_not_wait_on_a_hanging_broker_at_every_call(client, monkeypatch):
    # /healthz is public and polled by load balancers: each call held a web process 5 s while the broker hung
    from shop.celery import app

    class Hanging:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def ensure_connection(self, **kwargs):
            time.sleep(0.3)
            raise OperationalError("Timeout reading from socket")

    probes = []
    monkeypatch.setattr(app, "connection_for_write", lambda **kwargs: probes.append(kwargs) or Hanging())
    assert client.get("/healthz").json()["broker"] == "down"
    # the next call does not ask the hanging broker again (counted, not timed: a busy machine is slow anyway)
    assert client.get("/healthz").json()["broker"] == "down"
    assert len(probes) == 1
    # and the one probe waits at most a second for an answer, not the broker's 5 s
    assert probes[0]["transport_options"]["socket_timeout"] <= 1
