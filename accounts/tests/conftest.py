from decimal import Decimal

import pytest


@pytest.fixture
def product(db):
    from catalog.models import Category, Product

    category = Category.objects.create(slug="black-tea", name="Black Tea")
    return Product.objects.create(
        slug="kericho-gold", title="Kericho Gold", price_amount=Decimal("150.00"), category=category, stock=20
    )
