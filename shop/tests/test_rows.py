"""shop.rows: model instances from plain SQL, exactly as the ORM builds them (both databases), and copied
as copy.copy copies them."""

import copy
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.utils import timezone

from catalog.models import Product
from shop.rows import Columns, instance_copy
from tests.factories import make_product, make_review

pytestmark = pytest.mark.django_db


def test_an_instance_has_every_field_the_orm_gives_it():
    make_product(title="Kenya Gold", price="300.50", sale_price_amount=Decimal("250.25"), images=["/media/a.webp"],
                 tags=["black", "strong"], kes_price_amount=Decimal("1234.00"), rating=Decimal("4.50"),
                 created_at=timezone.now() - timedelta(days=2))
    columns = Columns(Product, "p")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns.sql} FROM {Product._meta.db_table} p")
        (row,) = cursor.fetchall()
    made, read = columns.instance(row), Product.objects.get()
    for field in Product._meta.concrete_fields:
        assert getattr(made, field.attname) == getattr(read, field.attname), field.name
        assert type(getattr(made, field.attname)) is type(getattr(read, field.attname)), field.name
    assert made.sale_price_amount == Decimal("250.25") and made.tags == ["black", "strong"]
    assert not made._state.adding and made._state.db == "default"  # saved as an update, like a read row


def test_only_names_those_columns_and_leaves_the_rest_to_load_when_read():
    make_product(title="Kenya Gold", description="Strong", tags=["black"])
    columns = Columns(Product, "p", only=("title", "price_amount"))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns.sql} FROM {Product._meta.db_table} p")
        (row,) = cursor.fetchall()
    made, read = columns.instance(row), Product.objects.get()
    assert columns.width == len(row) == 5  # the key, the title in its three columns, the price
    assert (made.pk, made.title, made.title_ar, made.price_amount) == (read.pk, read.title, read.title_ar,
                                                                        read.price_amount)
    assert "description" in made.get_deferred_fields() and "title_en" not in made.get_deferred_fields()
    assert (made.description, made.tags) == ("Strong", ["black"])  # loaded on first read


@pytest.mark.parametrize("make_copy", [copy.copy, instance_copy])
def test_a_copy_has_its_own_fields_state_and_related_cache_and_shares_the_values(make_copy):
    review = make_review(title="Lovely tea")
    kept = type(review).objects.select_related("product").get()  # the product in its related cache
    copied = make_copy(kept)
    assert (copied.pk, copied.title, copied.product_id) == (kept.pk, kept.title, kept.product_id)
    assert copied.product is kept.product  # the related object shared, as copy.copy shares it
    assert (copied._state.adding, copied._state.db) == (False, "default")
    copied.title = "Changed"
    copied.product = make_product(title="Another")
    assert kept.title == "Lovely tea" and kept.product.title != "Another"
    copied._state.adding = True
    assert kept._state.adding is False
    copied._state.adding = False
    copied.save()
    assert type(review).objects.get().title == "Changed"
