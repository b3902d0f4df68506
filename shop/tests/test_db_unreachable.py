"""PostgreSQL that does not answer: a request (or a worker's job) gives up within seconds with a clean error
instead of waiting for ever, and a connection whose server vanished mid-request is found dead by the kernel."""

import threading
import time
from decimal import Decimal

import pytest
from django.conf import settings
from django.db import OperationalError, connection, connections, transaction

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


def test_the_lock_timeout_is_sent_at_connection_and_can_be_left_to_the_database():
    # the waits of shop/tests/test_db_lock_wait.py; 0 leaves it to the role (a pooler refusing `options`)
    import os
    import subprocess
    import sys
    from pathlib import Path

    assert "-c lock_timeout=10s" in settings.DATABASES["default"]["OPTIONS"]["options"]
    code = "from django.conf import settings; print(settings.DATABASES['default']['OPTIONS'].get('options', ''))"
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "shop.settings", "DATABASE_LOCK_TIMEOUT": "0"}
    shown = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], env=environment, text=True,
                           capture_output=True, cwd=Path(__file__).resolve().parents[2], timeout=60, check=True)
    assert "lock_timeout" not in shown.stdout


def _options_with(**environment):
    """The `options` start-up parameter shop/settings.py builds with `environment` added."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = "from django.conf import settings; print(settings.DATABASES['default']['OPTIONS'].get('options', ''))"
    shown = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], text=True, capture_output=True,
                           env={**os.environ, "DJANGO_SETTINGS_MODULE": "shop.settings", **environment},
                           cwd=Path(__file__).resolve().parents[2], timeout=60, check=True)
    return shown.stdout.strip().splitlines()[-1] if shown.stdout.strip() else ""


def test_the_idle_in_transaction_timeout_is_sent_at_connection_and_can_be_left_to_the_database():
    # given the default, and 0 (a pooler refusing `options`: the role's setting then)
    assert "-c idle_in_transaction_session_timeout=60s" in settings.DATABASES["default"]["OPTIONS"]["options"]
    # when / then
    assert "idle_in_transaction_session_timeout" not in _options_with(DATABASE_IDLE_IN_TRANSACTION_TIMEOUT="0")


@pytest.mark.django_db(transaction=True)
def test_a_session_stuck_inside_a_transaction_lets_its_row_locks_go_after_the_idle_timeout():
    # given a session connected as the shop connects (its options, with a 1 s idle timeout) that locks a row
    # and then does nothing more, still inside its transaction (a worker frozen mid-transaction)
    import psycopg

    from catalog.models import Category, Product

    category = Category.objects.create(slug="black-tea", name="Black Tea")
    tea = Product.objects.create(slug="tea", title="Tea", price_amount=Decimal("120.00"), category=category, stock=5)
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    stuck = psycopg.connect(**{**params, "options": _options_with(DATABASE_IDLE_IN_TRANSACTION_TIMEOUT="1")})
    stuck.execute("SELECT id FROM catalog_product WHERE id = %s FOR UPDATE", [tea.pk])
    # when, past the idle timeout, another session wants that row and will not wait for it
    time.sleep(1.5)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT id FROM catalog_product WHERE id = %s FOR UPDATE NOWAIT", [tea.pk])
    # then it has it: the stuck session was ended (its transaction rolled back, its lock let go), and its
    # process hears so at its next query
    with pytest.raises(psycopg.errors.IdleInTransactionSessionTimeout):
        stuck.execute("SELECT 1")
    stuck.close()
