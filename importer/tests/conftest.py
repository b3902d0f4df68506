import pytest

from importer.tests.fake_site import producer_site, rate_services


@pytest.fixture(autouse=True)
def _no_outside_rate_services(settings):
    # the real chain is on the internet; tests never leave 127.0.0.1
    settings.EXCHANGE_RATE_PROVIDERS = []


@pytest.fixture
def producer():
    with producer_site() as server:
        yield server


@pytest.fixture
def rates():
    with rate_services() as server:
        yield server
