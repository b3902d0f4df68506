"""A checkout that waits on a lock another session holds (a staff write on a frozen process, a stuck job)
answers within seconds, saying so in the shopper's language, instead of hanging until gunicorn's 60 s kill
(a proxy's 502 in English, the shopper not knowing whether they ordered). Nothing is placed."""

import time
from decimal import Decimal

import psycopg
import pytest
from django.db import connection
from rest_framework.test import APIClient

from catalog.models import Category, Product
from orders.models import Order
from tests.threads import thread

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the database is not PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]

CHECKOUT = {
    "customer": {"firstName": "Mona", "lastName": "Ali", "email": "mona@example.com", "phone": "01012345678"},
    "billingAddress": {"street": "12 Nile St", "city": "Cairo", "state": "Cairo", "country": "EGY"},
    "paymentMethod": "cod",
}


class RowHeld:
    """Another session that locks `product`'s row and then does nothing, until the block ends."""

    def __init__(self, product):
        params = connection.get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        self._other = psycopg.connect(**{k: v for k, v in params.items() if not k.startswith("keepalives")
                                         and k != "options"})
        self._product = product

    def __enter__(self):
        self._other.execute("SELECT id FROM catalog_product WHERE id = %s FOR UPDATE", [self._product.pk])
        return self

    def __exit__(self, *exc):
        self._other.rollback()
        self._other.close()


@pytest.mark.parametrize("language, message", [
    ("en", "The shop is busy right now and nothing was saved. Please try again in a moment."),
    ("ar", "المتجر مشغول الآن ولم يُحفظ شيء. يُرجى المحاولة مرة أخرى بعد قليل."),
])
def test_a_checkout_waiting_on_a_held_lock_is_answered_within_seconds_and_places_nothing(language, message):
    # given a shopper with a tea in their cart, and another session holding that tea's row
    category = Category.objects.create(slug="black-tea", name="Black Tea")
    tea = Product.objects.create(slug="tea", title="Tea", price_amount=Decimal("120.00"), category=category, stock=5)
    shopper = APIClient(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)
    assert shopper.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, format="json").status_code == 200
    answers = []
    with RowHeld(tea):
        # when they check out
        def checkout():
            started = time.monotonic()
            answers.append((shopper.post("/api/payment/create-intention", CHECKOUT, format="json"),
                            time.monotonic() - started))

        waiting = thread(checkout, daemon=True)
        waiting.start()
        waiting.join(timeout=30)
        assert answers, "the checkout still waits on the lock after 30 s"
    # then a clear answer in their language, before the browser (30 s) or gunicorn (60 s) give up
    response, took = answers[0]
    assert took < 20
    assert (response.status_code, response.json()["message"]) == (503, message)
    assert not Order.objects.exists()
    tea.refresh_from_db()
    assert tea.stock == 5
    # and once the lock is let go, the same checkout goes through
    assert shopper.post("/api/payment/create-intention", CHECKOUT, format="json").status_code == 201
