"""The one write path for products: create and update, with one slug rule and one category rule.

The dashboard (backoffice.products, the CSV import) and the producer import
(importer.services, importer.sync) all call these. A write with an `actor`
(a staff member) records its one audit entry here; the scheduled import
writes without one. Saving goes through `catalog.services.product_upsert`,
which keeps the search text in step.
"""

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.models import User
from backoffice.audit import audit_changes, audit_record
from catalog.models import Category, Product
from catalog.services import product_upsert
from shop.errors import ShopError

DEFAULT_CATEGORY = "black-tea"
SLUG_BASE_MAX = 180


def product_slug_base(text: str) -> str:
    """The slug `text` (a wished slug or a title) asks for, before a number makes it free: "Kenya Gold" → `kenya-gold`.

    Empty when `text` has nothing a slug keeps. A lookup by a typed slug (the CSV import) goes through
    this, as creation does, so "Kenya Gold" finds the product it created.
    """
    return slugify(text)[:SLUG_BASE_MAX]


def product_slug_unique(text: str, *, exclude: Product | None = None) -> str:
    """A free slug made from `text` (a wished slug or a title): `kenya-gold`, else `kenya-gold-2`, …"""
    base = product_slug_base(text) or "product"
    taken = Product.objects.all() if exclude is None else Product.objects.exclude(pk=exclude.pk)
    slug, n = base, 2
    while taken.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def category_resolve(slug: str | None, *, create: bool = False) -> Category:
    """The assignable category with `slug` (empty: the default one).

    With `create`, a missing category is made, named after its slug (the
    producer import on a shop not seeded yet); otherwise it is a 400 naming the field.
    """
    slug = slug or DEFAULT_CATEGORY
    category = Category.objects.filter(slug=slug).first()
    if category is None and create:
        category, _created = Category.objects.get_or_create(
            slug=slug, defaults={"name": slug.replace("-", " ").title()})
    if category is None or not category.is_assignable:
        raise ShopError(_("Unknown category"), field="category")
    return category


SLUG_TRIES = 5  # a slug found free, then taken by a product created at the same moment: the next one is tried


def product_create(*, actor: User | None = None, audit_action: str = "product.create", slug: str = "",
                   category: str = DEFAULT_CATEGORY, create_category: bool = False, **fields: Any) -> Product:
    """Create a product. Its slug is made free from `slug` or the English title;
    `category` is a category slug (see `category_resolve`)."""
    wished = (slug or "").strip() or fields.get("title_en") or ""
    with transaction.atomic():
        fields["category"] = category_resolve(category, create=create_category)
        for attempt in range(SLUG_TRIES):
            fields["slug"] = product_slug_unique(wished)
            try:
                with transaction.atomic():  # a savepoint: a slug taken meanwhile is tried again
                    # always an insert: the slug found free may be another product's by now (staff adding one
                    # title twice at once), and that product must not be overwritten with this one
                    product = product_upsert(new=True, **fields)
                break
            except IntegrityError:
                if attempt == SLUG_TRIES - 1:
                    raise
        if actor is not None:
            audit_record(actor=actor, action=audit_action, details=product.title_en, target=product)
    return product


def product_update(*, product: Product, actor: User | None = None, audit_action: str = "product.update",
                   **fields: Any) -> Product:
    """Change `product`'s fields. A new `slug` must be free (an empty one keeps the old);
    `category` is a category slug (see `category_resolve`)."""
    slug_text = (fields.pop("slug") or "").strip() if "slug" in fields else ""
    try:
        with transaction.atomic():  # a savepoint inside a caller's transaction
            # the values this edit replaces, under the product's row lock (product_upsert takes it again): as
            # the request read them they may be stale, another member of staff having edited it since, and
            # the audit entry then named old values it did not replace and changes it did not make
            locked = Product.objects.select_for_update().filter(pk=product.pk).first()
            if locked is None:  # deleted by another member of staff since this request read it
                raise ShopError(_("Product not found"), status=404)
            # a slug sent is a change when it differs from the slug under the lock, as any other field is
            wished = slugify(slug_text)
            if slug_text and wished != locked.slug:
                if not wished or Product.objects.filter(slug=wished).exclude(pk=product.pk).exists():
                    raise ShopError(_("A product with this slug already exists"), field="slug")
                fields["slug"] = wished
            if "category" in fields:
                fields["category"] = category_resolve(fields["category"])
            before = {name: getattr(locked, name) for name in fields}
            product = product_upsert(product=product, **fields)
            if actor is not None:
                audit_record(actor=actor, action=audit_action, details=product.title_en, target=product,
                             changes=_changes(before, product))
    except IntegrityError:
        # the slug was free when checked above, and another product took it before this one was saved
        if "slug" in fields and Product.objects.filter(slug=fields["slug"]).exclude(pk=product.pk).exists():
            raise ShopError(_("A product with this slug already exists"), field="slug") from None
        raise
    return product


def _changes(before: dict[str, Any], product: Product) -> list[dict[str, Any]]:
    """What a staff edit changed, old and new, for the audit log: a long text (a description) by name only."""
    changes = audit_changes(before=before, after={name: getattr(product, name) for name in before})
    for change in changes:
        if Product._meta.get_field(change["field"]).get_internal_type() == "TextField":
            change.update(old="", new="")
    return changes
