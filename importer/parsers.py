"""Read products and links out of the producer's pages. Pure: no I/O, no database.

Best source first: schema.org Product in JSON-LD (including @graph and
AggregateOffer) or microdata; a platform feed (WooCommerce Store API, Shopify
products.json); then heuristics over product cards and product pages, with the
spec's fallback price regex when a card has no price element.
"""

import json
import re
from copy import deepcopy
from dataclasses import dataclass, field
from decimal import Decimal
from html import unescape
from urllib.parse import parse_qs, urljoin, urlsplit, urlunsplit

from lxml import etree
from lxml import html as lxml_html

from shop.money import to_decimal
from shop.validation import id_parse, typed_text, western_digits

# How trustworthy a record is: a better rank replaces a worse one for the same URL.
RANK_STRUCTURED, RANK_FEED, RANK_PAGE, RANK_CARD = 1, 2, 3, 4

CURRENCY = re.compile(r"K\s?Shs?\.?|KES|Ksh", re.I)
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# ASCII digits only (re.ASCII; Eastern Arabic ones are made 0-9 first): Python's \d also takes other
# scripts' digits, which Decimal() reads as a price
PLAIN_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?", re.I | re.ASCII)
NUMBER = re.compile(r"\d{1,3}(?:[,\s]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?", re.ASCII)
# The spec's fallback: a currency mark, then a 2–3 digit leading number with
# optional thousands separators (plus 1-digit groups like "1,250").
FALLBACK_PRICE = re.compile(
    r"(?:K\s?Shs?|KES)\.?\s*(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d{2,3}(?:\.\d{1,2})?)(?![\d,])", re.I | re.ASCII
)
# /page/2/, ?paged=2, ?page=2, ?product-page=2, and the block themes' ?query-0-page=2
PAGINATION = re.compile(r"/page/(\d+)/?$|[?&](?:paged|page|product-page|query-\d+-page)=(\d+)")
MAX_PAGE_NUMBER = 5
ACTION_PARAMS = {"add-to-cart", "add_to_wishlist", "remove_item", "orderby", "filter", "min_price",
                 "max_price", "replytocom", "action", "wc-ajax", "s", "share"}
ACTION_PATHS = ("/cart", "/checkout", "/my-account", "/wp-login", "/wp-admin", "/login", "/feed",
                "/wishlist", "/compare", "/xmlrpc", "/comments")
IMAGE_ATTRS = ("data-large_image", "data-src", "data-lazy-src", "data-original", "src")


@dataclass
class ParsedProduct:
    name: str
    price: Decimal | None
    original_price: Decimal | None = None
    currency: str = "KES"
    image: str = ""
    description: str = ""
    source_url: str = ""
    category: str = ""  # the producer's category slug, when the page says
    rank: int = RANK_CARD
    in_stock: bool | None = None  # None: the page does not say

    def merge(self, other):
        """Keep the better-ranked record, filling its gaps from the other one."""
        best, rest = (self, other) if self.rank <= other.rank else (other, self)
        for name in ("price", "original_price", "image", "description", "category"):
            if not getattr(best, name) and getattr(rest, name):
                setattr(best, name, getattr(rest, name))
        if best.in_stock is None:
            best.in_stock = rest.in_stock
        return best


@dataclass
class ParsedPage:
    products: list = field(default_factory=list)
    categories: list = field(default_factory=list)  # category listing URLs
    pagination: list = field(default_factory=list)  # further pages of this listing (≤ 5)
    product_links: list = field(default_factory=list)  # product pages linked from cards


# -- small readers ------------------------------------------------------------


def clean_text(value):
    """Collapse whitespace and drop tags from a fragment of text or HTML, read as typed text (no direction
    controls, which would reverse what follows a name on the dashboard, in e-mails and invoices)."""
    if not value:
        return ""
    value = str(value)
    if "<" in value:
        try:
            value = lxml_html.fromstring(f"<div>{value}</div>").text_content()
        except (etree.ParserError, ValueError):
            value = re.sub(r"<[^>]+>", " ", value)
    value = CONTROL.sub("", typed_text(unescape(value)))  # JSON can carry NUL, which PostgreSQL text cannot hold
    return re.sub(r"\s+", " ", value).strip()


def parse_price(value):
    """Read a KES price: 'KSh 1,250.00', 'KShs73.00', 'KES 350', ranges → the low end."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float, Decimal)):
        number = to_decimal(value)
    else:
        text = CURRENCY.sub(" ", western_digits(str(value)).replace("\xa0", " ").replace("\u2212", "-"))
        # a bare number ("350", "-250", "1e30", JSON-LD's strings) is that number; else the first amount
        number = to_decimal(text) if PLAIN_NUMBER.fullmatch(text.strip()) else None
        if number is None:
            match = NUMBER.search(text)
            if not match or text[:match.start()].rstrip().endswith("-"):  # "KSh -250": negative, no price
                return None
            number = to_decimal(re.sub(r"[,\s]", "", match.group(0)))
    return number if number is not None and number > 0 else None


def fallback_price(text):
    match = FALLBACK_PRICE.search(western_digits(text).replace("\xa0", " "))
    return parse_price(match.group(1)) if match else None


def absolute_url(page_url, link):
    """Resolve a link against the page; protocol-relative links take the page's scheme."""
    link = re.sub(r"[\t\n\r]", "", link or "").strip()  # as browsers read an href
    if not link or CONTROL.search(link) or link.startswith(("data:", "javascript:", "mailto:", "tel:", "#")):
        return ""
    return urljoin(page_url, link)


SRCSET_MAX_WIDTH = 1000  # px: enough for the product page, far below the picture cap
TRACKING_PARAMS = re.compile(r"^(?:utm_\w+|_pos|_sid|_ss|_psq|_v|fbclid|gclid|srsltid|mc_cid|mc_eid)$")


def canonical_url(url):
    """One spelling per page: no fragment, lower-case host, no trailing `?`, no tracking
    parameters (`utm_*`, Shopify search's `_pos`/`_sid`/`_ss`, click ids)."""
    parts = urlsplit(url)
    query = parts.query
    if query:
        pairs = [p for p in query.split("&") if p and not TRACKING_PARAMS.match(p.split("=", 1)[0])]
        query = "&".join(pairs)
    return urlunsplit((parts.scheme, parts.netloc.lower(), parts.path or "/", query, ""))


def is_action_link(url):
    """Add-to-cart, account, cart and sorting links are never followed."""
    parts = urlsplit(url)
    if set(parse_qs(parts.query, keep_blank_values=True)) & ACTION_PARAMS:
        return True
    path = parts.path.lower()
    return any(path == p or path.startswith(p + "/") or path.startswith(p + ".") for p in ACTION_PATHS)


def category_slug(url):
    """The producer's category slug in a listing URL, or ''."""
    match = re.search(r"/(?:product-category|category|collections)/([^/?#]+)", urlsplit(url).path)
    return match.group(1).lower() if match else ""


def page_number(url):
    match = PAGINATION.search(urlsplit(url).path + ("?" + urlsplit(url).query if urlsplit(url).query else ""))
    if not match:
        return 1
    number = match.group(1) or match.group(2)
    return int(number) if len(number) <= 9 else MAX_PAGE_NUMBER + 1  # int() refuses past 4300 digits


def _looks_like_product_link(url):
    path = urlsplit(url).path
    return bool(re.search(r"/(?:product|products|shop/p)/[^/]+/?$", path))


def _image_of(el, page_url):
    for attr in IMAGE_ATTRS:
        value = el.get(attr)
        if value and not value.startswith("data:"):
            return absolute_url(page_url, value)
    srcset = el.get("srcset") or el.get("data-srcset")
    if srcset:
        return absolute_url(page_url, srcset_best(srcset))
    return ""


def srcset_best(srcset, *, widest=SRCSET_MAX_WIDTH):
    """A srcset's candidate for a product picture: the widest up to `widest` pixels
    (`url 360w, url 720w`; `2x` counts as 2), else the narrowest above it."""
    candidates = []
    for candidate in srcset.split(","):
        bits = candidate.split()
        if not bits:
            continue
        size = 0.0
        if len(bits) > 1 and re.fullmatch(r"\d+(?:\.\d+)?[wx]", bits[1]):
            size = float(bits[1][:-1])
        candidates.append((size, bits[0]))
    if not candidates:
        return ""
    within = [c for c in candidates if c[0] <= widest]
    return max(within, key=lambda c: c[0])[1] if within else min(candidates, key=lambda c: c[0])[1]


def _price_from_element(el):
    """Current and original price of a price element.

    A struck-through price (`del`, `s`, `strike`: WooCommerce classic and block
    themes, Shopify themes) is the original; `ins`, else what is left, the current.
    """
    el = deepcopy(el)
    for hidden in el.xpath('.//*[contains(concat(" ", normalize-space(@class), " "), " screen-reader-text ")]'):
        hidden.drop_tree()
    struck = el.xpath(".//del | .//s | .//strike")
    original = next((p for p in (parse_price(old.text_content()) for old in struck) if p), None)
    ins = el.xpath(".//ins")
    if ins:
        return parse_price(ins[0].text_content()), original
    for old in struck:
        if old.getparent() is not None:
            old.drop_tree()
    return parse_price(el.text_content()), original


OUT_OF_STOCK_TEXT = re.compile(r"\b(?:out of stock|sold out|unavailable)\b", re.I)
OUT_OF_STOCK_CLASSES = ("outofstock", "out-of-stock", "sold-out", "soldout")


def availability(value):
    """In stock per a schema.org availability ('https://schema.org/OutOfStock' → False), or None."""
    value = str(value or "").rsplit("/", 1)[-1].lower()
    if value in ("outofstock", "soldout", "discontinued"):
        return False
    if value in ("instock", "limitedavailability", "onlineonly", "instoreonly", "preorder", "backorder"):
        return True
    return None


def _stock_of(el):
    """False when a card or product summary is marked out of stock (class or badge), else None."""
    classes = " ".join(el.xpath("./@class | .//@class")).lower()
    if any(token in classes.split() for token in OUT_OF_STOCK_CLASSES):
        return False
    for badge in el.xpath('.//*[contains(@class, "stock") or contains(@class, "badge") or contains(@class, "label")]'):
        if OUT_OF_STOCK_TEXT.search(badge.text_content()):
            return False
    return None


def _first(el, xpaths):
    for xpath in xpaths:
        found = el.xpath(xpath)
        if found:
            return found[0]
    return None


def _class_has(name):
    return f'contains(concat(" ", normalize-space(@class), " "), " {name} ")'


# -- structured data ------------------------------------------------------------


def _types(node):
    kind = node.get("@type", "")
    return {str(k).rsplit("/", 1)[-1] for k in (kind if isinstance(kind, list) else [kind])}


def _walk_jsonld(data):
    if isinstance(data, list):
        for item in data:
            yield from _walk_jsonld(item)
    elif isinstance(data, dict):
        if "@graph" in data:
            yield from _walk_jsonld(data["@graph"])
        kinds = _types(data)
        variants = data.get("hasVariant") if "ProductGroup" in kinds else None
        if variants:  # a ProductGroup: each variant (100 g, 250 g) is a product of its own
            for variant in variants if isinstance(variants, list) else [variants]:
                if isinstance(variant, dict):
                    yield {"image": data.get("image"), "description": data.get("description"), **variant}
        elif "Product" in kinds or "ProductGroup" in kinds:
            yield data
        elif "ItemList" in kinds:
            for element in data.get("itemListElement") or []:
                if isinstance(element, dict):
                    yield from _walk_jsonld(element.get("item", element))


def _offer_price(offers):
    """(price, original price, currency) of an Offer, a list of them, or an AggregateOffer (low end).

    The original is a StrikethroughPrice or ListPrice price specification (the
    schema.org way to mark a sale)."""
    for offer in offers if isinstance(offers, list) else [offers]:
        if not isinstance(offer, dict):
            continue
        currency = str(offer.get("priceCurrency") or "KES").upper()
        price = parse_price(offer.get("price")) or parse_price(offer.get("lowPrice"))
        original = None
        specs = offer.get("priceSpecification") or []
        for spec in specs if isinstance(specs, list) else [specs]:
            if not isinstance(spec, dict) or not parse_price(spec.get("price")):
                continue
            if str(spec.get("priceType") or "").endswith(("StrikethroughPrice", "ListPrice")):
                original = original or parse_price(spec.get("price"))
            elif not price:
                price = parse_price(spec.get("price"))
                currency = str(spec.get("priceCurrency") or currency).upper()
        if price:
            return price, original, currency
    return None, None, "KES"


def _offers_in_stock(offers):
    states = [availability(o.get("availability")) for o in (offers if isinstance(offers, list) else [offers])
              if isinstance(o, dict)]
    known = [state for state in states if state is not None]
    return any(known) if known else None


def _jsonld_image(image):
    if isinstance(image, list):
        image = image[0] if image else ""
    if isinstance(image, dict):
        image = image.get("url") or image.get("contentUrl") or ""
    return str(image or "")


def _jsonld_products(doc, page_url):
    products = []
    for script in doc.xpath('//script[contains(@type, "ld+json")]'):
        raw = (script.text or "").strip()
        raw = re.sub(r"^\s*(<!--|/\*<!\[CDATA\[\*/)|(-->|/\*\]\]>\*/)\s*$", "", raw)
        try:
            data = json.loads(raw)
        except ValueError:
            continue
        for node in _walk_jsonld(data):
            price, original, currency = _offer_price(node.get("offers") or {})
            name = clean_text(node.get("name"))
            if not name:
                continue
            products.append(ParsedProduct(
                name=name, price=price, original_price=original, currency=currency,
                in_stock=_offers_in_stock(node.get("offers") or {}),
                image=absolute_url(page_url, _jsonld_image(node.get("image"))),
                description=clean_text(node.get("description")),
                source_url=canonical_url(absolute_url(page_url, node.get("url") or "") or page_url),
                rank=RANK_STRUCTURED,
            ))
    return products


def _microdata_products(doc, page_url):
    products = []
    for scope in doc.xpath('//*[@itemscope and contains(@itemtype, "schema.org/Product")]'):
        def prop(name, scope=scope):
            found = scope.xpath(f'.//*[@itemprop="{name}"]')
            if not found:
                return ""
            el = found[0]
            return el.get("content") or el.get("href") or el.get("src") or el.text_content()

        name = clean_text(prop("name"))
        if not name:
            continue
        link = prop("url")
        products.append(ParsedProduct(
            name=name, price=parse_price(prop("price")),
            currency=(clean_text(prop("priceCurrency")) or "KES").upper(),
            in_stock=availability(prop("availability")),
            image=absolute_url(page_url, prop("image")), description=clean_text(prop("description")),
            source_url=canonical_url(absolute_url(page_url, link) if link else page_url),
            rank=RANK_STRUCTURED,
        ))
    return products


# -- HTML heuristics -----------------------------------------------------------

CARD_XPATH = (
    f'//li[{_class_has("product")}] | //div[{_class_has("product")} and {_class_has("type-product")}]'
    f' | //*[{_class_has("product-card")} or {_class_has("product-item")} or {_class_has("grid-product")}'
    f' or {_class_has("product-card-wrapper")}]'  # Shopify's Dawn-style themes
)
NAME_XPATHS = [
    f'.//*[{_class_has("woocommerce-loop-product__title")}]', f'.//*[{_class_has("product-title")}]',
    f'.//*[{_class_has("product-name")}]', './/*[@itemprop="name"]', ".//h2", ".//h3", ".//h4",
]
PRICE_XPATHS = [f'.//*[{_class_has("price")}]', f'.//*[{_class_has("wc-block-components-product-price")}]',
                f'.//*[{_class_has("amount")}]', './/*[@itemprop="price"]',
                 './/*[contains(@class, "price")]']


def _cards(doc, page_url):
    cards = doc.xpath(CARD_XPATH)
    # an outer wrapper that holds other cards is a grid, not a card
    inner = [c for c in cards if not any(o is not c and o in c.iterdescendants() for o in cards)]
    # the main product of a product page is not a card of another product
    inner = [c for c in inner if not c.xpath(f'.//h1 | .//*[{_class_has("summary")}]')]
    products = []
    for card in inner:
        link = ""
        for anchor in card.xpath(".//a[@href]"):
            href = absolute_url(page_url, anchor.get("href"))
            if href and not is_action_link(href):
                link = canonical_url(href)
                break
        name_el = _first(card, NAME_XPATHS)
        name = clean_text(name_el.text_content()) if name_el is not None else ""
        image_el = _first(card, [".//img"])
        if not name and image_el is not None:
            name = clean_text(image_el.get("alt"))
        if not name:
            continue
        price_el = _first(card, PRICE_XPATHS)
        price, original = _price_from_element(price_el) if price_el is not None else (None, None)
        if price is None:
            price = fallback_price(card.text_content())
        own_classes = (card.get("class") or "").split()
        products.append(ParsedProduct(
            name=name, price=price, original_price=original,
            image=_image_of(image_el, page_url) if image_el is not None else "",
            source_url=link or f"{canonical_url(page_url)}#{re.sub(r'[^a-z0-9]+', '-', name.lower())}",
            category=category_slug(page_url), rank=RANK_CARD,
            in_stock=_stock_of(card) if _stock_of(card) is not None else (True if "instock" in own_classes else None),
        ))
    return products


def _generic_cards(doc, page_url):
    """A plain catalogue without a shop platform's classes: the innermost blocks (article,
    list item, div, table row) that hold one heading (or a first cell) and a price with a
    currency mark."""
    blocks = []
    for el in doc.xpath("//article | //li | //div | //tr"):
        if el.xpath(".//h1") or not fallback_price(el.text_content()):
            continue
        headings = el.xpath(".//h2 | .//h3 | .//h4") if el.tag != "tr" else el.xpath("./td[1] | ./th[1]")
        if len(headings) == 1:
            blocks.append((el, headings[0]))
    inner = [(el, h) for el, h in blocks if not any(o is not el and o in el.iterdescendants() for o, _h in blocks)]
    products = []
    for block, heading in inner:
        name = clean_text(heading.text_content())
        link = _first(block, [".//a[@href]"])
        href = absolute_url(page_url, link.get("href")) if link is not None else ""
        image_el = _first(block, [".//img"])
        price_el = _first(block, PRICE_XPATHS)
        price, original = _price_from_element(price_el) if price_el is not None else (None, None)
        if price is None:  # no price element: a currency-marked amount, struck ones being the original
            rest = deepcopy(block)
            struck = rest.xpath(".//del | .//s | .//strike")
            original = next((p for p in (parse_price(el.text_content()) for el in struck) if p), None)
            for el in struck:
                if el.getparent() is not None:
                    el.drop_tree()
            price = fallback_price(rest.text_content())
        products.append(ParsedProduct(
            name=name, price=price, original_price=original,
            image=_image_of(image_el, page_url) if image_el is not None else "",
            source_url=canonical_url(href) if href and not is_action_link(href)
            else f"{canonical_url(page_url)}#{re.sub(r'[^a-z0-9]+', '-', name.lower())}",
            category=category_slug(page_url), rank=RANK_CARD, in_stock=_stock_of(block),
        ))
    return products


def _is_product_page(doc):
    body_class = " ".join(doc.xpath("//body/@class"))
    return bool(
        "single-product" in body_class
        or doc.xpath(f'//*[{_class_has("product_title")}]')
        or doc.xpath(f'//*[{_class_has("single-tea-name")}]')
        or doc.xpath('//meta[@property="og:type" and @content="product"]')
    )


def _product_page(doc, page_url):
    name_el = _first(doc, [f'//*[{_class_has("product_title")}]', f'//*[{_class_has("single-tea-name")}]//h1',
                           f'//*[{_class_has("single-tea-name")}]', "//h1"])
    name = clean_text(name_el.text_content()) if name_el is not None else ""
    if not name:
        return None
    summary = _first(doc, [f'//*[{_class_has("summary")}]', f'//*[{_class_has("single-tea-name")}]',
                           "//main", "//body"])
    price_el = (_first(summary, [f'.//p[{_class_has("price")}]', f'.//*[{_class_has("price")}]'])
                if summary is not None else None)
    price, original = _price_from_element(price_el) if price_el is not None else (None, None)
    if price is None and summary is not None:
        price = fallback_price(summary.text_content())
    in_stock = None
    wrapper = name_el.xpath(f'ancestor::*[{_class_has("product")}][1]')  # WooCommerce marks it instock/outofstock
    if wrapper and "outofstock" in (wrapper[0].get("class") or "").split():
        in_stock = False
    elif summary is not None and summary.tag not in ("main", "body"):
        in_stock = _stock_of(summary)
    image = ""
    gallery = _first(doc, ['//*[contains(@class, "woocommerce-product-gallery")]//img',
                           f'//*[{_class_has("single-tea-image")}]//img'])
    if gallery is not None:
        image = _image_of(gallery, page_url)
    if not image:
        og = doc.xpath('//meta[@property="og:image"]/@content')
        image = absolute_url(page_url, og[0]) if og else ""
    desc_el = _first(doc, [f'//*[{_class_has("woocommerce-product-details__short-description")}]',
                           f'//*[{_class_has("single-tea-description")}]', '//*[@id="tab-description"]'])
    description = clean_text(desc_el.text_content()) if desc_el is not None else ""
    if not description:
        meta = doc.xpath('//meta[@name="description"]/@content | //meta[@property="og:description"]/@content')
        description = clean_text(meta[0]) if meta else ""
    return ParsedProduct(name=name, price=price, original_price=original, image=image, in_stock=in_stock,
                         description=description, source_url=canonical_url(page_url), rank=RANK_PAGE)


LOAD_MORE_ATTRS = ("data-next-url", "data-next", "data-url", "data-href", "href")


def _same_site_page(page_url, link, result):
    """Add a further page of this listing (≤ page 5) when `link` is one on this site."""
    url = absolute_url(page_url, link)
    if not url or urlsplit(url).netloc.lower() != urlsplit(page_url).netloc.lower() or is_action_link(url):
        return
    url = canonical_url(url)
    if page_number(url) <= MAX_PAGE_NUMBER and url not in result.pagination:
        result.pagination.append(url)


def _links(doc, page_url, result):
    here = urlsplit(page_url)
    seen = set()
    # a "Load more" button names the next batch (HTML or JSON) in a data attribute
    for button in doc.xpath('//*[contains(@class, "load-more") or contains(@class, "loadmore")]'):
        link = next((button.get(attr) for attr in LOAD_MORE_ATTRS if button.get(attr)), "")
        if link:
            _same_site_page(page_url, link, result)
    for href in doc.xpath("//a/@href"):
        url = absolute_url(page_url, href)
        if not url or url in seen:
            continue
        seen.add(url)
        parts = urlsplit(url)
        if parts.netloc.lower() != here.netloc.lower() or is_action_link(url):
            continue
        url = canonical_url(url)
        number = page_number(url)
        if number > 1:
            if number <= MAX_PAGE_NUMBER and url not in result.pagination:
                result.pagination.append(url)
        elif category_slug(url):
            result.categories.append(url)
        elif _looks_like_product_link(url):
            result.product_links.append(url)


def _complete(structured, page):
    """Fill a page's structured record from its HTML: structured data rarely carries the
    struck-through price, and may give the original price as the price."""
    if page.original_price and structured.price in (None, page.original_price) and page.price:
        structured.price = page.price
    structured.merge(page)


def parse_page(text, page_url):
    """Products and links on one HTML page. Malformed HTML gives what can be read."""
    result = ParsedPage()
    if not text or not text.strip():
        return result
    try:
        # the text is decoded already (fetch.decode_body): lxml must not decode it again
        # by the page's own <meta charset>, which would garble every accent
        data = text.encode("utf-8", errors="replace") if isinstance(text, str) else text
        doc = lxml_html.fromstring(data, parser=lxml_html.HTMLParser(encoding="utf-8"))
    except (etree.ParserError, ValueError):
        return result
    structured = _jsonld_products(doc, page_url) or _microdata_products(doc, page_url)
    result.products.extend(structured)
    product = _product_page(doc, page_url) if _is_product_page(doc) else None
    if product and len(structured) == 1:
        _complete(structured[0], product)
    elif product and not structured:
        result.products.append(product)
    cards = _cards(doc, page_url)
    if not cards and not result.products:
        cards = _generic_cards(doc, page_url)
    result.products.extend(cards)
    _links(doc, page_url, result)
    return result


# -- platform feeds ------------------------------------------------------------

LOAD_MORE_HTML = ("html", "content", "products_html", "items_html")
LOAD_MORE_NEXT = ("next", "next_url", "nextUrl", "next_page_url", "nextPage")


def parse_load_more(data, page_url):
    """A "load more" answer: JSON with the next batch as an HTML fragment (or a list of
    product records) and the URL of the batch after it."""
    result = ParsedPage()
    if not isinstance(data, dict):
        return result
    fragment = next((data[key] for key in LOAD_MORE_HTML if isinstance(data.get(key), str)), "")
    if fragment.strip():
        parsed = parse_page(f"<html><body><ul>{fragment}</ul></body></html>", page_url)
        result.products.extend(parsed.products)
        result.product_links.extend(parsed.product_links)
    for item in data.get("products") if isinstance(data.get("products"), list) else []:
        if isinstance(item, dict) and clean_text(item.get("name") or item.get("title")):
            link = absolute_url(page_url, item.get("url") or item.get("permalink") or "")
            result.products.append(ParsedProduct(
                name=clean_text(item.get("name") or item.get("title")), price=parse_price(item.get("price")),
                original_price=parse_price(item.get("regular_price") or item.get("compare_at_price")),
                image=absolute_url(page_url, str(item.get("image") or "")),
                source_url=canonical_url(link) if link else "", category=category_slug(page_url),
                rank=RANK_FEED, in_stock=item.get("in_stock") if isinstance(item.get("in_stock"), bool) else None,
            ))
    result.products = [p for p in result.products if p.source_url]
    next_url = next((data[key] for key in LOAD_MORE_NEXT if isinstance(data.get(key), str) and data[key]), "")
    if next_url:
        _same_site_page(page_url, next_url, result)
    return result



def _minor_unit(value):
    """A Store API currency_minor_unit (0 to 4 decimal places, ISO 4217's range; missing means 0), or None."""
    if value is None or value == "":
        return 0
    # ASCII digits only: str.isdigit() also took "²", which int() refused, failing the whole page
    number = id_parse(str(value).strip()) if isinstance(value, (int, str)) and not isinstance(value, bool) else None
    return number if number is not None and number <= 4 else None


def parse_woocommerce_feed(data, base_url):
    """Products from the WooCommerce Store API (prices are strings in minor units)."""
    products = []
    for item in data if isinstance(data, list) else []:
        if not isinstance(item, dict) or not item.get("name"):
            continue
        prices = item.get("prices") or {}
        if not isinstance(prices, dict):
            continue
        minor = _minor_unit(prices.get("currency_minor_unit"))
        if minor is None:  # its amounts cannot be read: this item is skipped, never the whole page
            continue
        scale = Decimal(10) ** minor

        def amount(key, prices=prices, scale=scale):
            text = western_digits(str(prices.get(key) or ""))
            value = to_decimal(text) if text.isascii() else None  # Decimal() reads other scripts' digits
            return (value / scale) if value and value > 0 else None

        current, regular = amount("price"), amount("regular_price")
        images = item.get("images") or []
        categories = item.get("categories") or []
        products.append(ParsedProduct(
            name=clean_text(item["name"]), price=current,
            original_price=regular if regular and current and regular > current else None,
            currency=str(prices.get("currency_code") or "KES").upper(),
            image=absolute_url(base_url, images[0].get("src")) if images and isinstance(images[0], dict) else "",
            description=clean_text(item.get("short_description") or item.get("description")),
            source_url=canonical_url(absolute_url(base_url, item.get("permalink") or f"/product/{item.get('slug')}/")),
            category=clean_text(categories[0].get("slug")) if categories and isinstance(categories[0], dict) else "",
            rank=RANK_FEED, in_stock=item.get("is_in_stock") if isinstance(item.get("is_in_stock"), bool) else None,
        ))
    return products


def parse_shopify_feed(data, base_url):
    """Products from a Shopify shop's /products.json."""
    products = []
    for item in (data or {}).get("products", []) if isinstance(data, dict) else []:
        if not isinstance(item, dict) or not item.get("title"):
            continue
        variants = [v for v in item.get("variants") or [] if isinstance(v, dict)]
        priced = sorted(((parse_price(v.get("price")), v) for v in variants if parse_price(v.get("price"))),
                        key=lambda pair: pair[0])
        price, cheapest = priced[0] if priced else (None, {})
        images = item.get("images") or []
        products.append(ParsedProduct(
            name=clean_text(item["title"]), price=price,
            original_price=parse_price(cheapest.get("compare_at_price")),  # Shopify's struck-through price
            image=absolute_url(base_url, images[0].get("src")) if images and isinstance(images[0], dict) else "",
            description=clean_text(item.get("body_html")),
            source_url=canonical_url(urljoin(base_url, f"/products/{item.get('handle', '')}")),
            category=clean_text(item.get("product_type")).lower().replace(" ", "-"),
            rank=RANK_FEED,
            in_stock=any(v.get("available") for v in variants) if any("available" in v for v in variants) else None,
        ))
    return products
