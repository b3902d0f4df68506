"""The staff scrape API: permissions, shapes, cache, import, cancel."""

import pytest
from rest_framework.test import APIClient

from catalog.models import Product
from importer.models import ExternalProduct, ImporterRun

pytestmark = pytest.mark.django_db


def client_for(user=None):
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def test_it_requires_staff_authentication():
    # when
    response = client_for().post("/api/admin/scrape", {}, format="json")
    # then
    assert response.status_code == 401 and response.json()["error"] == "Admin authentication required"


def test_it_lets_support_staff_read_the_status_but_not_start_a_crawl(support, alice):
    assert client_for(support).get("/api/admin/scrape/status").status_code == 200
    denied = client_for(support).post("/api/admin/scrape", {}, format="json")
    assert denied.status_code == 403 and denied.json()["error"] == "Admin permissions required"
    assert client_for(support).delete("/api/admin/scrape/cache").status_code == 403
    assert client_for(alice).get("/api/admin/scrape/status").status_code == 401


def test_a_scrape_returns_the_spec_shape_then_serves_the_fresh_cache(shop_setup, manager,
                                                                     django_capture_on_commit_callbacks):
    # when
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(manager).post("/api/admin/scrape", {"forceRefresh": True, "maxPages": 100},
                                            format="json")
    # then
    body = response.json()
    assert response.status_code == 202  # the task ran after the answer was built
    status = client_for(manager).get("/api/admin/scrape/status").json()
    assert status["job"]["status"] == "done" and status["job"]["percent"] == 100
    assert status["count"] == 9 and status["config"]["baseUrl"] == shop_setup.url
    assert status["config"]["exchangeRate"] == "0.4000" and status["config"]["markup"] == "100.00"
    hangover = next(p for p in status["products"] if p["name"] == "Hangover Tea")
    assert (hangover["price"], hangover["priceEgp"], hangover["originalCurrency"]) == ("350.00", "280", "KES")
    assert set(body) >= {"success", "products", "count", "errors", "error", "timestamp", "job"}
    # and a second, unforced scrape answers from the cache without a new crawl
    again = client_for(manager).post("/api/admin/scrape", {"maxPages": 20}, format="json").json()
    assert again["cached"] is True and again["count"] == 9 and ImporterRun.objects.count() == 1


def test_max_pages_outside_1_to_100_is_a_field_error(owner):
    response = client_for(owner).post("/api/admin/scrape", {"maxPages": 101}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "maxPages"


def test_clearing_the_cache_and_importing(shop_setup, owner, crawl):
    # given
    crawl(user=owner, max_pages=100)
    ids = list(ExternalProduct.objects.filter(name__in=["Love Tea", "Detox Tea"]).values_list("pk", flat=True))
    # when one is imported, then all
    one = client_for(owner).post("/api/admin/scrape/import", {"ids": ids}, format="json").json()
    every = client_for(owner).post("/api/admin/scrape/import", {"all": True}, format="json").json()
    # then
    assert (one["created"], every["created"], every["updated"]) == (2, 7, 2)
    assert Product.objects.count() == 9
    # and the cache can be cleared without touching the shop
    cleared = client_for(owner).delete("/api/admin/scrape/cache")
    assert cleared.status_code == 200 and ExternalProduct.objects.count() == 0 and Product.objects.count() == 9
    nothing = client_for(owner).post("/api/admin/scrape/import", {"all": True}, format="json")
    assert nothing.status_code == 400
    assert nothing.json()["error"] == "No products to save. Please scrape products first."


def test_cancelling_a_running_crawl(shop_setup, owner, monkeypatch):
    # given a queued run
    from importer import services

    monkeypatch.setattr(services, "dispatch", lambda run_id: None)
    client_for(owner).post("/api/admin/scrape", {"forceRefresh": True}, format="json")
    # when
    response = client_for(owner).post("/api/admin/scrape/cancel")
    # then
    assert response.status_code == 200 and response.json()["job"]["cancelRequested"] is True
    assert client_for(owner).post("/api/admin/scrape/cancel").status_code == 200
    ImporterRun.objects.update(status="cancelled")
    assert client_for(owner).post("/api/admin/scrape/cancel").status_code == 409


def test_the_endpoints_are_in_the_openapi_schema(owner):
    schema = client_for(owner).get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    for path in ("/api/admin/scrape", "/api/admin/scrape/status", "/api/admin/scrape/cache",
                 "/api/admin/scrape/import", "/api/admin/scrape/cancel"):
        assert f"{path}:" in schema or f'"{path}"' in schema


def test_a_disabled_importer_returns_an_empty_list(owner):
    from shop.store_settings import store_settings_update

    store_settings_update(external_enabled=False)
    body = client_for(owner).post("/api/admin/scrape", {"forceRefresh": True}, format="json").json()
    assert (body["success"], body["products"], body["count"]) == (True, [], 0)
    assert ImporterRun.objects.count() == 0


def test_a_failed_crawl_with_nothing_cached_says_so(shop_setup, owner, django_capture_on_commit_callbacks):
    # given a site with nothing on it
    shop_setup.routes.clear()
    # when
    with django_capture_on_commit_callbacks(execute=True):
        client_for(owner).post("/api/admin/scrape", {"forceRefresh": True, "maxPages": 3}, format="json")
    status = client_for(owner).get("/api/admin/scrape/status").json()
    # then no sample products stand in for the real ones
    assert status["job"]["status"] == "failed" and status["count"] == 0 and status["products"] == []
    assert status["job"]["error"].startswith(f"The producer's site \u2068{shop_setup.url}\u2069 answered, but no "
                                             "products were found on it")


def test_the_scraped_list_names_the_shop_category_in_the_staff_members_language(shop_setup, manager, crawl):
    # given a crawl, and Arabic names for the shop's categories
    from catalog.models import Category

    crawl(user=manager)
    Category.objects.update(name_ar="قسم الشاي")
    client = client_for(manager)
    # when staff read the list in English and in Arabic
    english = client.get("/api/admin/scrape/status").json()["products"]
    arabic = client.get("/api/admin/scrape/status", HTTP_ACCEPT_LANGUAGE="ar").json()["products"]
    # then each product's category is a name, never a slug, in the reader's language
    slugs = set(Category.objects.values_list("slug", flat=True))
    assert english and not {p["shopCategory"] for p in english} & slugs
    assert {p["shopCategory"] for p in arabic} == {"قسم الشاي"}
