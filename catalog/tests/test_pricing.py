"""catalog.pricing: one rule for 'on sale' (Python and SQL) and one for what can be bought."""

from decimal import Decimal

import pytest

from catalog.models import Product
from catalog.pricing import ON_SALE, Availability, unit_price
from tests.factories import make_category, make_product

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("price", "sale", "on_sale"), [
    ("100.00", None, False),
    ("100.00", "80.00", True),
    ("100.00", "100.00", False),  # equal is not a sale
    ("100.00", "120.00", False),  # a "sale" above the price is ignored
])
def test_the_sql_sale_filter_agrees_with_unit_price(price, sale, on_sale):
    make_category()
    product = make_product(price_amount=Decimal(price), sale_price_amount=Decimal(sale) if sale else None)
    assert Product.objects.filter(ON_SALE, pk=product.pk).exists() is on_sale
    assert (unit_price(product) < product.price_amount) is on_sale


@pytest.mark.parametrize(("active", "stock", "problem"), [
    (True, 5, ""), (True, 0, "out_of_stock"), (True, -1, "out_of_stock"), (False, 5, "inactive"),
])
def test_purchase_problem(active, stock, problem):
    assert Availability.purchase_problem(Product(is_active=active, stock=stock)) == problem


@pytest.mark.parametrize(("stock", "wanted", "granted"), [(5, 3, 3), (5, 9, 5), (0, 2, 0), (-2, 1, 0)])
def test_purchasable_quantity_never_exceeds_the_stock_on_hand(stock, wanted, granted):
    assert Availability.purchasable_quantity(Product(stock=stock), wanted) == granted


@pytest.mark.parametrize(("stock", "status"), [(0, "out"), (1, "low"), (10, "low"), (11, "in")])
def test_the_badge_and_its_sql_filter_agree(stock, status):
    make_category()
    product = make_product(stock=stock)
    assert Availability.status(stock) == status
    assert Product.objects.filter(Availability.stock_filter(status), pk=product.pk).exists()
