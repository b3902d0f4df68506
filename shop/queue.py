"""Queue a Celery job without ever failing the request that asks for it.

A leaf module: services import it to enqueue their own app's tasks by dotted
path, so a tasks module may import its services without a cycle.
"""

import logging
import time
from collections.abc import Callable, Iterable
from importlib import import_module
from typing import Any, TypeVar

from kombu.exceptions import OperationalError

log = logging.getLogger(__name__)
T = TypeVar("T")


# After the broker failed a request (refused, or hung until its socket timeout: 5 s), requests do not
# ask it again for this long in this process: a hanging Redis costs one request per process a wait,
# not every checkout and every /healthz call. Jobs in a worker (fail_fast=False) always ask.
RESTING_SECONDS = 5.0
_resting_until = 0.0


def broker_resting() -> bool:
    """Whether the broker failed in this process less than RESTING_SECONDS ago."""
    return time.monotonic() < _resting_until


def broker_failed() -> None:
    global _resting_until
    _resting_until = time.monotonic() + RESTING_SECONDS


def broker_answered() -> None:
    global _resting_until
    _resting_until = 0.0


def enqueue(task: Any, *args: Any, fail_fast: bool = True, **kwargs: Any) -> bool:
    """Queue a Celery job; when the broker cannot be reached, log it and return False.

    `task` is a task or its dotted path ("importer.tasks.crawl_run_task"): a
    service names its own app's task by path, because that tasks module
    imports the service. With `fail_fast` (the default, for requests) the
    broker is tried once, and not at all for a few seconds after it failed (RESTING_SECONDS), so a page
    never hangs on a down queue; jobs running
    in a worker may pass `fail_fast=False` to use the broker's retry policy.
    Either way callers decide how the work is recovered (a periodic sweep, a
    retry by staff): nothing is lost, only delayed.
    """
    if isinstance(task, str):
        module, _dot, name = task.rpartition(".")
        task = getattr(import_module(module), name)
    if fail_fast and broker_resting():
        log.error("Could not queue %s: the broker failed less than %s s ago", task.name, RESTING_SECONDS)
        return False
    try:
        task.apply_async(args=args, kwargs=kwargs, retry=not fail_fast)
    except (OperationalError, OSError) as exc:
        log.error("Could not queue %s: %s", task.name, exc)
        if fail_fast:
            broker_failed()
        return False
    return True


def each_apart(items: Iterable[T], work: Callable[[T], object], *, what: str) -> int:
    """Run `work` on each item, one failure kept apart from the others; how many returned a true value.

    For jobs that go through a list (unpaid orders to expire, alerts to send): one item the job fails on
    (a provider's odd answer, a broken template) must not hold back every other one at every run. Each
    failure is logged; the first is raised once all the items had their turn, so the job still ends in
    an error that staff see among the failed jobs, and the item is tried again at the next run.
    """
    done, first_error = 0, None
    for item in items:
        try:
            done += bool(work(item))
        except Exception as error:
            log.exception("%s %s failed", what, item)
            first_error = first_error or error
    if first_error is not None:
        raise first_error
    return done
