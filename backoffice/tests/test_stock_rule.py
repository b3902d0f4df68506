"""Low stock is one rule: 1 to 10 left is low, 0 is out, on the overview and in the inventory alike."""

import pytest

from tests.factories import make_product


@pytest.mark.django_db
def test_the_overview_card_and_the_inventory_summary_count_low_and_out_of_stock_alike(client, manager):
    # given: 8 products with 1..10 left, 2 with none, 1 with plenty
    for n, stock in enumerate([1, 2, 3, 4, 5, 6, 9, 10]):
        make_product(title=f"Low {n}", stock=stock)
    make_product(title="Gone A", stock=0)
    make_product(title="Gone B", stock=0)
    make_product(title="Plenty", stock=11)
    client.force_login(manager)
    # when
    overview = client.get("/api/admin/dashboard").json()
    summary = client.get("/api/admin/inventory").json()["summary"]
    # then
    assert (overview["lowStockProducts"], overview["outOfStockProducts"]) == (8, 2)
    assert (summary["lowStock"], summary["outOfStock"], summary["inStock"]) == (8, 2, 1)
