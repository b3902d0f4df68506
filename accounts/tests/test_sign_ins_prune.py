"""Expired sessions and API tokens are deleted once a day (beat), not kept for ever."""

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.utils import timezone

from accounts.models import AuthToken
from accounts.tasks import sign_ins_prune_task
from shop.celery import app
from shop.sessions import SessionStore

pytestmark = pytest.mark.django_db


def _session(*, expires_in):
    store = SessionStore()
    store["cart"] = 1
    store.set_expiry(timezone.now() + expires_in)
    store.save()
    return store.session_key


def test_the_daily_prune_deletes_what_has_expired_and_keeps_the_rest(alice):
    # given: every guest with a cart and every API sign-in leaves a row behind
    AuthToken.issue(user=alice, lifetime=timedelta(days=-1))
    live_token, _key = AuthToken.issue(user=alice, lifetime=timedelta(hours=1))
    _session(expires_in=timedelta(days=-1))
    live_session = _session(expires_in=timedelta(hours=1))
    # when
    sign_ins_prune_task()
    # then
    assert list(AuthToken.objects.values_list("pk", flat=True)) == [live_token.pk]
    assert list(Session.objects.values_list("session_key", flat=True)) == [live_session]


def test_beat_runs_it_daily():
    entry = app.conf.beat_schedule["sign-ins-prune"]
    assert entry["task"] == "accounts.tasks.sign_ins_prune_task"
    assert entry["schedule"] == 86400.0
