"""The KES→EGP provider chain: order, failure rules, band, storage and fallbacks."""

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.utils import timezone

from importer.tests.fake_site import Answer, rate_services
from shop.models import ExchangeRate
from shop.rates import RateError, convert, provider_fetch, rate_get, rate_status, rates_refresh

pytestmark = pytest.mark.django_db


@pytest.fixture
def services():
    with rate_services() as server:
        yield server


def test_it_skips_a_failing_and_an_erroring_provider_and_stores_the_third_answer(services):
    # given the chain: HTTP 502, then 200 with success:false, then a good answer
    # when
    result = rates_refresh("KES", "EGP", force=True, providers=services.chain)
    # then every provider was asked once, in order, and the third one won
    assert [p for _t, p, _ua in services.requests] == ["/v2/rate/KES/EGP", "/convert?from=KES&to=EGP", "/v6/latest/KES"]
    assert result.refreshed is True
    assert result.rate.rate == Decimal("0.4")
    assert len(result.errors) == 2 and "HTTP 502" in result.errors[0] and "missing_access_key" in result.errors[1]
    row = ExchangeRate.objects.get(from_currency="KES", to_currency="EGP")
    assert (row.rate, row.source, row.last_error) == (Decimal("0.4"), services.url.split("//")[1], "")


def test_it_reads_lower_case_paths_and_the_fallback_url_placeholders(services):
    # given a fawazahmed0-style answer
    services.routes["/npm/kes.json"] = Answer(200, json.dumps({"date": "2026-09-26", "kes": {"egp": 0.399}}),
                                              content_type="application/json")
    # when
    value = provider_fetch(f"{services.url}/npm/{{from_lower}}.json#{{from_lower}}.{{to_lower}}", "KES", "EGP")
    # then
    assert value == Decimal("0.399")


@pytest.mark.parametrize("body", [
    '{"rate": 2.61}',  # inverted (EGP→KES)
    '{"rate": 0.01}',  # garbage
    '{"result": "error", "error-type": "unsupported-code"}',
    '<html>rate limited</html>',
    '{"rate": "abc"}',
])
def test_it_counts_out_of_band_error_and_non_json_answers_as_failures(services, body):
    # given
    services.routes["/odd"] = Answer(200, body, content_type="application/json")
    # when / then
    with pytest.raises(RateError):
        provider_fetch(f"{services.url}/odd#rate", "KES", "EGP")


def test_it_keeps_the_last_good_rate_when_every_provider_fails(services):
    # given a stored rate and a chain that only fails
    ExchangeRate.objects.create(from_currency="KES", to_currency="EGP", rate=Decimal("0.39"), source="earlier",
                                last_updated=timezone.now() - timedelta(hours=7))
    # when
    result = rates_refresh("KES", "EGP", providers=services.chain[:2])
    # then the old rate stays and the dashboard can say why
    assert result.refreshed is False
    assert result.rate.rate == Decimal("0.39") and result.rate.source == "earlier"
    status = rate_status()
    assert status.is_stale is True and "HTTP 502" in status.last_error
    assert status.is_fallback is False


def test_it_falls_back_to_0_376_when_nothing_was_ever_stored(services):
    # when
    result = rates_refresh("KES", "EGP", providers=services.chain[:2])
    # then
    assert result.rate.rate == Decimal("0.376") and result.rate.is_fallback is True
    assert ExchangeRate.objects.count() == 0
    assert rate_status().is_fallback is True and "missing_access_key" in rate_status().last_error


def test_it_does_not_ask_again_while_the_stored_rate_is_younger_than_6_hours(services):
    # given
    ExchangeRate.objects.create(from_currency="KES", to_currency="EGP", rate=Decimal("0.38"), source="x",
                                last_updated=timezone.now() - timedelta(hours=5))
    # when
    result = rates_refresh("KES", "EGP", providers=services.chain)
    # then
    assert services.requests == [] and result.rate.rate == Decimal("0.38")


def test_egp_to_kes_divides_and_conversion_follows_the_spec_rules():
    # given a stored rate of 0.4
    ExchangeRate.objects.create(from_currency="KES", to_currency="EGP", rate=Decimal("0.4"), source="x")
    # then
    assert rate_get("EGP", "KES").rate == Decimal("2.5")
    assert convert("100", rate_get().rate) == Decimal("40.0")
    assert convert(None, Decimal("0.4")) == 0 and convert("abc", Decimal("0.4")) == 0 and convert(-5, 1) == 0
    assert convert(100, "nonsense") == Decimal("100")


def test_the_command_refreshes_and_reports(services, settings, capsys):
    # given
    settings.EXCHANGE_RATE_PROVIDERS = services.chain
    # when
    call_command("refresh_rates")
    # then
    out = capsys.readouterr()
    assert "1 KES = 0.40000000 EGP" in out.out and "failed:" in out.err


def test_a_service_that_trickles_its_answer_is_given_up_at_the_time_limit_and_the_last_rate_kept(settings):
    # given a stored rate, and the one service answering a byte every 0.1 s (each well within the wait for
    # bytes, the whole answer some 8 s) where the time limit is 1 s: a limit per read never ran out
    import time

    from shop.tests.trickle_server import TrickleServer

    ExchangeRate.objects.create(from_currency="KES", to_currency="EGP", rate=Decimal("0.39"), source="earlier",
                                last_updated=timezone.now() - timedelta(hours=7))
    settings.EXCHANGE_RATE_TIMEOUT = 1.0  # stands in for the 8 s one service may take
    with TrickleServer() as service:
        # when
        started = time.monotonic()
        result = rates_refresh("KES", "EGP", providers=[f"{service.url}/latest#rate"])
        waited = time.monotonic() - started
    # then it gave up at the limit and the old rate stays, the dashboard saying why
    assert waited < 1.0 + 0.6
    assert result.refreshed is False and result.rate.rate == Decimal("0.39")
    assert "no answer within 1 s" in rate_status().last_error
