"""Back-office product writes: save, delete, stock, generators, image upload.

Every write is audited. Creating and updating go through `catalog.products`
(one slug rule, one category rule); pictures through `catalog.media`.
"""

from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Greatest
from django.utils.translation import gettext as _

from backoffice.audit import audit_record
from backoffice.product_input import STOCK_MAX
from catalog.cache import catalog_changed_now_and_on_commit
from catalog.media import image_save
from catalog.models import Product
from catalog.products import product_create, product_update
from importer import categorize as generators
from importer.records import staff_edits_record, staff_stock_record
from shop.errors import ShopError
from shop.validation import LINE_MAX, clean_fields

# model field → (limit, multi-line); errors name the API field (title_en → title)
PRODUCT_LIMITS = {
    "slug": LINE_MAX, "title_en": LINE_MAX, "title_ar": LINE_MAX,
    "short_description_en": 300, "short_description_ar": 300,
    "description_en": (10000, True), "description_ar": (10000, True),
    "brewing_instructions_en": (2000, True), "brewing_instructions_ar": (2000, True),
    "images": 1000, "category": 60, "tags": LINE_MAX, "flavor_notes": LINE_MAX,
    "ingredients": LINE_MAX, "colors": LINE_MAX,
    "tags_ar": LINE_MAX, "flavor_notes_ar": LINE_MAX, "ingredients_ar": LINE_MAX,
}
_API_NAMES = {name: name.removesuffix("_en") for name in PRODUCT_LIMITS}


def product_save(*, actor, data, product=None):
    """Create a product or update `product` from validated form data (model field names).

    The text is checked against the form's limits here; the write itself (slug,
    category, audit entry) is `catalog.products`. On an imported product the
    content fields staff change are remembered, so a scheduled import keeps them.
    """
    fields = clean_fields(data, PRODUCT_LIMITS, names=_API_NAMES)
    if product is None:
        return product_create(actor=actor, **fields)
    # a stock sent is set as the inventory sets it (the form sends it only when staff changed it)
    stock = fields.pop("stock", None)
    with transaction.atomic():
        # what this edit changes is judged against the product under its row lock, held to the end of this
        # transaction (product_update takes it again): the request's read may be stale, a scheduled import or
        # another member of staff having written since, and a field the edit writes back would go unmarked
        locked = Product.objects.select_for_update().filter(pk=product.pk).first()
        if locked is None:  # deleted by another member of staff since this request read it
            raise ShopError(_("Product not found"), status=404)
        edited = [name for name, value in fields.items() if getattr(locked, name, value) != value]
        product = product_update(actor=actor, product=locked, **fields)
        if stock is not None:
            stock_adjust(actor=actor, product=product, action=StockAction.SET, amount=stock)
        if product.source_url:
            staff_edits_record(product=product, fields=edited)
    return product


def product_delete(*, actor, product):
    with transaction.atomic():
        title, pk = product.title_en, product.pk
        product.delete()
        audit_record(actor=actor, action="product.delete", details=f"{title} (#{pk})")


def product_delete_all(*, actor):
    with transaction.atomic():
        # delete() counts every row it took (reviews, prices, stock alerts…): staff deleted products
        _rows, by_model = Product.objects.all().delete()
        count = by_model.get(Product._meta.label, 0)
        audit_record(actor=actor, action="product.delete_all", details=f"{Product._meta.verbose_name_plural}: {count}")
    return count


class StockAction:
    ADD = "add"
    SUBTRACT = "subtract"
    SET = "set"
    ALL = (ADD, SUBTRACT, SET)


def stock_adjust(*, actor, product, action, amount):
    """Add, subtract or set stock in one conditional UPDATE; stock never goes below 0 nor above STOCK_MAX."""
    if action not in StockAction.ALL:
        raise ShopError(_("Action must be add, subtract or set"), field="action")
    if amount < 0:
        raise ShopError(_("Stock must be a whole number of 0 or more"), field="stock")
    if amount > STOCK_MAX:
        raise _stock_too_high()
    expression = {
        StockAction.ADD: F("stock") + amount,
        StockAction.SUBTRACT: Greatest(F("stock") - amount, Value(0)),
        StockAction.SET: Value(amount),
    }[action]
    with transaction.atomic():
        # locked, so the audit's "before" is the stock this change changes: read unlocked, adds at once all
        # saw the same stock and each entry claimed the others' packs too
        before = Product.objects.select_for_update().filter(pk=product.pk).values_list("stock", flat=True).first()
        if before is None:  # deleted by another member of staff since this request read it
            raise ShopError(_("Product not found"), status=404)
        rows = Product.objects.filter(pk=product.pk)
        if action == StockAction.ADD:  # the ceiling is checked in the UPDATE, against the stock it changes
            rows = rows.filter(stock__lte=STOCK_MAX - amount)
        if not rows.update(stock=expression) and action == StockAction.ADD:
            raise _stock_too_high()
        catalog_changed_now_and_on_commit()
        product.refresh_from_db(fields=["stock", "updated_at"])
        staff_stock_record(product=product)
        audit_record(actor=actor, action=f"inventory.{action}",
                     details=f"{product.title_en}: {before} → {product.stock}", target=product)
    return product


def _stock_too_high():
    return ShopError(_("Stock can be at most {max_value}").format(max_value=STOCK_MAX), field="stock")


# --- the rule-based generators (importer/categorize.py, spec 5 and 9) ------------

def category_suggest(*, title, description="", price=None):
    """Suggest a category slug and tags for a product that may not be saved yet."""
    if not (title or "").strip():
        raise ShopError(_("Please enter a product title first"), field="title")
    result = generators.categorize(name=title, description=description or "", price=price)
    return result.category, list(result.tags)


def product_categorize(*, actor, product):
    """Give `product` the generator's category and add its tags."""
    category, tags = category_suggest(title=product.title_en, description=product.description_en or "",
                                      price=product.price_amount)
    merged = list(product.tags or []) + [t for t in tags if t not in (product.tags or [])]
    return product_save(actor=actor, product=product, data={"category": category, "tags": merged})


def product_describe(*, actor, product):
    """Write both language descriptions with the rule-based generator."""
    texts = {
        f"description_{lang}": generators.describe(name=getattr(product, f"title_{lang}") or product.title_en,
                                                  category=product.category.slug,
                                                  price=product.price_amount, language=lang)
        for lang in ("en", "ar")
    }
    return product_save(actor=actor, product=product, data=texts)


# --- images -----------------------------------------------------------------------

def image_upload(*, actor, upload):
    """Keep an uploaded product image under media/products/ and return its URL."""
    url = image_save(upload, stem=Path(upload.name or "image").stem)
    audit_record(actor=actor, action="product.image_upload", details=url.removeprefix(settings.MEDIA_URL))
    return url
