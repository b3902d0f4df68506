from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client


@pytest.mark.django_db
class TestFaults:
    def test_a_database_outage_shows_the_bilingual_error_page(self):
        # given a database that refuses every query
        client = Client(raise_request_exception=False)
        with mock.patch("shop.context_processors.store_settings_get", side_effect=OperationalError("down")):
            # when a shopper opens a page
            response = client.get("/")
        # then the bilingual 500 page answers, not a traceback
        assert response.status_code == 500
        body = response.content.decode()
        assert "Something went wrong" in body
        assert "حدث خطأ ما" in body
        assert "Traceback" not in body

    @pytest.mark.urls("shop.tests.urls_failing")
    def test_a_request_that_fails_half_way_writes_nothing(self):
        from shop.models import ContactMessage

        # given a view that saves a row and then fails
        client = Client(raise_request_exception=False)
        # when a write request reaches it
        response = client.post("/write-then-fail")
        # then the request's transaction is rolled back
        assert response.status_code == 500
        assert ContactMessage.objects.count() == 0


@pytest.mark.urls("shop.tests.urls_failing")
@pytest.mark.django_db(transaction=True)
def test_only_write_requests_run_in_a_transaction(client):
    # reads take no lock: on SQLite a transaction would be an IMMEDIATE (write) one
    assert client.get("/in-transaction").json() == {"inTransaction": False}
    assert client.post("/in-transaction").json() == {"inTransaction": True}


@pytest.mark.django_db
def test_nul_bytes_in_query_parameters_are_dropped(client):
    from shop.middleware import StripNullBytesMiddleware

    seen = {}

    def view(request):
        seen.update({k: request.GET.getlist(k) for k in request.GET})
        return None

    from django.test import RequestFactory

    request = RequestFactory().get("/shop?category=black%00-tea&q%00=x")
    StripNullBytesMiddleware(view)(request)
    assert seen == {"category": ["black-tea"], "q": ["x"]}


@pytest.mark.django_db
@pytest.mark.parametrize("language, message", [("en", "Something went wrong"), ("ar", "حدث خطأ ما")])
def test_an_unhandled_error_under_api_answers_json_not_the_error_page(language, message):
    # given an API view that fails unexpectedly
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)
    with mock.patch("shop.api.site.SettingsApi.get", side_effect=RuntimeError("boom")):
        # when it is called
        response = client.get("/api/settings")
    # then the answer is the spec's JSON error shape, translated
    assert response.status_code == 500
    assert response["Content-Type"].startswith("application/json")
    assert response.json() == {"error": message, "message": message}


class _LockNotAvailable(Exception):
    sqlstate = "55P03"  # what psycopg's errors.LockNotAvailable carries


def _lock_timeout():
    try:
        raise _LockNotAvailable("canceling statement due to lock timeout")
    except _LockNotAvailable as cause:
        error = OperationalError("canceling statement due to lock timeout")
        error.__cause__ = cause
        return error


BUSY = {"en": ("The shop is busy", "The shop is busy right now and nothing was saved. Please try again in a moment."),
        "ar": ("المتجر مشغول", "المتجر مشغول الآن ولم يُحفظ شيء. يُرجى المحاولة مرة أخرى بعد قليل.")}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("error", [_lock_timeout, lambda: OperationalError("database is locked")],
                         ids=["postgresql lock_timeout", "sqlite busy"])
def test_a_request_that_gave_up_waiting_for_a_lock_says_nothing_was_saved_and_to_try_again(language, error):
    # given an API call and a page whose database gave up waiting for a lock another session holds
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)
    with mock.patch("shop.api.site.SettingsApi.get", side_effect=error()):
        api = client.get("/api/settings")
    with mock.patch("shop.views.featured_products", side_effect=error()):
        page = client.get("/" if language == "en" else "/ar/")
    # then both say so in the visitor's language: a 503 (try again), not "Something went wrong"
    title, text = BUSY[language]
    assert (api.status_code, api.json()) == (503, {"error": title, "message": text})
    assert page.status_code == 503 and text in page.content.decode()


@pytest.mark.django_db
def test_any_other_database_error_is_still_something_that_went_wrong(client):
    client = Client(raise_request_exception=False)
    with mock.patch("shop.api.site.SettingsApi.get", side_effect=OperationalError("server closed the connection")):
        response = client.get("/api/settings")
    assert (response.status_code, response.json()["error"]) == (500, "Something went wrong")
