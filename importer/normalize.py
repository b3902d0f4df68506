"""Turn parsed records into clean external products (spec 5), then drop duplicates."""

import re
from decimal import Decimal

from importer.categorize import describe
from importer.parsers import ParsedProduct, clean_text
from shop.money import quantize

MIN_NAME, MAX_NAME = 3, 200  # a name must be longer than 3 and shorter than 200 characters
MIN_DESCRIPTION, MAX_DESCRIPTION = 10, 400
GENERATED_NAME = "Tea Product"
FALLBACK_DESCRIPTION = "Premium tea blend"
SIMILAR_PRICE = Decimal("0.20")
# "Earl Grey" is not "Royal Earl Grey": containment only counts when the shorter
# name is most of the longer one (pack-size suffixes and the like).
SIMILAR_LENGTH = 0.7


def normalise(product: ParsedProduct):
    """Return a cleaned copy, or None when it has no name or no price above 0."""
    name = clean_text(product.name)
    if not name or product.price is None or product.price <= 0:
        return None
    if product.currency and product.currency.upper() not in ("KES", "KSH"):
        return None  # the importer converts KES only
    if len(name) >= MAX_NAME:
        name = name[: MAX_NAME - 2].rstrip() + "…"
    elif len(name) <= MIN_NAME:
        name = GENERATED_NAME
    description = clean_text(product.description)
    if len(description) > MIN_DESCRIPTION:
        description = description[:MAX_DESCRIPTION]
    else:
        description = describe(name=name, category=product.category or "speciality-teas") or FALLBACK_DESCRIPTION
    original = product.original_price if product.original_price and product.original_price > product.price else None
    return ParsedProduct(
        name=name, price=quantize(product.price), original_price=quantize(original) if original else None, currency="KES",
        image=product.image, description=description, source_url=product.source_url,
        category=product.category, rank=product.rank,
    )


def _key(name):
    return re.sub(r"[^\w]+", " ", name.lower()).strip()


def is_similar(a, b):
    """Same product under two spellings: names match, or one holds the other at a close price."""
    ka, kb = _key(a.name), _key(b.name)
    if ka == kb:
        return True
    short, long_ = sorted((ka, kb), key=len)
    if short and short in long_ and len(short) / len(long_) >= SIMILAR_LENGTH:
        low, high = sorted((a.price, b.price))
        return (high - low) / high < SIMILAR_PRICE
    return False


def deduplicate(products):
    """Merge records of one product: same source URL first, then similar names."""
    by_url = {}
    for product in products:
        found = by_url.get(product.source_url)
        by_url[product.source_url] = found.merge(product) if found else product
    kept = []
    for product in by_url.values():
        for index, other in enumerate(kept):
            if is_similar(product, other):
                kept[index] = other.merge(product)
                break
        else:
            kept.append(product)
    return kept
