"""A staff edit of a product, review or announcement another member of staff deleted after the edit read it:
a 404 saying so, never a 500 (a save of fields that found no row) nor the row brought back."""

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from backoffice.marketing import announcement_update
from backoffice.models import AuditEntry
from backoffice.products import StockAction, product_save, stock_adjust
from catalog.models import Product, Review
from catalog.services import review_reject, review_respond, review_set_approved
from shop.errors import ShopError
from shop.models import Announcement
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


def _announcement():
    return Announcement.objects.create(title="Eid hours", content="Open late",
                                       display_end_date=timezone.now() + timedelta(days=7))


def test_an_edit_of_a_deleted_announcement_is_a_404_and_does_not_bring_it_back(manager):
    stale = _deleted(Announcement, _announcement())
    with pytest.raises(ShopError) as refused:
        announcement_update(actor=manager, announcement=stale, title="Eid hours (updated)")
    assert refused.value.status == 404 and refused.value.message == "Announcement not found"
    assert not Announcement.objects.exists()
    assert not AuditEntry.objects.filter(action="announcement.update").exists()


def test_the_announcement_refusal_is_in_arabic(manager):
    stale = _deleted(Announcement, _announcement())
    with translation.override("ar"), pytest.raises(ShopError) as refused:
        announcement_update(actor=manager, announcement=stale, title="Eid hours (updated)")
    assert refused.value.message == "لم يُعثر على الإعلان"


def test_an_edit_sets_only_the_fields_sent(manager):
    announcement = _announcement()
    stale = Announcement.objects.get(pk=announcement.pk)  # the edit's read …
    Announcement.objects.filter(pk=announcement.pk).update(content="Open until 2 am")  # … another's edit
    announcement_update(actor=manager, announcement=stale, title="Eid hours (updated)")
    announcement.refresh_from_db()
    assert (announcement.title, announcement.content) == ("Eid hours (updated)", "Open until 2 am")
