"""Reading products out of producer pages: structured data first, then heuristics."""

import json
from decimal import Decimal

import pytest

from importer.normalize import deduplicate, normalise
from importer.parsers import (
    ParsedProduct,
    is_action_link,
    page_number,
    parse_page,
    parse_price,
    parse_shopify_feed,
    parse_woocommerce_feed,
)
from importer.tests.fake_site import card, listing, product_page, woo_price

BASE = "https://shop.example.co.ke"


@pytest.mark.parametrize("text, expected", [
    ("KSh 1,250.00", "1250.00"), ("KShs73.00", "73.00"), ("KES 350", "350"), ("Ksh\xa0180.00", "180.00"),
    ("KSh 250.00 – KSh 700.00", "250.00"), ("1 250", "1250"), ("Ksh. 99", "99"),
])
def test_it_reads_kenyan_prices(text, expected):
    assert parse_price(text) == Decimal(expected)


@pytest.mark.parametrize("text", ["", None, "Call for price", "KSh 0.00", "free"])
def test_it_reads_no_price_from_text_without_one(text):
    assert parse_price(text) is None


def test_it_reads_the_sale_price_and_keeps_the_original_ignoring_screen_reader_text():
    # given WooCommerce 8 sale markup
    html = listing([card("Blend", "/product/blend/", price_html=(
        f'<del aria-hidden="true">{woo_price("18,995.00")}</del>'
        '<span class="screen-reader-text">Original price was: KSh18,995.00.</span>'
        f'<ins aria-hidden="true">{woo_price("14,995.00")}</ins>'
        '<span class="screen-reader-text">Current price is: KSh14,995.00.</span>'))])
    # when
    [product] = parse_page(html, BASE + "/shop/").products
    # then
    assert (product.price, product.original_price) == (Decimal("14995.00"), Decimal("18995.00"))


def test_it_prefers_json_ld_in_a_graph_with_an_aggregate_offer():
    # given
    data = {"@context": "https://schema.org/", "@graph": [
        {"@type": "WebPage", "name": "page"},
        {"@type": "Product", "name": "Purple Tea", "image": {"url": "/img/purple.png"},
         "description": "<p>Antioxidant-rich purple tea.</p>",
         "offers": {"@type": "AggregateOffer", "lowPrice": "250.00", "highPrice": "700.00", "priceCurrency": "KES"}}]}
    html = product_page("Purple Tea (page title)", price_html=woo_price("999.00"), image="/other.png",
                        description="other", jsonld=data)
    # when
    products = parse_page(html, BASE + "/product/purple-tea/").products
    # then the structured record comes first and wins
    best = products[0]
    assert (best.name, best.price, best.image, best.description) == (
        "Purple Tea", Decimal("250.00"), BASE + "/img/purple.png", "Antioxidant-rich purple tea.")
    assert best.source_url == BASE + "/product/purple-tea/"


def test_it_reads_a_product_page_without_structured_data():
    # given
    html = product_page("Love Tea", price_html=woo_price("280.00"), image="//cdn.example.com/love.png",
                        description="A rosy blend.")
    # when
    [product] = parse_page(html, BASE + "/product/love-tea/").products
    # then protocol-relative images take the page's scheme
    assert (product.name, product.price, product.image, product.description) == (
        "Love Tea", Decimal("280.00"), "https://cdn.example.com/love.png", "A rosy blend.")


def test_it_reads_microdata():
    html = ('<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Rooibos</h1>'
            '<meta itemprop="price" content="410.00"><img itemprop="image" src="r.png"></div>')
    [product] = parse_page(html, BASE + "/product/rooibos/").products
    assert (product.name, product.price, product.image) == ("Rooibos", Decimal("410.00"),
                                                            BASE + "/product/rooibos/r.png")


def test_it_finds_categories_pagination_and_product_links_but_never_action_links():
    # given
    html = listing([card("Chai", "/product/chai/", add_to_cart=12)], next_url="/product-category/black-tea/page/2/",
                   extra='<a href="/product-category/green-tea/">Green</a><a href="/shop/page/9/">9</a>'
                         '<a href="/shop/?paged=3">3</a><a href="https://other.example/product-category/x/">x</a>'
                         '<a href="/cart/">cart</a><a href="/shop/?orderby=price">sort</a>')
    # when
    parsed = parse_page(html, BASE + "/product-category/black-tea/")
    # then
    assert parsed.categories == [BASE + "/product-category/green-tea/"]
    assert parsed.pagination == [BASE + "/product-category/black-tea/page/2/", BASE + "/shop/?paged=3"]
    assert parsed.products[0].source_url == BASE + "/product/chai/"
    assert parsed.products[0].category == "black-tea"
    assert is_action_link(BASE + "/shop/?add-to-cart=12") and is_action_link(BASE + "/my-account/")


def test_it_uses_the_fallback_regex_when_a_card_has_no_price_element():
    html = ('<ul><li class="product"><a href="/product/x/"><h3>Kenya Gold Chai</h3></a>'
            '<p>25 tea bags — now only KSh 1,180.00 each pack</p></li></ul>')
    [product] = parse_page(html, BASE + "/").products
    assert product.price == Decimal("1180.00")


def test_it_survives_malformed_html_and_empty_pages():
    assert parse_page("<html><li class='product'><h2>Broken <b>tea", BASE).products[0].price is None
    assert parse_page("", BASE).products == []
    assert parse_page("\x00\x01garbage", BASE).products == []


def test_it_reads_the_woocommerce_store_api_feed_in_minor_units():
    data = [{"id": 1, "name": "Hangover Tea", "slug": "hangover-tea", "permalink": BASE + "/product/hangover-tea/",
             "short_description": "<p>Green tea, ginger and mint.</p>",
             "prices": {"price": "30000", "regular_price": "35000", "currency_code": "KES", "currency_minor_unit": 2},
             "images": [{"src": BASE + "/h.png"}], "categories": [{"slug": "attitude-teas"}]}]
    [product] = parse_woocommerce_feed(data, BASE)
    assert (product.price, product.original_price, product.category, product.description) == (
        Decimal("300"), Decimal("350"), "attitude-teas", "Green tea, ginger and mint.")


def test_it_reads_a_shopify_products_feed():
    data = json.loads('{"products":[{"title":"Chai","handle":"chai","body_html":"<b>Spiced</b> tea",'
                      '"variants":[{"price":"450.00"},{"price":"350.00"}],"images":[{"src":"//cdn.x/c.png"}]}]}')
    [product] = parse_shopify_feed(data, BASE)
    assert (product.price, product.source_url, product.image) == (
        Decimal("350.00"), BASE + "/products/chai", "https://cdn.x/c.png")


def _p(name, price, url=None):
    return ParsedProduct(name=name, price=Decimal(price), source_url=url or f"{BASE}/{name}")


def test_normalising_keeps_only_named_priced_products_and_fills_descriptions():
    assert normalise(_p("Tea", "0.00")) is None
    assert normalise(ParsedProduct(name="", price=Decimal("5"))) is None
    assert normalise(_p("Tea", "100")).name == "Tea Product"
    long_name = normalise(_p("x" * 250, "100"))
    assert len(long_name.name) < 200
    generated = normalise(_p("Masala Chai", "100"))
    assert 10 < len(generated.description) <= 400 and "Masala Chai" in generated.description
    assert len(normalise(ParsedProduct(name="Chai Blend", price=Decimal(1), description="y" * 900)).description) == 400


def test_deduplication_merges_by_url_name_and_similarity():
    products = [_p("Hangover Tea", "350", BASE + "/a"), _p("HANGOVER  tea", "350", BASE + "/b"),
                _p("Hangover Tea 25TB", "360", BASE + "/c"), _p("Earl Grey", "300", BASE + "/d"),
                _p("Royal Earl Grey", "310", BASE + "/e"), _p("Detox", "100", BASE + "/f"),
                _p("Detox", "100", BASE + "/f")]
    kept = deduplicate(products)
    assert [p.name for p in kept] == ["Hangover Tea", "Earl Grey", "Royal Earl Grey", "Detox"]


def test_one_name_at_two_prices_or_a_name_inside_another_word_stays_two_products():
    products = [_p("Hangover Tea", "350", BASE + "/hangover-tea-25/"),
                _p("Hangover Tea", "1250", BASE + "/hangover-tea-100/"),
                _p("Blend 1", "300", BASE + "/blend-1/"), _p("Blend 10", "310", BASE + "/blend-10/")]
    kept = deduplicate(products)
    assert [(p.name, str(p.price)) for p in kept] == [
        ("Hangover Tea", "350"), ("Hangover Tea", "1250"), ("Blend 1", "300"), ("Blend 10", "310")]


def test_a_price_that_rounds_to_nothing_or_overflows_the_price_fields_is_no_price():
    # a tenth of a cent rounds to 0.00; 10 billion KES does not fit a price column (PostgreSQL would
    # refuse the whole crawl's products for this one); a struck-through price that is too big is dropped alone
    assert normalise(_p("Dust Tea", "0.001")) is None
    assert normalise(_p("Gold Tea", "10000000000")) is None
    assert normalise(_p("Gold Tea", "9999999999.99")).price == Decimal("9999999999.99")
    sale = ParsedProduct(name="Love Tea", price=Decimal("280"), original_price=Decimal("1e12"), source_url=BASE)
    assert (normalise(sale).price, normalise(sale).original_price) == (Decimal("280.00"), None)


@pytest.mark.parametrize("value, price", [
    ("-250", None), ("KSh -250", None), ("KES −250.00", None),  # a negative price is no price, not 250
    ("1e30", Decimal("1E+30")), ("1e-3", Decimal("0.001")),  # a number in exponent form is that number, not 1
    ("NaN", None), ("Infinity", None), ("", None), ("free", None),
    ("KSh 1,250.00", Decimal("1250.00")), ("1,250", Decimal("1250")), ("KSh 250 – KSh 300", Decimal("250")),
    (" 350 ", Decimal("350")), (-5, None), (350, Decimal("350")),
])
def test_a_price_is_read_as_the_number_it_is(value, price):
    assert parse_price(value) == price


def test_a_producer_text_holds_no_direction_controls():
    # a name that would reverse what follows it on the dashboard, in e-mails and invoices ("exe.png")
    page = ('<html><body class="single-product"><div class="summary"><h1 class="product_title">'
            'Kenya Gold\u202egnp.exe</h1><p class="price">KSh 250</p>'
            '<div class="woocommerce-product-details__short-description">\u2067Strong\u2069 black tea, bold'
            ' and bright</div></div></body></html>')
    [product] = parse_page(page, BASE + "/product/kenya-gold/").products
    assert product.name == "Kenya Goldgnp.exe" and "\u2067" not in product.description
    feed = [{"name": "Love&#x202e; Tea", "permalink": BASE + "/product/love/", "prices": {"price": "280"}}]
    assert [p.name for p in parse_woocommerce_feed(feed, BASE)] == ["Love Tea"]


def test_a_producer_text_or_link_holds_no_control_characters():
    # JSON can carry NUL, which PostgreSQL text cannot hold: one such record failed the whole crawl's save
    jsonld = {"@type": "Product", "name": "Kenya\u0000 Gold\u0007", "description": "Bold\u0000 black tea from Kericho",
              "url": BASE + "/product/kenya-gold/\u0000", "image": BASE + "/a\u0000.png",
              "offers": {"@type": "Offer", "price": "250", "priceCurrency": "KES"}}
    page = f'<html><body><script type="application/ld+json">{json.dumps(jsonld)}</script></body></html>'
    [product] = parse_page(page, BASE + "/product/kenya-gold/").products
    assert (product.name, product.description) == ("Kenya Gold", "Bold black tea from Kericho")
    assert "\x00" not in product.source_url and "\x00" not in product.image


@pytest.mark.parametrize("value, price", [
    ("KSh 𝟑𝟓𝟎", None), ("𝟑𝟓𝟎", None), ("KES ३५०", None),  # \d took other scripts' digits, Decimal() read them
    ("KSh ٣٥٠", Decimal("350")), ("٣٥٠", Decimal("350")),  # Eastern Arabic are 0-9
    ("KSh ١,٢٥٠.٠٠", Decimal("1250.00")),
])
def test_a_price_is_read_from_ascii_or_eastern_arabic_digits_only(value, price):
    assert parse_price(value) == price


def test_a_page_number_too_long_for_int_is_past_the_last_page_not_an_error():
    # given: int() refuses a number past 4300 digits
    link = f"{BASE}/product-category/black-tea/page/{'9' * 5000}/"
    # then
    assert page_number(link) > 5
    assert page_number(f"{BASE}/product-category/black-tea/page/3/") == 3


@pytest.mark.parametrize("amount, price", [("28000", Decimal("280")), ("٢٨٠٠٠", Decimal("280")), ("𝟐𝟖𝟎𝟎𝟎", None)])
def test_a_store_api_amount_is_read_from_ascii_or_eastern_arabic_digits_only(amount, price):
    feed = [{"name": "Love Tea", "permalink": f"{BASE}/product/love/",
             "prices": {"price": amount, "currency_minor_unit": 2, "currency_code": "KES"}}]
    assert parse_woocommerce_feed(feed, BASE)[0].price == price
