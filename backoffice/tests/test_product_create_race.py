"""Two members of staff adding a product of one title at the same moment get two products."""

import pytest

from backoffice.products import product_save
from catalog.models import Product
from tests.factories import make_category
from tests.threads import at_once


@pytest.mark.django_db(transaction=True)
def test_two_products_of_one_title_at_once_are_two_products(owner, manager):
    make_category()

    def create(actor, price):
        return lambda: product_save(actor=actor, data={"title_en": "Earl Grey", "price_amount": price,
                                                       "category": "black-tea"})

    outcomes = at_once(create(owner, "100.00"), create(manager, "200.00"))

    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    # the slug both read as free went to one; the other is made free again, never the first one overwritten
    assert sorted(Product.objects.values_list("slug", "price_amount")) == [
        ("earl-grey", 100) if outcomes[0].slug == "earl-grey" else ("earl-grey", 200),
        ("earl-grey-2", 200) if outcomes[0].slug == "earl-grey" else ("earl-grey-2", 100)]


@pytest.mark.django_db(transaction=True)
def test_two_products_given_one_slug_at_once_one_is_told_it_is_taken(owner, manager):
    from shop.errors import ShopError
    from tests.factories import make_product

    first, second = make_product(title="First"), make_product(title="Second")

    def rename(actor, product):
        return lambda: product_save(actor=actor, product=Product.objects.get(pk=product.pk),
                                    data={"slug": "chai-masala"})

    outcomes = at_once(rename(owner, first), rename(manager, second))

    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], ShopError) and refused[0].field == "slug", outcomes
    assert Product.objects.filter(slug="chai-masala").count() == 1
