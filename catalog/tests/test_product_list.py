from decimal import Decimal

import pytest

from catalog.selectors import product_list, product_related
from tests.factories import make_category, make_product

pytestmark = pytest.mark.django_db


def test_price_filters_use_the_shown_price_with_the_specs_bounds():
    # given
    p99 = make_product(price_amount=Decimal("99.99"))
    p100 = make_product(price_amount=Decimal("100"))
    p200 = make_product(price_amount=Decimal("200"))
    p300 = make_product(price_amount=Decimal("300"))
    on_sale = make_product(price_amount=Decimal("400"), sale_price_amount=Decimal("250"))
    p301 = make_product(price_amount=Decimal("301"))
    # then
    assert set(product_list(price="under-100")) == {p99}
    assert set(product_list(price="100-200")) == {p100, p200}
    assert set(product_list(price="200-300")) == {p200, p300, on_sale}
    assert set(product_list(price="over-300")) == {p301}


def test_it_sorts_by_price_rating_and_newness():
    # given
    cheap = make_product(price_amount=Decimal("50"), rating=Decimal("3"))
    dear = make_product(price_amount=Decimal("500"), rating=Decimal("5"))
    mid = make_product(price_amount=Decimal("300"), sale_price_amount=Decimal("40"))
    # then
    assert list(product_list(sort="price-asc")) == [mid, cheap, dear]
    assert list(product_list(sort="price-desc")) == [dear, cheap, mid]
    assert list(product_list(sort="top-rated"))[0] == dear
    assert list(product_list(sort="newest"))[0] == mid


def test_related_products_share_a_category_or_a_tag_and_exclude_itself():
    # given
    green = make_category("green-tea", "Green Tea", "شاي أخضر")
    product = make_product(tags=["gift"])
    sibling = make_product()
    tagged = make_product(category=green, tags=["gift"])
    make_product(category=green, tags=["other"])
    # then
    assert product_related(product=product) == [sibling, tagged]
