"""Every date and time a shopper is shown (pages, invoices, e-mails) is in the store's time zone (its
`timezone` setting), not settings.TIME_ZONE (Africa/Cairo, where the server was set up): with the store
in UTC, an order placed at 23:00 UTC on Saturday 28 Nov was placed on the 28th, though it was already
01:00 on Sunday the 29th in Cairo."""

import io
from datetime import UTC, datetime

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from django.utils import timezone
from pypdf import PdfReader

from orders.models import OrderStatusChange
from orders.tracking import tracking_path
from shop.celery import StoreTimeTask, app
from shop.store_settings import store_settings_update
from shop.tests.test_page_cache_fast_path import CacheReads
from tests.factories import make_order, make_product, make_review

pytestmark = pytest.mark.django_db

# 23:00 UTC on Saturday 28 Nov: already 01:00 on Sunday the 29th in Cairo
LATE = datetime(2026, 11, 28, 23, 0, tzinfo=UTC)
NEXT_DAY = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
SATURDAY, SUNDAY = "Sat 28\u00a0Nov", "Sun 29\u00a0Nov"


@pytest.fixture
def store_in_utc(db):
    assert settings.TIME_ZONE == "Africa/Cairo"  # the server's zone differs from the store's
    store_settings_update(timezone="UTC")


@pytest.fixture
def late_order(store_in_utc, alice):
    order = make_order(user=alice, created_at=LATE)
    OrderStatusChange.objects.filter(order=order).update(created_at=LATE)
    type(order).objects.filter(pk=order.pk).update(paid_at=LATE)
    order.refresh_from_db()
    return order


@pytest.fixture
def alice_client(client, alice, password):
    client.post("/login", {"email": "alice@example.com", "password": password})
    return client


def test_the_account_order_history_shows_the_store_zones_day(late_order, alice_client):
    with time_machine.travel(NEXT_DAY, tick=False):
        page = alice_client.get("/account").content.decode()
    assert SATURDAY in page and SUNDAY not in page


def test_the_tracking_page_shows_the_store_zones_day(late_order, client):
    with time_machine.travel(NEXT_DAY, tick=False):
        page = client.get(tracking_path(late_order, "en")).content.decode()
    assert SATURDAY in page and SUNDAY not in page


def test_the_invoice_is_dated_on_the_store_zones_day(late_order, alice_client):
    # when
    response = alice_client.get(f"/orders/{late_order.number}/invoice.pdf")
    # then
    assert response.status_code == 200
    text = PdfReader(io.BytesIO(response.content)).pages[0].extract_text()
    assert "2026-11-28" in text and "2026-11-29" not in text


def test_the_printed_invoice_staff_open_is_dated_on_the_store_zones_day(late_order, client, owner):
    client.force_login(owner)
    page = client.get(f"/admindash/orders/{late_order.pk}/print").content.decode()
    assert "2026-11-28" in page and "2026-11-29" not in page


def test_a_review_shows_the_store_zones_day(store_in_utc, client):
    review = make_review(product=make_product(slug="kenya-gold"), approved=True)
    type(review).objects.filter(pk=review.pk).update(created_at=LATE)
    page = client.get("/product/kenya-gold").content.decode()
    assert "Nov. 28, 2026" in page and "Nov. 29, 2026" not in page


def test_the_terms_are_dated_with_the_store_zones_today(store_in_utc, client):
    with time_machine.travel(LATE, tick=False):
        page = client.get("/terms").content.decode()
    assert 'datetime="2026-11-28"' in page


def test_a_background_job_works_in_the_store_zone(store_in_utc):
    # given: a job (an e-mail rendered by the worker) outside any request
    @app.task(name="shop.tests.local_day")
    def local_day():
        return timezone.localdate(LATE).isoformat()

    # when
    day = local_day.apply().get()
    # then
    assert day == "2026-11-28"
    assert timezone.localdate(LATE).isoformat() == "2026-11-29"  # and the zone goes back after it


def test_every_job_of_the_shop_runs_in_the_store_zone():
    app.loader.import_default_modules()  # every app's tasks module, as a worker starting does
    jobs = [task for name, task in app.tasks.items() if not name.startswith("celery.")]
    assert jobs and all(isinstance(job, StoreTimeTask) for job in jobs)


def test_the_store_zone_costs_a_request_no_cache_read(late_order, alice_client, settings):
    # given: the middleware that activates the store's zone, and the stack without it
    with_zone = list(settings.MIDDLEWARE)
    without_zone = [name for name in with_zone if name != "shop.store_time.StoreTimeZoneMiddleware"]
    assert without_zone != with_zone

    def reads(middleware, signed_in, path):
        settings.MIDDLEWARE = middleware
        client = Client()  # a client builds its stack once, at its first request
        client.cookies = signed_in.cookies
        client.get(path)  # each process's first request learns who the session is (shop.sessions)
        with CacheReads() as counted:
            assert client.get(path).status_code == 200
        return counted.reads

    # then: a customer's storefront page, and the health check (which reads no setting)
    for client, path in ((alice_client, tracking_path(late_order, "en")), (Client(), "/healthz")):
        assert reads(with_zone, client, path) == reads(without_zone, client, path), path
