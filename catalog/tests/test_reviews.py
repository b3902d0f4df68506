from decimal import Decimal

import pytest
from django.contrib.auth.models import AnonymousUser

from catalog.services import ReviewError, review_create, review_delete, review_respond, review_set_approved
from shop.errors import ShopError
from tests.factories import make_delivered_order, make_product

pytestmark = pytest.mark.django_db


def _review(user, product, **overrides):
    fields = {"rating": 4, "title": "Lovely", "comment": "Bright and brisk"}
    fields.update(overrides)
    return review_create(user=user, product=product, **fields)


def test_a_visitor_is_asked_to_sign_in_before_anything_else():
    # given
    product = make_product()
    # when / then
    with pytest.raises(ReviewError, match="Please login to submit a review") as refused:
        _review(AnonymousUser(), product, title="")
    assert refused.value.status_code == 401


def test_a_signed_in_customer_without_a_delivered_order_is_refused(alice):
    # given
    product = make_product()
    make_delivered_order(user=alice, product=product, status="shipped")
    # when / then
    with pytest.raises(ReviewError, match="Please fill in all review fields"):
        _review(alice, product, title="   ")
    with pytest.raises(ReviewError) as refused:
        _review(alice, product)
    assert refused.value.status_code == 403


def test_a_verified_buyer_creates_a_pending_review_that_counts_once_approved(alice):
    # given
    product = make_product()
    make_delivered_order(user=alice, product=product)
    # when
    review = _review(alice, product, rating=3)
    # then
    product.refresh_from_db()
    assert review.is_verified and not review.is_approved
    assert product.review_count == 0
    # when
    review_set_approved(review=review, approved=True)
    product.refresh_from_db()
    assert (product.review_count, product.rating) == (1, Decimal("3.00"))
    # when
    review_delete(review=review)
    product.refresh_from_db()
    assert (product.review_count, product.rating) == (0, Decimal("0.00"))


def test_it_rejects_out_of_range_ratings_and_over_long_text(alice):
    product = make_product()
    make_delivered_order(user=alice, product=product)
    with pytest.raises(ReviewError):
        _review(alice, product, rating=9)
    with pytest.raises(ReviewError):
        _review(alice, product, rating="x")
    with pytest.raises(ShopError) as caught:  # the shared text gate
        _review(alice, product, comment="a" * 5001)
    assert caught.value.field == "comment"


def test_a_response_must_not_be_empty(alice):
    product = make_product()
    make_delivered_order(user=alice, product=product)
    review = _review(alice, product)
    with pytest.raises(ReviewError, match="Response cannot be empty"):
        review_respond(review=review, response="  ")
    assert review_respond(review=review, response="Thank you!").admin_response == "Thank you!"


@pytest.mark.parametrize(("field", "value"), [("title", "Lovely\r\nBcc: x@y.z"), ("title", "Lo\x00vely"),
                                              ("comment", "Bright\x1b[31m"), ("title", "t" * 201)])
def test_it_refuses_unsafe_review_text_with_a_field_error(alice, field, value):
    # given
    product = make_product()
    make_delivered_order(user=alice, product=product)
    # when
    with pytest.raises(ShopError) as caught:
        _review(alice, product, **{field: value})
    # then
    assert caught.value.field == field
    assert not product.reviews.exists()


def test_a_response_refuses_control_characters(alice):
    # given
    product = make_product()
    make_delivered_order(user=alice, product=product)
    review = _review(alice, product)
    # when
    with pytest.raises(ShopError) as caught:
        review_respond(review=review, response="Thanks\x07")
    # then
    assert caught.value.field == "adminResponse"


@pytest.mark.parametrize(("prefix", "shown"), [("", "A customer"), ("/ar", "أحد العملاء")])
def test_a_customer_without_a_name_is_never_shown_by_their_e_mail_address(client, prefix, shown):
    # given a customer the shop's staff added without a name (they set a password by "Forgot password")
    from accounts.models import User
    from catalog.services import review_set_approved
    customer = User.objects.create_user(username="nameless@example.com", email="nameless@example.com",
                                        password="Fresh-leaves-77")
    product = make_product(slug="pure-black")
    make_delivered_order(user=customer, product=product)

    # when their review is approved and shown
    review = _review(customer, product)
    review_set_approved(review=review, approved=True)
    page = client.get(f"{prefix}/product/pure-black").content.decode()
    api = client.get("/api/reviews", {"productId": product.pk}).content.decode()

    # then the page says "a customer", and neither the page nor the API says who
    assert "nameless" not in page and "nameless" not in api
    assert f"<bdi>{shown}</bdi>" in page


def test_reviews_stored_under_an_e_mail_address_lose_it(alice):
    # given one review named by its buyer's e-mail (the old fallback) and one by their name
    from importlib import import_module

    from django.apps import apps

    from catalog.models import Review
    migration = import_module("catalog.migrations.0007_reviews_without_e_mail_names")
    product = make_product()
    by_email = Review.objects.create(product=product, user=alice, user_name=alice.username, user_email=alice.email)
    by_name = Review.objects.create(product=product, user=alice, user_name="Alice H.", user_email=alice.email)

    # when
    migration.forget_e_mail_names(apps, None)

    # then
    by_email.refresh_from_db()
    by_name.refresh_from_db()
    assert (by_email.user_name, by_name.user_name) == ("", "Alice H.")
