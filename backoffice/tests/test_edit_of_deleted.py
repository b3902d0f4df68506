"""A staff edit of a product or review another member of staff deleted after the edit read it: a 404
saying so, never a 500 (a save of fields that found no row) nor the row brought back."""

import pytest
from django.utils import translation

from backoffice.products import StockAction, product_save, stock_adjust
from catalog.models import Product, Review
from catalog.services import review_reject, review_respond, review_set_approved
from shop.errors import ShopError
from tests.factories import make_product, make_review

pytestmark = pytest.mark.django_db


def _deleted(model, obj):
    stale = model.objects.get(pk=obj.pk)  # what the edit's request read …
    model.objects.filter(pk=obj.pk).delete()  # … before the other request's delete
    return stale


@pytest.mark.parametrize("edit", [
    lambda actor, p: product_save(actor=actor, product=p, data={"title_en": "Renamed"}),
    lambda actor, p: product_save(actor=actor, product=p, data={"stock": 3}),
    lambda actor, p: stock_adjust(actor=actor, product=p, action=StockAction.ADD, amount=2),
])
def test_an_edit_of_a_deleted_product_is_a_404(manager, edit):
    stale = _deleted(Product, make_product(stock=5))
    with pytest.raises(ShopError) as refused:
        edit(manager, stale)
    assert refused.value.status == 404 and refused.value.message == "Product not found"
    assert not Product.objects.exists()


@pytest.mark.parametrize("edit", [
    lambda actor, r: review_set_approved(review=r, approved=True, actor=actor),
    lambda actor, r: review_reject(review=r, actor=actor),
    lambda actor, r: review_respond(review=r, response="Thank you", actor=actor),
])
def test_a_moderation_of_a_deleted_review_is_a_404(manager, edit):
    stale = _deleted(Review, make_review())
    with pytest.raises(ShopError) as refused:
        edit(manager, stale)
    assert refused.value.status == 404
    assert not Review.objects.exists()


def test_the_review_refusal_is_in_arabic(manager):
    stale = _deleted(Review, make_review())
    with translation.override("ar"), pytest.raises(ShopError) as refused:
        review_reject(review=stale, actor=manager)
    assert refused.value.message == "لم يُعثر على التقييم"
