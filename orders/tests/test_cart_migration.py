"""Migrations 0009 and 0010 (a session's guest carts become one before the one-cart-per-session
constraint) and 0012 (cart lines get a position)."""

import pytest

from tests.migrations import migrate_to

BEFORE = [("orders", "0008_cart_version")]
AFTER = [("orders", "0010_cart_one_per_guest_session")]




@pytest.mark.django_db(transaction=True)
def test_a_sessions_later_guest_carts_are_merged_into_its_first(make_product, latest_schema_after):
    # given a session with two guest carts (two first adds at once, before the constraint) and another guest
    tea, gift, mint = make_product(), make_product(), make_product()
    old = migrate_to(BEFORE)
    OldCart, OldLine = old.get_model("orders", "Cart"), old.get_model("orders", "CartLine")
    first, later = (OldCart.objects.create(session_key="twice") for _ in range(2))
    other = OldCart.objects.create(session_key="once")
    OldLine.objects.create(cart=first, product_id=tea.pk, quantity=2)
    OldLine.objects.create(cart=later, product_id=tea.pk, quantity=5)
    OldLine.objects.create(cart=later, product_id=gift.pk, quantity=1)
    OldLine.objects.create(cart=other, product_id=mint.pk, quantity=3)
    # when
    Cart = migrate_to(AFTER).get_model("orders", "Cart")  # the models as they were then (0012 added a column)
    # then the first cart holds its own line as it was, and the line only the later cart had
    carts = Cart.objects.filter(user=None, session_key="twice")
    assert [cart.pk for cart in carts] == [first.pk]
    assert sorted((line.product_id, line.quantity) for line in carts[0].lines.all()) == sorted(
        [(tea.pk, 2), (gift.pk, 1)])
    assert [(line.product_id, line.quantity) for line in Cart.objects.get(pk=other.pk).lines.all()] == [(mint.pk, 3)]


@pytest.mark.django_db(transaction=True)
def test_lines_keep_the_order_they_were_added_in_when_they_get_a_position(make_product, latest_schema_after):
    # given a cart whose lines were added before lines had a position
    tea, gift, mint = make_product(), make_product(), make_product()
    old = migrate_to([("orders", "0011_order_refunded_amount")])
    OldCart, OldLine = old.get_model("orders", "Cart"), old.get_model("orders", "CartLine")
    cart = OldCart.objects.create(session_key="before")
    for product in (gift, tea, mint):
        OldLine.objects.create(cart=cart, product_id=product.pk, quantity=1)
    # when
    new = migrate_to([("orders", "0012_cart_line_position")])
    # then each has its own position, in the order they were added
    lines = new.get_model("orders", "CartLine").objects.filter(cart_id=cart.pk).order_by("position")
    assert [line.product_id for line in lines] == [gift.pk, tea.pk, mint.pk]
    assert len({line.position for line in lines}) == 3
