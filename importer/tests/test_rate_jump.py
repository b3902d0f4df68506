"""A new KES→EGP rate that jumps from the stored one is refused, staff are told; a small move is taken."""

import json
import logging
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.utils import timezone

from importer import services
from importer.tests.fake_site import Answer, FakeServer
from shop.models import ExchangeRate, OutboundEmail
from shop.rates import RATE_MAX_DAILY_MOVE, kes_egp_rate, rate_set_by_hand, rates_refresh

pytestmark = pytest.mark.django_db


def _answering(server, path, rate):
    server.routes[path] = Answer(200, json.dumps({"result": "success", "base_code": "KES",
                                                  "rates": {"KES": 1, "EGP": rate}}),
                                 content_type="application/json")
    return f"{server.url}{path}#rates.{{to}}"


@pytest.fixture
def service():
    """One rate service on 127.0.0.1; `says(rate)` sets what it says and gives the chain item."""
    with FakeServer() as server:
        server.says = lambda rate, path="/v6/latest/KES": _answering(server, path, rate)
        yield server


def _stored(rate="0.40", *, hours=7):
    return ExchangeRate.objects.create(from_currency="KES", to_currency="EGP", rate=Decimal(rate),
                                       source="open.er-api.com", last_updated=timezone.now() - timedelta(hours=hours))


def test_the_limit_is_15_percent_a_day():
    assert RATE_MAX_DAILY_MOVE == Decimal("0.15")


def test_a_jump_of_40_percent_is_refused_the_stored_rate_stays_and_staff_are_told(
        service, owner, manager, support, client, caplog):
    # given a stored rate of 0.40 from this morning, an Owner reading Arabic, and a service answering 0.56
    _stored("0.40")
    owner.language = "ar"
    owner.save(update_fields=["language"])
    chain = [service.says(0.56)]
    # when
    with caplog.at_level(logging.WARNING, logger="shop.rates"):
        result = rates_refresh("KES", "EGP", providers=chain)
    # then the shop keeps pricing with 0.40
    assert result.refreshed is False and result.refused == Decimal("0.56")
    assert kes_egp_rate().rate == Decimal("0.40")
    row = ExchangeRate.objects.get()
    assert (row.rate, row.refused_rate) == (Decimal("0.40"), Decimal("0.56")) and "40 %" in row.last_error
    assert any("refused" in r.getMessage() and "0.56" in r.getMessage() for r in caplog.records)
    # and the staff who may set the rate (Owner, Manager) get an e-mail in their own language; Support none
    mails = {m.to: m for m in OutboundEmail.objects.all()}
    assert set(mails) == {owner.email, manager.email}
    assert "40 %" in mails[manager.email].subject and "0.56" in mails[manager.email].text
    assert "0.4 EGP" in mails[manager.email].text
    assert mails[owner.email].language == "ar" and "تثبيت سعر الصرف" in mails[owner.email].subject
    assert "0.56" in mails[owner.email].text and "KES" not in mails[owner.email].text  # the shop's separators
    # and the dashboard's system status says so
    client.force_login(owner)
    status = client.get("/api/admin/dashboard").json()["systemStatus"]["exchangeRate"]
    assert status["ok"] is False and status["rate"] == "0.4"
    assert (status["refusedRate"], status["refusedPercent"]) == ("0.56", 40)


def test_two_refreshes_at_once_tell_staff_once(service, owner, monkeypatch):
    # given: a stored rate, a service answering a jump, and a second refresh (a staff "refresh now", beat's
    # tick) running while the first one waits for the service
    import shop.rates

    _stored("0.40")
    chain = [service.says(0.56)]
    fetch = shop.rates.provider_fetch
    overlapped = []

    def fetch_while_another_refresh_runs(*args, **kwargs):
        if not overlapped:
            overlapped.append(None)
            overlapped[0] = rates_refresh("KES", "EGP", providers=chain)
        return fetch(*args, **kwargs)

    monkeypatch.setattr(shop.rates, "provider_fetch", fetch_while_another_refresh_runs)
    # when
    first = rates_refresh("KES", "EGP", providers=chain)
    # then: both refused it, and the Owner heard of it once
    assert first.refused == overlapped[0].refused == Decimal("0.56")
    assert OutboundEmail.objects.filter(to=owner.email).count() == 1


def test_staff_are_told_once_while_the_service_keeps_answering_the_jump(service, owner):
    # given a refusal staff were already told about
    _stored("0.40")
    chain = [service.says(0.56)]
    rates_refresh("KES", "EGP", providers=chain)
    # when the hourly refresh asks again
    rates_refresh("KES", "EGP", providers=chain)
    # then still refused, and no second e-mail
    assert kes_egp_rate().rate == Decimal("0.40") and OutboundEmail.objects.count() == 1


def test_a_small_move_is_taken_and_clears_an_earlier_refusal(service, owner):
    # given a refused jump earlier
    _stored("0.40")
    rates_refresh("KES", "EGP", providers=[service.says(0.56)])
    # when the service answers 0.42 (5 % from 0.40)
    result = rates_refresh("KES", "EGP", providers=[service.says(0.42)], force=True)
    # then it is the rate, and the dashboard no longer shows a refusal
    assert result.refreshed is True and kes_egp_rate().rate == Decimal("0.42")
    row = ExchangeRate.objects.get()
    assert (row.refused_rate, row.last_error) == (None, "")


def test_a_later_service_in_line_with_the_stored_rate_wins_over_one_that_jumped(service, owner):
    # given the first service jumps, the second answers close to the stored rate
    _stored("0.40")
    chain = [service.says(0.56, "/jumpy/KES"), service.says(0.41)]
    # when
    result = rates_refresh("KES", "EGP", providers=chain)
    # then the second is taken; one service's glitch is logged, nobody is e-mailed
    assert result.refreshed is True and kes_egp_rate().rate == Decimal("0.41")
    assert "40 %" in result.errors[0] and OutboundEmail.objects.count() == 0


def test_a_stored_rate_days_old_may_follow_a_larger_move(service, owner):
    # given a stored rate left three days (the services were down): 45 % is allowed
    _stored("0.40", hours=72)
    # when a service answers 0.56 (40 %)
    result = rates_refresh("KES", "EGP", providers=[service.says(0.56)])
    # then it is taken
    assert result.refreshed is True and kes_egp_rate().rate == Decimal("0.56")


def test_a_rate_staff_set_by_hand_is_taken_whatever_the_move_and_clears_the_refusal(service, owner, capsys):
    # given a refused jump staff checked and found real
    _stored("0.40")
    rates_refresh("KES", "EGP", providers=[service.says(0.56)])
    # when they set it by hand
    call_command("refresh_rates", "--set", "0.56")
    # then it is the rate, from staff, and no refusal is shown
    assert kes_egp_rate().rate == Decimal("0.56") and kes_egp_rate().source == "staff"
    row = ExchangeRate.objects.get()
    assert (row.refused_rate, row.last_error) == (None, "")
    assert "set by hand" in capsys.readouterr().out
    # and a mistyped (inverted) rate is still refused
    with pytest.raises(Exception, match="outside"):
        rate_set_by_hand(rate="2.5")


def test_a_crawl_prices_with_the_kept_rate_after_a_refused_jump(shop_setup, crawl, owner, settings):
    # given a stored rate of 0.40 older than 6 hours and a rate service that now answers 0.56
    _stored("0.40")
    with FakeServer() as jumpy:
        settings.EXCHANGE_RATE_PROVIDERS = [_answering(jumpy, "/v6/latest/KES", 0.56)]
        # when staff crawl (which refreshes the rate first)
        crawl(user=owner, max_pages=100)
    # then the preview's prices use 0.40: round(350 × 0.40 × 2) for Hangover Tea
    config = services.importer_config()
    assert config["exchange_rate"] == Decimal("0.40") and config["rate_refused"] == Decimal("0.56")
    assert config["rate_refused_percent"] == 40


def test_a_rate_typed_in_the_admin_is_set_by_hand(service, client, django_user_model):
    # given a refused jump and a superuser in the data-fix admin
    row = _stored("0.40")
    rates_refresh("KES", "EGP", providers=[service.says(0.56)])
    admin = django_user_model.objects.create_superuser(username="root", email="root@staff.example", password="x" * 12)
    client.force_login(admin)
    # when they type the new rate
    answer = client.post(f"/django-admin/shop/exchangerate/{row.pk}/change/",
                         {"from_currency": "KES", "to_currency": "EGP", "rate": "0.56"})
    # then it is the rate, set by hand, and the refusal is gone
    assert answer.status_code == 302, answer.content[:2000]
    row.refresh_from_db()
    assert (row.rate, row.source, row.refused_rate) == (Decimal("0.56"), "staff", None)
    assert kes_egp_rate().rate == Decimal("0.56")
