"""Migrations 0009 and 0010: a session's guest carts become one before the one-cart-per-session constraint."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from orders.models import Cart

BEFORE = [("orders", "0008_cart_version")]
AFTER = [("orders", "0010_cart_one_per_guest_session")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def latest_schema_after():
    """Every app back at its latest migration once the test is done: the tests that follow in this
    process share the database, and later migrations (orders 0011 on) would be missing from it."""
    yield
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_a_sessions_later_guest_carts_are_merged_into_its_first(make_product, latest_schema_after):
    # given a session with two guest carts (two first adds at once, before the constraint) and another guest
    tea, gift, mint = make_product(), make_product(), make_product()
    old = _migrate(BEFORE)
    OldCart, OldLine = old.get_model("orders", "Cart"), old.get_model("orders", "CartLine")
    first, later = (OldCart.objects.create(session_key="twice") for _ in range(2))
    other = OldCart.objects.create(session_key="once")
    OldLine.objects.create(cart=first, product_id=tea.pk, quantity=2)
    OldLine.objects.create(cart=later, product_id=tea.pk, quantity=5)
    OldLine.objects.create(cart=later, product_id=gift.pk, quantity=1)
    OldLine.objects.create(cart=other, product_id=mint.pk, quantity=3)
    # when
    _migrate(AFTER)
    # then the first cart holds its own line as it was, and the line only the later cart had
    carts = Cart.objects.filter(user=None, session_key="twice")
    assert [cart.pk for cart in carts] == [first.pk]
    assert sorted((line.product_id, line.quantity) for line in carts[0].lines.all()) == sorted(
        [(tea.pk, 2), (gift.pk, 1)])
    assert [(line.product_id, line.quantity) for line in Cart.objects.get(pk=other.pk).lines.all()] == [(mint.pk, 3)]
