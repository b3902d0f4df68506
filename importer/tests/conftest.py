import pytest

from importer.tests.fake_site import producer_site, rate_services, shop_point_at, steady


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


@pytest.fixture
def steady_producer(producer):
    """The producer without its flaky pages (no real back-off waits in service tests)."""
    return steady(producer)


@pytest.fixture
def shop_setup(db, settings, steady_producer, rates, tmp_path):
    """Store settings pointing at the fake producer, the fake rate chain (0.40), media in tmp."""
    return shop_point_at(steady_producer, rates, settings=settings, media_root=tmp_path / "media", delay=0.005)


@pytest.fixture
def crawl(django_capture_on_commit_callbacks):
    """Start a run and let its (eager) Celery task run, as after a real commit."""
    from importer import services

    def start(**kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            run = services.run_start(**kwargs)
        run.refresh_from_db()
        return run

    return start


@pytest.fixture
def detox_write_refused(monkeypatch):
    """The database refuses Detox Tea's update (a lock wait that timed out, a value a column cannot hold);
    every other product's update goes through."""
    from django.db import OperationalError

    from importer import sync

    write = sync.product_update

    def refusing(*, product, **fields):
        if product.title_en == "Detox Tea":
            raise OperationalError("database is locked")
        return write(product=product, **fields)

    monkeypatch.setattr(sync, "product_update", refusing)
