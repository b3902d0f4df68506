"""Shared fixtures: named personas (healthchecks style) and clean shared state."""

import ipaddress
import socket
import threading
import weakref

import pytest
from django.core.cache import cache
from django.db.backends.signals import connection_created
from django.test import testcases
from django.utils import translation

from accounts.models import Role, User
from catalog.suggest import index_reset
from catalog.views import delivery_estimates_forget
from importer import addresses
from shop import queue
from tests.migrations import migrate_to_latest

PASSWORD = "correct horse 42"

# The live server (browser tests, Schemathesis) writes a response's head and body in separate small
# sends. With Nagle's algorithm on, the second waits for the client's delayed ACK: 40 ms added to every
# request. socketserver's switch for it sets TCP_NODELAY on each connection, as gunicorn does.
testcases.QuietWSGIRequestHandler.disable_nagle_algorithm = True


@pytest.fixture(autouse=True)
def dns(monkeypatch):
    """The tests' DNS: the importer's address check (the only shop code that resolves a name itself) asks
    this table, name -> addresses, and each question is recorded. Only `localhost` is in it until a test
    adds a name; any other name is unknown, as on a machine offline."""
    table, asked = {"localhost": ["127.0.0.1"]}, []

    def resolve(host, port):
        asked.append(host)
        if host not in table:
            raise socket.gaierror(f"{host} is not in the tests' DNS table")
        return list(table[host])

    monkeypatch.setattr(addresses, "resolve_host", resolve)
    resolve.table, resolve.asked = table, asked  # type: ignore[attr-defined]
    return resolve


@pytest.fixture(autouse=True)
def _offline(monkeypatch):
    """Tests never reach the internet: a lookup of a name anywhere else fails the test, and fails at once
    instead of waiting for this machine's resolver (which can take 5 s to give up)."""
    system, looked_up = socket.getaddrinfo, []

    def local_only(host, *args, **kwargs):
        if host not in (None, "localhost") and not _is_address(host):
            looked_up.append(host)
            raise socket.gaierror(f"tests never reach the internet: {host!r} was looked up")
        return system(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", local_only)
    yield
    assert not looked_up, f"looked up {looked_up}: fake the answer (the `dns` fixture's table) or the service"


def _is_address(host):
    try:
        ipaddress.ip_address(host.decode() if isinstance(host, bytes) else host)
    except ValueError:
        return False
    return True


# Every database connection this process opens, with the thread that opened it, to find those a test's own
# thread left open (below). The thread itself, not its id: an ended thread's id is soon another's.
_opened: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _remember_opened(sender, connection, **kwargs):
    _opened[connection] = threading.current_thread()


connection_created.connect(_remember_opened, dispatch_uid="tests-opened-connections")


@pytest.fixture(autouse=True)
def _no_connection_left_by_a_thread():
    """A thread that used the database must close its connection before it ends (tests/threads.py): a
    thread's end does not close it, and on PostgreSQL the test database cannot be dropped at the end of
    the run while one is open. Fails the test that left one, and closes it so the next tests do not."""
    yield
    left = [wrapper for wrapper, opener in list(_opened.items())
            if wrapper.connection is not None and not opener.is_alive()]
    for wrapper in left:
        wrapper.connection.close()  # its thread is gone: nothing else uses it
        wrapper.connection = None
    assert not left, (f"{len(left)} database connection(s) left open by a thread that has ended: run the thread's "
                      "work through tests.threads.closing_connections (or make it with tests.threads.thread)")


@pytest.fixture(autouse=True)
def _english_by_default():
    # a request served in Arabic leaves Arabic active in the thread; model
    # fields written afterwards (modeltranslation) would land in *_ar
    translation.activate("en")
    yield
    translation.activate("en")


@pytest.fixture(autouse=True)
def _broker_not_resting():
    # a test's broker outage must not make the next tests' jobs skip the broker (shop.queue.RESTING_SECONDS)
    queue.broker_answered()
    yield
    queue.broker_answered()


@pytest.fixture(autouse=True)
def _clean_shared_cache():
    # store settings, rates and lockout counters live in the shared cache; the search
    # index is keyed by the catalogue version kept there
    cache.clear()
    index_reset()
    delivery_estimates_forget()
    yield
    cache.clear()
    index_reset()
    delivery_estimates_forget()


def _customer(username, first_name, **extra):
    return User.objects.create_user(
        username=username, email=username, password=PASSWORD, first_name=first_name, **extra
    )


def _staff(username, role):
    return User.objects.create_user(
        username=username, email=f"{username}@staff.example", password=PASSWORD,
        is_staff=True, role=role, first_name=username.title(),
    )


@pytest.fixture
def password():
    return PASSWORD


@pytest.fixture
def alice(db):
    """A customer."""
    return _customer("alice@example.com", "Alice", last_name="Hassan", phone="01012345678")


@pytest.fixture
def bob(db):
    """Another customer, who must never see alice's things."""
    return _customer("bob@example.com", "Bob", last_name="Fahmy")


@pytest.fixture
def owner(db):
    return _staff("owner", Role.OWNER)


@pytest.fixture
def manager(db):
    return _staff("manager", Role.MANAGER)


@pytest.fixture
def head_support(db):
    return _staff("headsupport", Role.HEAD_SUPPORT)


@pytest.fixture
def support(db):
    return _staff("support", Role.SUPPORT)


@pytest.fixture
def latest_schema_after():
    """For a migration test: every app back at its latest migration once it is done (the tests that follow in
    this process share the database)."""
    yield
    migrate_to_latest()
