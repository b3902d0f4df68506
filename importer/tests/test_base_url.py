"""Which producer site the importer crawls: IMPORTER_BASE_URL until staff save another."""

import importlib

import pytest
from django.apps import apps
from django.core.cache import cache
from rest_framework.test import APIClient

from shop.models import STORE_SETTINGS_CACHE_KEY
from shop.store_settings import store_settings_get, store_settings_update

pytestmark = pytest.mark.django_db

ENV_URL = "https://producer-from-env.example"
SAVED_URL = "https://8.8.8.8/shop/"  # a literal public address: no DNS in tests


@pytest.fixture
def staff(owner, settings):
    settings.IMPORTER_BASE_URL = ENV_URL
    client = APIClient()
    client.force_login(owner)
    return client


def status_base_url(client):
    return client.get("/api/admin/scrape/status").json()["config"]["baseUrl"]


def test_the_environment_value_is_used_while_staff_have_saved_none(staff):
    # then
    assert status_base_url(staff) == ENV_URL
    assert staff.get("/api/admin/settings").json()["externalProducts"]["baseUrl"] == ENV_URL
    assert APIClient().get("/api/settings").json()["externalProducts"]["baseUrl"] == ENV_URL


def test_a_base_url_saved_in_the_dashboard_wins_over_the_environment(staff):
    # when
    response = staff.put("/api/admin/settings", {"externalProducts": {"baseUrl": SAVED_URL}}, format="json")
    # then
    assert response.status_code == 200 and response.json()["externalProducts"]["baseUrl"] == SAVED_URL
    assert status_base_url(staff) == SAVED_URL


def test_saving_the_whole_form_unchanged_keeps_following_the_environment(staff, settings):
    # given the dashboard sends back every field, the base URL as it was shown
    body = staff.get("/api/admin/settings").json()
    body["storeName"] = "Chai Corner"
    # when
    staff.put("/api/admin/settings", body, format="json")
    settings.IMPORTER_BASE_URL = "https://moved-producer.example"
    # then
    assert store_settings_get().external_base_url == ""
    assert status_base_url(staff) == "https://moved-producer.example"


def test_clearing_the_saved_base_url_goes_back_to_the_environment(staff):
    # given
    store_settings_update(external_base_url=SAVED_URL)
    # when
    staff.put("/api/admin/settings", {"externalProducts": {"baseUrl": ""}}, format="json")
    # then
    assert status_base_url(staff) == ENV_URL


def test_the_old_stored_default_is_turned_into_follow_the_environment(staff):
    # given a database from before: the model default stored as if staff had chosen it
    store_settings_update(external_base_url="https://kerichogold.com")
    migration = importlib.import_module("shop.migrations.0002_external_base_url_follows_setting")
    # when
    migration.follow_the_setting(apps, None)
    cache.delete(STORE_SETTINGS_CACHE_KEY)  # the migration's queryset update skips save()
    # then
    assert status_base_url(staff) == ENV_URL


@pytest.mark.parametrize("url, english, arabic", [
    ("https://10.0.0.7/shop/", "it is on a private network, not the internet", "إنه على شبكة خاصة لا على الإنترنت"),
    ("https://8.8.8.8:99999/", "it is not a web address like https://producer.example/shop",
     "ليس عنوان ويب مثل \u2068https://producer.example/shop\u2069"),
])
def test_a_refused_base_url_says_why_in_the_owners_language(staff, settings, url, english, arabic):
    settings.IMPORTER_ALLOW_PRIVATE_HOSTS = False
    for language, reason in (("en", english), ("ar", arabic)):
        response = staff.put("/api/admin/settings", {"externalProducts": {"baseUrl": url}}, format="json",
                             HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 400
        assert response.json()["message"].endswith(reason), response.json()
