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
# the price columns hold 12 digits, 2 after the point: a larger amount is nonsense on the page, and one
# such record would make PostgreSQL refuse the whole crawl's products
PRICE_LIMIT = Decimal("10000000000")
# "Earl Grey" is not "Royal Earl Grey": containment only counts when the shorter
# name is most of the longer one (pack-size suffixes and the like).
SIMILAR_LENGTH = 0.7


def normalise(product: ParsedProduct):
    """Return a cleaned copy, or None when it has no name or no price above 0."""
    name = clean_text(product.name)
    price = _price(product.price)
    if not name or price is None:
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
    original = _price(product.original_price)
    return ParsedProduct(
        name=name, price=price, original_price=original if original is not None and original > price else None,
        currency="KES",
        image=product.image, description=description, source_url=product.source_url,
        category=product.category, rank=product.rank, in_stock=product.in_stock is not False,
    )


def _price(amount):
    """An amount to piasters, or None when there is none, it rounds to 0 or the price columns cannot hold it."""
    if amount is None or not amount > 0:
        return None
    amount = quantize(amount) if amount < PRICE_LIMIT else None
    return amount if amount and amount < PRICE_LIMIT else None


def _key(name):
    return re.sub(r"[^\w]+", " ", name.lower()).strip()


def is_similar(a, b):
    """Same product under two spellings, at a close price: names match, or one holds the other's words."""
    return _similar(_key(a.name), a.price, _key(b.name), b.price)


def _similar(ka, pa, kb, pb):
    # a close price first: one name at two prices on two pages is two packs ("Hangover Tea", 25 and 100 bags)
    low, high = sorted((pa, pb))
    if (high - low) / high >= SIMILAR_PRICE:
        return False
    if ka == kb:
        return True
    short, long_ = (ka, kb) if len(ka) <= len(kb) else (kb, ka)
    # cheap length test first: this runs for every pair of a large catalogue; whole words only ("blend 1"
    # is not in "blend 10")
    return bool(short) and len(short) >= SIMILAR_LENGTH * len(long_) and f" {short} " in f" {long_} "


def deduplicate(products):
    """Merge records of one product: same source URL first, then similar names."""
    by_url = {}
    for product in products:
        found = by_url.get(product.source_url)
        by_url[product.source_url] = found.merge(product) if found else product
    kept, keys, exact = [], [], {}
    for product in by_url.values():
        key = _key(product.name)
        # the same name is looked up at once (most duplicates), then any similar one
        index = next((i for i in exact.get(key, ()) if _similar(key, product.price, *keys[i])), None)
        if index is None:
            index = next((i for i, (k, price) in enumerate(keys) if _similar(key, product.price, k, price)), None)
        if index is None:
            exact.setdefault(key, []).append(len(kept))
            kept.append(product)
            keys.append((key, product.price))
        else:
            kept[index] = kept[index].merge(product)
    return kept
