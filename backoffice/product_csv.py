"""Products as CSV: an export re-imported changes nothing (round trip).

Rows are matched by slug. Lists (tags, notes, ingredients, colours, images)
are joined with "|". Text that a spreadsheet would run as a formula gets a
leading apostrophe on export, which import takes off again.
"""

import csv
import io

from django.utils.translation import gettext as _

from backoffice.exports import BOM, FORMULA_START, safe_cell
from backoffice.product_input import ProductInputSerializer
from backoffice.products import product_save
from catalog.models import Product
from catalog.products import product_slug_base
from shop.errors import ShopError
from shop.money import money_text
from shop.validation import typed_text

COLUMNS = ["slug", "title", "title_ar", "short_description", "short_description_ar", "description",
           "description_ar", "brewing_instructions", "brewing_instructions_ar", "price", "sale_price",
           "category", "stock", "caffeine_level", "is_active", "is_featured", "is_new", "tags",
           "flavor_notes", "ingredients", "colors", "images"]
LISTS = {"tags", "flavor_notes", "ingredients", "colors", "images"}
BOOLEANS = {"is_active", "is_featured", "is_new"}
MAX_BYTES = 5 * 1024 * 1024
MAX_ROWS = 5000
_SEPARATOR = "|"


def _unguard(text):
    return text[1:] if text.startswith("'") and text[1:].startswith(FORMULA_START) else text


def _row(product):
    def text(name):
        return getattr(product, name) or ""

    return {
        "slug": product.slug,
        "title": text("title_en"), "title_ar": text("title_ar"),
        "short_description": text("short_description_en"), "short_description_ar": text("short_description_ar"),
        "description": text("description_en"), "description_ar": text("description_ar"),
        "brewing_instructions": text("brewing_instructions_en"),
        "brewing_instructions_ar": text("brewing_instructions_ar"),
        "price": money_text(product.price_amount),
        "sale_price": money_text(product.sale_price_amount) if product.sale_price_amount is not None else "",
        "category": product.category.slug,
        "stock": str(product.stock),
        "caffeine_level": product.caffeine_level,
        **{name: "true" if getattr(product, name) else "false" for name in BOOLEANS},
        **{name: _SEPARATOR.join(str(v) for v in (getattr(product, name) or [])) for name in LISTS},
    }


def products_export(*, products=None):
    """`products` (every product unless given; the dashboard passes the ones its list selects, in its
    order) as CSV text (UTF-8 with BOM so spreadsheets read Arabic)."""
    if products is None:
        products = Product.objects.order_by("pk")
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS)
    writer.writeheader()
    for product in products.select_related("category"):
        writer.writerow({k: safe_cell(v) for k, v in _row(product).items()})
    return BOM + out.getvalue()


def _parse(raw):
    """A CSV row as the admin API's product input (camel-free, before validation)."""
    data = {}
    for name in COLUMNS:
        if name not in raw or raw[name] is None:
            continue
        value = _unguard(raw[name].strip() if name not in LISTS else raw[name])
        if name in LISTS:
            data[name] = [part.strip() for part in value.split(_SEPARATOR) if part.strip()]
        elif name in BOOLEANS:
            data[name] = value.strip().lower() in ("1", "true", "yes")
        elif name == "sale_price":
            data[name] = value or None
        else:
            data[name] = value
    return data


def _changed(product, fields):
    for name, value in fields.items():
        if name == "category":
            if product.category.slug != value:
                return True
        else:
            current = getattr(product, name)
            if isinstance(value, str) and current is None:
                current = ""
            if current != value:
                return True
    return False


def _rows(reader):
    """(row number, row) for each row of `reader`, and (its number, None) for a row it cannot read."""
    number = 1
    while True:
        number += 1
        try:
            yield number, next(reader)
        except StopIteration:
            return
        except csv.Error:
            yield number, None
            return


def _first_message(errors):
    """The first message of a field's errors: a list of them, or, for a list field, errors by position."""
    while not isinstance(errors, str):
        errors = next(iter(errors.values())) if isinstance(errors, dict) else errors[0]
    return str(errors)


def product_csv_import(*, actor, upload):
    """Create or update products from CSV rows; report created/updated/unchanged and row errors."""

    if upload.size > MAX_BYTES:
        raise ShopError(_("The CSV file must be 5 MB or smaller"), field="file")
    try:
        text = upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ShopError(_("The CSV file must be UTF-8 text"), field="file") from None
    text = typed_text(text)  # read as the dashboard's form is: no direction controls, Western digits
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or "title" not in reader.fieldnames:
        raise ShopError(_("The CSV file needs a header row with at least a title column"), field="file")
    report = {"created": 0, "updated": 0, "unchanged": 0, "errors": []}
    existing = {p.slug: p for p in Product.objects.select_related("category")}
    for number, raw in _rows(reader):
        if raw is None:  # a cell past the csv module's size limit, or a broken quote: the rest is unreadable
            report["errors"].append({"row": number, "field": None, "message": _("This row could not be read")})
            break
        if number - 1 > MAX_ROWS:
            report["errors"].append({"row": number, "field": None, "message": _("Too many rows")})
            break
        data = ProductInputSerializer(data=_parse(raw))
        if not data.is_valid():
            field, errors = next(iter(data.errors.items()))
            report["errors"].append({"row": number, "field": field, "message": _first_message(errors)})
            continue
        fields = data.model_fields()
        # the slug cell as creation reads it ("Earl Grey Special" made `earl-grey-special`), so a
        # file imported again updates its products instead of creating `earl-grey-special-2`
        product = existing.get(product_slug_base(fields.get("slug") or "") or None)
        try:
            if product is None:
                product = product_save(actor=actor, data=fields)
                existing[product.slug] = product
                report["created"] += 1
            elif _changed(product, {k: v for k, v in fields.items() if k != "slug"}):
                product_save(actor=actor, product=product, data=fields)
                report["updated"] += 1
            else:
                report["unchanged"] += 1
        except ShopError as exc:
            report["errors"].append({"row": number, "field": exc.field, "message": exc.message})
    return report
