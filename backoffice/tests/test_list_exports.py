"""Each dashboard export holds what its list shows: the same search and filters, the same rows."""

import csv
import io

import pytest

from tests.factories import make_category, make_product

pytestmark = pytest.mark.django_db


def _csv_rows(response):
    body = response.content if hasattr(response, "content") and not response.streaming else b"".join(
        response.streaming_content)
    return list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))


def test_the_products_export_holds_the_filtered_list_in_its_order(client, manager):
    # given green teas and a black tea, one green without an Arabic title
    make_category("green-tea", "Green Tea", "شاي أخضر", 2)
    make_product(title="Green Mist", title_ar="ضباب أخضر", category_slug="green-tea", price="90")
    make_product(title="Green Sencha", category_slug="green-tea", price="120")
    make_product(title="Kericho Gold", price="100")
    client.force_login(manager)
    query = "category=green-tea&sort=-price"
    listed = [row["slug"] for row in client.get(f"/api/admin/products?{query}").json()["results"]]
    # when staff export with the list's filters
    exported = [row["slug"] for row in _csv_rows(client.get(f"/api/admin/products/export?{query}"))]
    # then the file holds what the list shows, in its order
    assert listed == ["green-sencha", "green-mist"]
    assert exported == listed
    # and a search and the Arabic filter narrow it the same way
    assert [row["slug"] for row in _csv_rows(client.get(
        "/api/admin/products/export?search=green&arabic=title"))] == ["green-sencha"]


def test_the_products_export_without_filters_still_holds_every_product(client, manager):
    # given
    make_product(title="Green Mist")
    make_product(title="Kericho Gold")
    client.force_login(manager)
    # when
    rows = _csv_rows(client.get("/api/admin/products/export"))
    # then (the list's own order: newest first)
    assert [row["slug"] for row in rows] == ["kericho-gold", "green-mist"]

