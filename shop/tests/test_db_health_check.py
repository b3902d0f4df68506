"""PostgreSQL: a kept connection's health check polls its socket instead of sending SELECT 1
(shop/postgresql/base.py), and still finds a connection the server has dropped."""

import time

import psycopg
import pytest
from django.db import connection

from catalog.models import Category

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the database is not PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


def _terminate_backend(pid):
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_healthy_connection_is_found_usable_without_a_query(monkeypatch):
    # given: a kept connection, idle between two requests
    connection.ensure_connection()

    def no_queries(*args, **kwargs):
        raise AssertionError("the health check sent a query")

    monkeypatch.setattr(connection.connection, "cursor", no_queries)
    monkeypatch.setattr(connection.connection, "execute", no_queries)
    # then: it is usable, and finding that out asked the server nothing
    assert connection.is_usable() is True


def test_a_connection_the_server_dropped_is_found_and_replaced():
    # given: a kept connection whose backend the server then terminates
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    _terminate_backend(pid)
    # then: the check finds it unusable once the server's goodbye has arrived
    deadline = time.monotonic() + 5
    while connection.is_usable() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert connection.is_usable() is False
    # and the next request's first query runs on a new connection instead of failing
    connection.health_check_done = False  # what every request start does
    assert Category.objects.count() >= 0
    assert connection.connection.info.backend_pid != pid
