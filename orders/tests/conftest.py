from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from catalog.models import Category, Product


@pytest.fixture
def category(db):
    return Category.objects.create(slug="black-tea", name="Black tea")


@pytest.fixture
def make_product(category):
    counter = {"n": 0}

    def make(*, price="300.00", sale=None, stock=10, title=None, active=True):
        counter["n"] += 1
        n = counter["n"]
        return Product.objects.create(
            slug=f"tea-{n}", title=title or f"Tea {n}", price_amount=Decimal(price),
            sale_price_amount=Decimal(sale) if sale else None, stock=stock, category=category,
            is_active=active,
        )

    return make


@pytest.fixture
def api():
    return APIClient()


CHECKOUT = {
    "customer": {"firstName": "Mona", "lastName": "Ali", "email": "mona@example.com", "phone": "01012345678"},
    "billingAddress": {"street": "12 Nile St", "city": "Cairo", "state": "Cairo", "country": "EGY"},
}


@pytest.fixture
def checkout_body():
    def body(**extra):
        return {**CHECKOUT, **extra}

    return body
