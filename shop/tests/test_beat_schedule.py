"""Beat's schedule after an outage: jobs queued while no worker ran are not all run when one comes back."""

from datetime import timedelta

import pytest
from celery.beat import ScheduleEntry, Scheduler
from celery.schedules import schedule as every

from shop.celery import app

REPEATING = {name: entry for name, entry in app.conf.beat_schedule.items()
             if isinstance(entry["schedule"], (int, float))}


@pytest.mark.parametrize("name", sorted(REPEATING))
def test_a_tick_no_worker_took_before_the_next_one_is_dropped(name, monkeypatch):
    # given: beat queues the job while every worker is down (for hours: a tick each period piles up)
    entry = REPEATING[name]
    period = timedelta(seconds=entry["schedule"])
    sent = []
    app.loader.import_default_modules()  # every app's tasks module, as a worker starting does
    task = app.tasks[entry["task"]]
    monkeypatch.setattr(task, "apply_async", lambda *args, **options: sent.append(options))
    scheduler = Scheduler(app, lazy=True)
    # when
    scheduler.apply_async(ScheduleEntry(name=name, task=entry["task"], schedule=every(period), app=app,
                                        options=entry.get("options", {})), advance=False)
    # then: a worker coming back runs the last tick or two, not one per tick missed (sweeps that each
    # wait out a mail-server timeout, hundreds of heartbeats, several expiry and import runs at once)
    [options] = sent
    assert 0 < options.get("expires", 0) <= period.total_seconds()
