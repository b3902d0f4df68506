import copy
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from catalog.models import Category
from orders.checkout import checkout_validate
from tests import factories


@pytest.fixture
def category(db):
    return Category.objects.create(slug="black-tea", name="Black tea")


@pytest.fixture
def make_product(category):
    """tests.factories.make_product with this package's defaults (E£300.00, 10 in stock)."""
    def make(*, price="300.00", sale=None, stock=10, title=None, active=True):
        named = {"title": title} if title else {}
        return factories.make_product(price=price, sale_price_amount=Decimal(sale) if sale else None, stock=stock,
                                      category=category, is_active=active, **named)

    return make


@pytest.fixture
def api():
    return APIClient()


CHECKOUT = {
    "customer": {"firstName": "Mona", "lastName": "Ali", "email": "mona@example.com", "phone": "01012345678"},
    "billingAddress": {"street": "12 Nile St", "city": "Cairo", "state": "Cairo", "country": "EGY"},
}


FORM = {"email": "mona@example.com", "first_name": "Mona", "last_name": "Ali", "phone": "01012345678",
        "street": "12 Nile St", "city": "Cairo", "state": "Cairo", "payment_method": "cod"}


@pytest.fixture
def checkout_form():
    """A validated CheckoutForm for order_place: Mona's, paid cash on delivery unless `extra` says."""
    def form(**extra):
        return checkout_validate({**FORM, **extra})

    return form


@pytest.fixture
def checkout_body():
    def body(**extra):
        return {**copy.deepcopy(CHECKOUT), **extra}  # tests edit the nested dicts

    return body


@pytest.fixture
def fake_paymob(settings):
    from orders.tests.payments.fake_paymob import fake_paymob_running

    # the shop's HMAC secret is the one these tests sign their own callbacks with
    with fake_paymob_running(settings, api_key="legacy-api-key", hmac_secret="test_hmac_secret") as fake:
        yield fake
