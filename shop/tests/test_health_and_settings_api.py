from datetime import timedelta
from decimal import Decimal
from unittest import mock

import pytest
from django.utils import timezone

from shop.models import Heartbeat, OutboundEmail, OutboundWhatsApp
from shop.store_settings import store_settings_get


@pytest.mark.django_db
class TestHealthz:
    def test_it_reports_ok(self, client):
        Heartbeat.objects.create(name="worker")
        response = client.get("/healthz")
        assert response.status_code == 200
        body = response.json()
        assert {k: body[k] for k in ("status", "database", "cache", "broker", "worker")} == {
            "status": "ok", "database": "ok", "cache": "ok", "broker": "ok", "worker": "ok"}
        assert body["worker_last_seen"]

    def test_a_silent_worker_is_reported_without_taking_the_shop_out_of_rotation(self, client):
        # given: beat's heartbeat job last ran 10 minutes ago
        Heartbeat.objects.create(name="worker", seen_at=timezone.now() - timedelta(minutes=10))
        # when
        response = client.get("/healthz")
        # then
        assert response.status_code == 200
        assert (response.json()["status"], response.json()["worker"]) == ("degraded", "down")

    def test_a_cache_outage_is_reported(self, client):
        Heartbeat.objects.create(name="worker")
        with mock.patch("django.core.cache.cache.get", return_value=None):
            response = client.get("/healthz")
        assert response.status_code == 200
        assert (response.json()["status"], response.json()["cache"]) == ("degraded", "down")

    def test_a_broker_outage_is_degraded_not_out_of_service(self, client):
        # the shop sells on without it (jobs wait in the database): a 503 would take every web process out
        with mock.patch("shop.health.broker_ok", return_value=False):
            response = client.get("/healthz")
        assert response.status_code == 200
        assert (response.json()["status"], response.json()["broker"]) == ("degraded", "down")

    def test_mail_the_server_has_not_taken_for_a_quarter_of_an_hour_is_reported(self, client):
        # given: worker, beat and broker fine, but the mail server refuses: mail waits for its retries
        Heartbeat.objects.create(name="worker")
        stuck = OutboundEmail.objects.create(to="sara@example.com", subject="Your order", text="x", attempts=2,
                                             next_attempt_at=timezone.now() + timedelta(minutes=4))
        OutboundEmail.objects.filter(pk=stuck.pk).update(created_at=timezone.now() - timedelta(minutes=20))
        OutboundEmail.objects.create(to="omar@example.com", subject="Just queued", text="x")
        OutboundEmail.objects.create(to="ali@example.com", subject="Given up", text="x", status="failed")
        # when
        response = client.get("/healthz")
        # then: the shop sells on, and a monitor sees the mail is late and how much was given up
        assert response.status_code == 200
        body = response.json()
        assert (body["status"], body["outbox"], body["outbox_late"], body["outbox_failed"]) == (
            "degraded", "down", 1, 1)

    def test_mail_going_out_on_time_is_ok(self, client):
        Heartbeat.objects.create(name="worker")
        OutboundEmail.objects.create(to="omar@example.com", subject="Just queued", text="x")
        old = OutboundEmail.objects.create(to="ali@example.com", subject="Sent", text="x", status="sent")
        OutboundEmail.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=2))
        body = client.get("/healthz").json()
        assert (body["status"], body["outbox"], body["outbox_late"], body["outbox_failed"]) == ("ok", "ok", 0, 0)

    def test_whatsapp_messages_late_and_given_up_are_reported_like_mail(self, client):
        # given: mail goes out on time, but the WhatsApp Cloud API refuses the shop's token
        Heartbeat.objects.create(name="worker")
        stuck = OutboundWhatsApp.objects.create(to="201012345678", text="Your order is on its way.", attempts=3,
                                                last_error="HTTP 401: invalid token")
        OutboundWhatsApp.objects.filter(pk=stuck.pk).update(created_at=timezone.now() - timedelta(minutes=20))
        OutboundWhatsApp.objects.create(to="201012345679", text="Just queued")
        OutboundWhatsApp.objects.create(to="201012345670", text="Given up", status="failed")
        # when
        response = client.get("/healthz")
        # then: the shop sells on; a monitor sees the messages are late and how many were given up
        assert response.status_code == 200
        body = response.json()
        assert (body["status"], body["outbox"], body["outbox_late"], body["outbox_failed"]) == ("degraded", "ok", 0, 0)
        assert (body["whatsapp"], body["whatsapp_late"], body["whatsapp_failed"]) == ("down", 1, 1)

    def test_whatsapp_messages_going_out_on_time_are_ok(self, client):
        Heartbeat.objects.create(name="worker")
        OutboundWhatsApp.objects.create(to="201012345679", text="Just queued")
        old = OutboundWhatsApp.objects.create(to="201012345670", text="Sent", status="sent")
        OutboundWhatsApp.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=2))
        body = client.get("/healthz").json()
        assert (body["status"], body["whatsapp"], body["whatsapp_late"], body["whatsapp_failed"]) == ("ok", "ok", 0, 0)

    def test_it_reports_a_database_outage_with_503(self, client):
        with mock.patch("shop.health.database_ok", return_value=False):
            response = client.get("/healthz")
        assert response.status_code == 503
        assert response.json()["database"] == "down"


@pytest.mark.django_db
class TestStoreSettings:
    def test_defaults_are_the_store_defaults(self):
        settings = store_settings_get()
        assert settings.store_name == "Nile Highlands Tea"
        assert settings.shipping_rate == Decimal("50.00")
        assert settings.free_shipping_threshold == Decimal("1000.00")
        assert settings.tax_rate == Decimal("0.14")
        assert settings.prices_include_tax is True
        assert settings.currency == "EGP"
        assert settings.timezone == "Africa/Cairo"

    def test_the_api_returns_public_settings_in_camel_case(self, client):
        body = client.get("/api/settings").json()
        assert body["storeName"] == "Nile Highlands Tea"
        assert body["shippingRate"] == "50.00"
        assert body["freeShippingThreshold"] == "1000.00"
        assert body["externalProducts"]["showKesConversion"] is True
        assert "importerMarkup" not in body

    def test_the_schema_and_docs_are_served(self, client):
        assert client.get("/api/schema/").status_code == 200
        assert client.get("/api/docs/").status_code == 200
