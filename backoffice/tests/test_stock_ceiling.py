"""Stock typed by staff has a ceiling: the inventory screen's add, the product form and a CSV row.

Product.stock is a 32-bit integer column; past 2,147,483,647 PostgreSQL refuses the UPDATE (a 500), and
the inventory form already refuses more than a million at once. A stock of more than a million packs is a
typing slip, whichever way it is reached."""

import pytest

from backoffice.models import AuditEntry
from tests.factories import make_product

pytestmark = pytest.mark.django_db


def test_adding_to_stock_past_the_ceiling_is_refused_not_a_500(client, manager):
    product = make_product(stock=1_000_000)
    client.force_login(manager)
    response = client.put(f"/api/admin/inventory/{product.pk}", {"action": "add", "stock": 1},
                          content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "stock"
    product.refresh_from_db()
    assert product.stock == 1_000_000 and not AuditEntry.objects.exists()


def test_adding_up_to_the_ceiling_is_taken(client, manager):
    product = make_product(stock=999_999)
    client.force_login(manager)
    response = client.put(f"/api/admin/inventory/{product.pk}", {"action": "add", "stock": 1},
                          content_type="application/json")
    assert response.status_code == 200 and response.json()["stock"] == 1_000_000


@pytest.mark.parametrize("stock", [1_000_001, 3_000_000_000])
def test_the_product_form_refuses_stock_past_the_ceiling(client, manager, stock):
    product = make_product(stock=5)
    client.force_login(manager)
    response = client.put(f"/api/admin/products/{product.pk}", {"stock": stock}, content_type="application/json")
    assert response.status_code == 400
    product.refresh_from_db()
    assert product.stock == 5


def test_the_refusal_is_in_arabic_too(client, manager):
    product = make_product(stock=1_000_000)
    client.force_login(manager)
    response = client.put(f"/api/admin/inventory/{product.pk}", {"action": "add", "stock": 5},
                          content_type="application/json", headers={"accept-language": "ar"})
    assert response.json()["message"] == "لا يمكن أن يزيد المخزون على 1000000"
