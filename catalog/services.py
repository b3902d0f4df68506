"""Catalogue writes: products (keeping the search text filled) and reviews
(keeping each product's rating and review count in step with approved reviews).

A staff moderation passes its `actor` and records its one audit entry here."""

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.db.models import Avg, Count, QuerySet
from django.utils.translation import gettext as _
from modeltranslation.translator import translator

from accounts.models import User
from accounts.user_cache import user_memo
from backoffice.audit import audit_record
from catalog.cache import catalog_changed_now_and_on_commit
from catalog.models import Product, Review
from catalog.search import product_search_text
from orders.models import OrderItem, OrderStatus
from shop.errors import ShopError
from shop.validation import LINE_MAX, TEXT_MAX, clean_text, clean_url


class ReviewError(ShopError):
    """A review the shop refuses, with the message to show and the field at fault."""


# --- products ---------------------------------------------------------------

def product_upsert(*, product: Product | None = None, new: bool = False, **fields: Any) -> Product:
    """Create a product, or update `product` (or the one with `fields["slug"]`, unless `new`: always insert).

    The one write path for products (seed, importer, admin), so the search
    text always matches the content.
    """
    if "images" in fields:
        fields["images"] = product_images_clean(fields["images"])
    with transaction.atomic():
        if product is None and fields.get("slug") and not new:
            product = Product.objects.select_for_update().filter(slug=fields["slug"]).first()
        if product is None:
            product = Product(**fields)
            product.search_text = product_search_text(product)
            product.save()
        else:
            if not Product.objects.select_for_update().filter(pk=product.pk).exists():
                # deleted since `product` was read: a save of its fields would find no row (a 500)
                raise ShopError(_("Product not found"), status=404)
            for name, value in fields.items():
                setattr(product, name, value)
            product.search_text = product_search_text(product)
            # only what this write changes: `product` may have been read a while ago (a dialog left open,
            # an import downloading pictures), and its stock, rating or reviews moved on since
            product.save(update_fields=[*_columns(fields), "search_text", "updated_at"])
        catalog_changed_now_and_on_commit()
    return product


def _columns(names: Iterable[str]) -> set[str]:
    """The fields a write of `names` sets: a translated field's name (`title`) sets its languages' too."""
    translated = translator.get_options_for_model(Product).all_fields
    return {column for name in names
            for column in [name, *(field.name for field in translated.get(name, ()))]}


def product_images_clean(images: object) -> list[str]:
    """Product image addresses as stored: http(s) or a site path, never javascript: or data:."""
    if not isinstance(images, list | tuple):
        raise ShopError(_("Images must be a list of web addresses"), field="images")
    cleaned = [clean_url(url, field="images") for url in images]
    return [url for url in cleaned if url]


def product_search_text_refresh(*, products: QuerySet[Product] | None = None) -> int:
    """Rebuild the search text of `products` (default: all). Returns how many."""
    queryset = products if products is not None else Product.objects.all()
    count = 0
    for product in queryset.iterator():
        Product.objects.filter(pk=product.pk).update(search_text=product_search_text(product))
        count += 1
    return count


# --- reviews ----------------------------------------------------------------

def review_is_allowed(*, user: User | AnonymousUser | None, product: Product | int) -> bool:
    """Whether `user` has a delivered order that contains `product`."""

    if user is None or not user.is_authenticated or not user.is_customer:
        return False
    return OrderItem.objects.filter(
        order__user=user, order__status=OrderStatus.DELIVERED, product=product
    ).exists()


def review_is_allowed_shown(*, user: User | AnonymousUser | None, product_id: int) -> bool:
    """review_is_allowed for showing the review form: the products the customer bought and received
    are read once and kept until their orders change (accounts.user_cache); posting a review asks
    the database again."""
    if user is None or not user.is_authenticated or not user.is_customer:
        return False
    delivered = user_memo(user, "reviewable-products", lambda: frozenset(
        OrderItem.objects.filter(order__user=user, order__status=OrderStatus.DELIVERED, product__isnull=False)
        .values_list("product_id", flat=True)))
    return product_id in delivered


def _rating(value: int | str | None) -> int:
    try:
        rating = int(value if value not in (None, "") else 5)
    except (TypeError, ValueError):
        raise ReviewError(_("Rating must be between 1 and 5"), field="rating") from None
    if not 1 <= rating <= 5:
        raise ReviewError(_("Rating must be between 1 and 5"), field="rating")
    return rating


def review_create(*, user: User | AnonymousUser | None, product: Product, rating: int | str | None, title: object,
                  comment: object) -> Review:
    """Record a pending review by a verified buyer.

    Checks run in the order DECISIONS fixes: signed in, fields filled,
    verified buyer.
    """
    if user is None or not user.is_authenticated:
        raise ReviewError(_("Please login to submit a review"), status=401)
    title = clean_text(title, field="title", max_length=LINE_MAX)
    comment = clean_text(comment, field="comment", max_length=TEXT_MAX, multiline=True)
    if not title or not comment:
        raise ReviewError(_("Please fill in all review fields"), field="title" if not title else "comment")
    rating = _rating(rating)
    if not review_is_allowed(user=user, product=product):
        raise ReviewError(
            _("Only customers who bought and received this product can review it"), status=403
        )
    # never the username in its place: a customer's is their e-mail address (pages show "A customer" instead)
    name = f"{user.first_name} {user.last_name[:1]}".strip() + ("." if user.last_name else "")
    return Review.objects.create(
        product=product, user=user, user_name=name, user_email=user.email,
        rating=rating, title=title, comment=comment, is_verified=True, is_approved=False,
    )


def _product_rating_refresh(product_id: int) -> None:
    stats = Review.objects.filter(product_id=product_id, is_approved=True).aggregate(
        average=Avg("rating"), count=Count("pk")
    )
    average = Decimal(str(stats["average"] or 0)).quantize(Decimal("0.01"))
    Product.objects.filter(pk=product_id).update(rating=average, review_count=stats["count"])
    catalog_changed_now_and_on_commit()


def _review_audit(actor: User | None, action: str, review: Review, *, details: str = "") -> None:
    """A staff moderation's one audit entry (a write without an actor records none)."""
    if actor is not None:
        audit_record(actor=actor, action=action, target=review,
                     details=details or f"{review.product.title}: {review.title}")


def _review_lock(review: Review) -> None:
    """Lock `review`'s row for a moderation; one deleted since it was read is a 404, not a save that finds no
    row (a 500)."""
    if not Review.objects.select_for_update().filter(pk=review.pk).exists():
        raise ReviewError(_("Review not found"), status=404)


def review_set_approved(*, review: Review, approved: bool, actor: User | None = None) -> Review:
    """Approve a review (shown) or send it back to pending (hidden)."""
    with transaction.atomic():
        _review_lock(review)
        review.is_approved = bool(approved)
        review.is_rejected = False
        review.save(update_fields=["is_approved", "is_rejected"])
        _product_rating_refresh(review.product_id)
        _review_audit(actor, "review.approve" if review.is_approved else "review.pending", review)
    return review


def review_reject(*, review: Review, actor: User | None = None) -> Review:
    """Reject a review: hidden for good and kept as rejected (not deleted)."""
    with transaction.atomic():
        _review_lock(review)
        review.is_approved = False
        review.is_rejected = True
        review.save(update_fields=["is_approved", "is_rejected"])
        _product_rating_refresh(review.product_id)
        _review_audit(actor, "review.reject", review)
    return review


def review_respond(*, review: Review, response: str, actor: User | None = None) -> Review:
    """Store the shop's public answer to a review."""
    response = clean_text(response, field="adminResponse", max_length=TEXT_MAX, multiline=True)
    if not response:
        raise ReviewError(_("Response cannot be empty"), field="adminResponse")
    with transaction.atomic():
        _review_lock(review)
        review.admin_response = response
        review.save(update_fields=["admin_response"])
        catalog_changed_now_and_on_commit()
        _review_audit(actor, "review.respond", review)
    return review


def reviews_author_forget(*, user: User) -> None:
    """Take the author's name and e-mail off their reviews (their account is being closed): the reviews
    stay, shown as "A customer"."""
    if Review.objects.filter(user=user).update(user_name="", user_email=""):
        catalog_changed_now_and_on_commit()


def review_delete(*, review: Review, actor: User | None = None) -> None:
    with transaction.atomic():
        _review_audit(actor, "review.delete", review,
                      details=f"{review.product.title}: {review.title} ({review.user_email})")
        product_id = review.product_id
        review.delete()
        _product_rating_refresh(product_id)
