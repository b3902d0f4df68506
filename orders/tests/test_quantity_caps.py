"""Per-product and per-order quantity caps (store settings): the cart refuses, placing checks again."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from orders import cart as carts
from orders.cart import CartError, CartOwner, cart_line_add, cart_line_update, cart_merge
from orders.checkout import CheckoutError, order_place
from orders.models import Cart, Order
from shop.store_settings import store_settings_get, store_settings_update

pytestmark = pytest.mark.django_db


def test_the_defaults_are_20_per_product_50_per_order_and_3_unpaid_orders():
    store = store_settings_get()
    assert (store.max_quantity_per_line, store.max_quantity_per_order, store.max_unpaid_orders) == (20, 50, 3)


def test_the_cart_refuses_more_of_one_product_than_the_cap_and_keeps_the_line(api, make_product):
    # given a line of 15 of a tea with plenty of stock
    tea = make_product(stock=500)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 15}, format="json")
    # when
    added = api.post("/api/cart/items", {"productId": tea.pk, "quantity": 6}, format="json")
    set_to = api.patch(f"/api/cart/items/{tea.pk}", {"quantity": 21}, format="json")
    # then
    for response in (added, set_to):
        assert response.status_code == 400
        assert response.json()["message"] == "You can order at most 20 of one product"
    assert api.get("/api/cart").json()["items"][0]["quantity"] == 15


def test_the_cart_refuses_more_items_in_all_than_the_order_cap(api, make_product):
    # given a per-order cap of 5 and 3 of one tea in the cart
    store_settings_update(max_quantity_per_order=5)
    first, second = make_product(stock=50), make_product(stock=50)
    api.post("/api/cart/items", {"productId": first.pk, "quantity": 3}, format="json")
    # when
    response = api.post("/api/cart/items", {"productId": second.pk, "quantity": 3}, format="json")
    # then
    assert response.status_code == 400
    assert response.json()["message"] == "You can order at most 5 items in one order"
    assert api.get("/api/cart").json()["itemCount"] == 3


def test_the_cap_message_is_translated(api, make_product):
    tea = make_product(stock=500)
    response = api.post("/api/cart/items", {"productId": tea.pk, "quantity": 21}, format="json",
                        HTTP_ACCEPT_LANGUAGE="ar")
    assert response.status_code == 400
    assert response.json()["message"] == "الحد الأقصى للمنتج الواحد في الطلب هو 20"


def test_placing_checks_the_caps_again_and_takes_no_stock(make_product, checkout_form):
    # given lines the cart would never hold (an old cart, or a cap lowered since)
    tea = make_product(stock=100)
    # when
    with pytest.raises(CheckoutError) as refused:
        order_place(lines=[(tea, 21)], form=checkout_form(payment_method="card"))
    # then
    assert refused.value.code == "quantity_limit" and refused.value.field == "items"
    assert str(refused.value) == "You can order at most 20 of one product"
    assert Order.objects.count() == 0
    tea.refresh_from_db()
    assert tea.stock == 100


def test_checkout_refuses_a_cart_filled_before_the_cap_was_lowered(api, make_product, checkout_body):
    # given
    tea = make_product(stock=100)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 10}, format="json")
    store_settings_update(max_quantity_per_order=8)
    # when
    response = api.post("/api/payment/create-intention", checkout_body(paymentMethod="cod"), format="json")
    # then
    assert response.status_code == 400
    assert response.json()["message"] == "You can order at most 8 items in one order"
    assert Order.objects.count() == 0


def test_signing_in_merges_the_guest_cart_within_the_per_product_cap(alice, make_product):
    # given alice has 15 of a tea in her account's cart, and 10 more as a guest
    tea = make_product(stock=500)
    Cart.objects.create(user=alice).lines.create(product=tea, quantity=15)
    Cart.objects.create(session_key="guest-session").lines.create(product=tea, quantity=10)
    # when
    cart_merge(session_key="guest-session", user=alice)
    # then
    assert alice.cart.lines.get().quantity == 20


def test_staff_change_the_caps_in_the_settings_api(client, owner):
    # given
    client.force_login(owner)
    # when
    response = client.put("/api/admin/settings", {"maxQuantityPerLine": 5, "maxQuantityPerOrder": 12,
                                                  "maxUnpaidOrders": 2}, content_type="application/json")
    refused = client.put("/api/admin/settings", {"maxQuantityPerLine": 0}, content_type="application/json")
    # then
    assert response.status_code == 200
    body = response.json()
    assert (body["maxQuantityPerLine"], body["maxQuantityPerOrder"], body["maxUnpaidOrders"]) == (5, 12, 2)
    store = store_settings_get()
    assert (store.max_quantity_per_line, store.max_quantity_per_order, store.max_unpaid_orders) == (5, 12, 2)
    assert refused.status_code == 400 and refused.json()["field"] == "maxQuantityPerLine"


def test_a_refused_change_leaves_the_enclosing_transaction_usable(make_product):
    # given: a cart with 15 of a tea, changed inside a transaction that goes on afterwards (a reorder)
    tea = make_product(stock=500)
    cart = Cart.objects.create(session_key="caps-in-a-transaction")
    with transaction.atomic():
        cart_line_add(owner=CartOwner.of(cart), product_id=tea.pk, quantity=15)
        # when: the next change breaks the per-product cap
        with pytest.raises(CartError):
            cart_line_add(owner=CartOwner.of(cart), product_id=tea.pk, quantity=6)
        # then: the transaction can still query, and commit what came before the refusal
        assert cart.lines.get().quantity == 15
    assert cart.lines.get().quantity == 15


@pytest.mark.django_db(transaction=True)
def test_a_cart_write_runs_in_the_requests_transaction_without_a_savepoint(api, make_product):
    tea = make_product(stock=50)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, format="json")
    with CaptureQueriesContext(connection) as queries:
        response = api.patch(f"/api/cart/items/{tea.pk}", {"quantity": 2}, format="json")
    assert response.status_code == 200 and response.json()["itemCount"] == 2
    assert not [q["sql"] for q in queries.captured_queries if "SAVEPOINT" in q["sql"].upper()]


@pytest.mark.django_db(transaction=True)  # each write its own transaction, as in a cart request
def test_a_write_that_another_write_overtook_is_worked_out_again_holding_the_cart(make_product, monkeypatch):
    # given a line of 2, and another tab that sets it to 9 after this write has read the lines
    store_settings_update(max_quantity_per_order=10)
    tea = make_product(stock=50)
    cart = Cart.objects.create(session_key="s" * 32)
    cart_line_add(owner=CartOwner.of(cart), product_id=tea.pk, quantity=2)
    read = carts._read
    reads = []

    def read_then_overtaken(cart_read):
        found = read(cart_read)
        reads.append((found[1][0].quantity, connection.in_atomic_block))
        if len(reads) == 1:
            cart_line_update(owner=CartOwner.of(cart), product_id=tea.pk, quantity=9)
        return found

    monkeypatch.setattr(carts, "_read", read_then_overtaken)
    # when this one adds 2: on the lines it read first, 4; on the lines as they are, 11, over the cap
    with pytest.raises(CartError) as refused:
        cart_line_add(owner=CartOwner.of(cart), product_id=tea.pk, quantity=2)
    # then it read them again in a transaction that holds the cart
    assert refused.value.code == "quantity_limit"
    assert reads == [(2, False), (2, False), (9, True)]  # this write's, the other's, this write's again
    assert [line.quantity for line in cart.lines.all()] == [9]
    # and a write that is not overtaken reads once, holding nothing
    reads.append("next")
    assert cart_line_update(owner=CartOwner.of(cart), product_id=tea.pk, quantity=3).lines == [(tea, 3)]
    assert reads[-2:] == ["next", (9, False)]


@pytest.mark.django_db(transaction=True)  # two connections, each committing for real
def test_a_write_to_a_cart_waits_for_another_write_to_it_even_when_the_cart_is_empty():
    from tests.factories import make_product
    from tests.threads import thread

    if connection.vendor != "postgresql":
        pytest.skip("SQLite's IMMEDIATE transactions let one writer in at a time")
    store_settings_update(max_quantity_per_order=10)
    first, second = make_product(stock=50), make_product(stock=50)
    cart = Cart.objects.create(session_key="s" * 32)
    other = connection.copy()  # another request's write to the same, empty, cart
    other.connect()
    other.set_autocommit(False)
    with other.cursor() as cursor:
        cursor.execute("UPDATE orders_cart SET version = version + 1 WHERE id = %s", [cart.pk])
    outcome = []

    def add_five():
        try:
            cart_line_add(owner=CartOwner.of(cart), product_id=second.pk, quantity=5)
            outcome.append("added")
        except CartError as error:
            outcome.append(error.code)

    writer = thread(add_five)
    writer.start()
    writer.join(0.5)
    assert writer.is_alive()  # it waits for the cart
    with other.cursor() as cursor:
        cursor.execute("INSERT INTO orders_cartline (cart_id, product_id, quantity, position) VALUES (%s, %s, 9, 1)",
                       [cart.pk, first.pk])
    other.commit()
    other.close()
    writer.join(10)
    # and then checks the caps against the line the other write made: 9 + 5 is over 10
    assert outcome == ["quantity_limit"]
    assert [(line.product_id, line.quantity) for line in cart.lines.all()] == [(first.pk, 9)]


@pytest.mark.django_db(transaction=True)  # each write its own transaction, as in a cart request
@pytest.mark.parametrize("who", ["guest", "customer"])
def test_two_first_writes_to_a_cart_at_once_land_in_one_cart(who, make_product, monkeypatch, django_user_model):
    # given a visitor without a cart whose first add reads "no cart", and another tab's first add
    # that makes the cart and writes its line before this one writes
    tea, gift = make_product(stock=5), make_product(stock=5)
    owner = (CartOwner(django_user_model.objects.create_user("two-tabs").pk, "") if who == "customer"
             else CartOwner(None, "t" * 32))
    read = carts._read
    overtaken = []

    def read_then_overtaken(cart_owner):
        found = read(cart_owner)
        if not overtaken:
            overtaken.append(found)
            cart_line_add(owner=owner, product_id=gift.pk)
        return found

    monkeypatch.setattr(carts, "_read", read_then_overtaken)
    # when
    change = cart_line_add(owner=owner, product_id=tea.pk)
    # then both lines are in the visitor's one cart, and the answer names both
    assert overtaken == [None]
    assert Cart.objects.filter(user_id=owner.user_id, session_key=owner.session_key).count() == 1
    assert sorted(product.pk for product, _quantity in change.lines) == sorted([tea.pk, gift.pk])
    assert sorted(line.product_id for line in Cart.objects.get(user_id=owner.user_id).lines.all()) == sorted(
        [tea.pk, gift.pk])
