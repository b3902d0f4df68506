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
