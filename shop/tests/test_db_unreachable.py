"""PostgreSQL that does not answer: a request (or a worker's job) gives up within seconds with a clean error
instead of waiting for ever, and a connection whose server vanished mid-request is found dead by the kernel."""

import threading
import time

import pytest
from django.conf import settings
from django.db import OperationalError, connection, connections

from shop.tests.smtp_server import SilentSmtpServer

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="the database is not PostgreSQL")


@pytest.mark.django_db
def test_a_database_server_that_takes_the_connection_and_never_answers_is_given_up_within_seconds():
    # given a server that accepts the connection and says nothing (stuck, or a pooler with no connection free)
    outcome = []
    with SilentSmtpServer() as silent:
        wrapper = connections.create_connection("default")
        wrapper.settings_dict = {**wrapper.settings_dict, "HOST": "127.0.0.1", "PORT": str(silent.port)}

        def connect():
            started = time.monotonic()
            try:
                wrapper.ensure_connection()
                outcome.append(("connected", time.monotonic() - started))
            except OperationalError:
                outcome.append(("refused", time.monotonic() - started))

        # when a request connects
        worker = threading.Thread(target=connect, daemon=True)
        worker.start()
        worker.join(timeout=20)
    # then it gets an error it can answer cleanly, well before the proxy or gunicorn give up (60 s)
    assert outcome and outcome[0][0] == "refused", "still waiting for the database after 20 s"
    assert outcome[0][1] < 15


def test_a_connection_whose_server_vanished_is_found_dead_by_tcp_keepalives():
    # a partition mid-query leaves a socket with nothing to send: without keepalives the process (a web
    # request, a worker's outbox sweep) waits for hours; with them the kernel gives up in about half a minute
    options = settings.DATABASES["default"]["OPTIONS"]
    assert options["keepalives"] == 1
    assert options["keepalives_idle"] + options["keepalives_interval"] * options["keepalives_count"] <= 40
