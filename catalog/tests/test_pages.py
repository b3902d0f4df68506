import json
import re
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.services import review_create, review_set_approved
from shop.store_settings import store_settings_update
from tests.factories import make_category, make_delivered_order, make_product

pytestmark = pytest.mark.django_db


def test_the_count_names_the_range_shown_in_the_languages_plural(client):
    for n in range(30):
        make_product(title=f"Tea {n:02d}", price_amount=Decimal("100"))
    assert "Showing 25–30 of 30 products" in client.get("/shop?page=2").content.decode()
    assert "عرض 1–24 من 30 منتجًا" in client.get("/ar/shop").content.decode()


def test_the_arabic_count_of_a_single_product_reads_as_one_product(client):
    make_product(title="Tea", title_ar="شاي", price_amount=Decimal("100"))
    html = client.get("/ar/shop").content.decode()
    assert "عرض المنتج الوحيد" in html and "من منتج واحد" not in html  # not "showing one product of one product"


def test_the_shop_renders_the_filtered_list_without_javascript(client):
    # given
    green = make_category("green-tea", "Green Tea", "شاي أخضر")
    make_product(title="Kenya Black", price_amount=Decimal("120"))
    make_product(title="Sencha", category=green, price_amount=Decimal("90"))
    # when
    html = client.get("/shop?category=green-tea&price=under-100&sort=price-asc&view=list").content.decode()
    # then
    assert "Sencha" in html and "Kenya Black" not in html
    assert 'href="/product/' in html
    assert "Showing 1–1 of 1 product" in html
    assert "product-grid--list" in html
    assert "Clear all" in html


@pytest.mark.parametrize("query", [
    "?category=nope", "?price=%FF", "?sort=drop", "?search=" + "x" * 3000, "?page=abc", "?page=99999",
    "?search=%00%C0", "?view=<script>",
])
def test_the_shop_survives_bad_input(client, query):
    make_product()
    assert client.get("/shop" + query).status_code == 200


@pytest.mark.parametrize(("page", "shown"), [("2", "25–30"), ("٢", "25–30"), ("𝟐", "1–24"), ("²", "1–24"),
                                             ("0", "1–24"), ("-2", "1–24"), ("9" * 18, "25–30")])
def test_the_shop_reads_a_page_number_as_ascii_digits_and_clamps_it(client, page, shown):
    # Eastern Arabic digits are made Western before the view; other scripts' digits are not a page number
    for n in range(30):
        make_product(title=f"Tea {n:02d}", price_amount=Decimal("100"))
    html = client.get("/shop", {"page": page}).content.decode()
    assert f"Showing {shown} of 30 products" in html


def test_it_shows_no_products_found_for_an_unknown_category(client):
    make_product()
    html = client.get("/shop?category=unknown").content.decode()
    assert "No products found" in html and "Clear filters" in html


def test_the_arabic_shop_searches_arabic_titles(client):
    make_product(title="Masala Chai", title_ar="شاي ماسالا")
    html = client.get("/ar/shop?search=ماسالا").content.decode()
    assert "شاي ماسالا" in html and 'dir="rtl"' in html


@pytest.mark.parametrize(("prefix", "chip"), [("", "“pepper”"), ("/ar", "«pepper»")])
def test_the_search_chip_quotes_the_words_as_the_language_does(client, prefix, chip):
    make_product(title="Peppermint")
    html = client.get(f"{prefix}/shop?search=pepper").content.decode()
    assert re.search(r'class="chip"[^>]*>' + chip, html)


def test_sale_lists_only_products_on_sale_and_explore_lists_categories(client):
    make_product(title="Bargain", price_amount=Decimal("200"), sale_price_amount=Decimal("150"))
    make_product(title="Full price")
    assert "Full price" not in client.get("/sale").content.decode()
    assert "Bargain" in client.get("/sale").content.decode()
    assert "Black Tea" in client.get("/explore").content.decode()


def test_the_product_page_shows_price_stock_related_and_json_ld(client):
    # given
    product = make_product(
        title="Kenya Gold", price_amount=Decimal("300"), sale_price_amount=Decimal("240"), stock=3,
        kes_price_amount=Decimal("640"),
    )
    make_product(title="Sibling")
    # when
    html = client.get(f"/product/{product.slug}").content.decode()
    # then
    assert "E£240.00" in html and "E£300.00" in html and "Save E£60.00" in html
    assert "Only 3 left" in html
    assert "KSh" in html
    assert "You might also like" in html and "Sibling" in html
    assert '"@type": "Product"' in html and '"price": "240.00"' in html
    assert "Care instructions will be provided with your order." in html
    assert "For orders over E£1,000.00" in html


def test_the_quantity_stepper_offers_no_more_than_one_cart_line_may_hold(client):
    # given a tea with plenty in stock, and the store's cap of 20 a line
    product = make_product(price_amount=Decimal("100"), stock=80)
    client.get(f"/product/{product.slug}")  # its page cached before the cap is set
    store_settings_update(max_quantity_per_line=20)
    # when its page is read
    html = client.get(f"/product/{product.slug}").content.decode()
    props = json.loads(re.search(r'<script id="cart-props"[^>]*>(.*?)</script>', html, re.S).group(1))
    # then the stepper stops at 20, the most Add to cart would be allowed
    assert len(props["lineTotals"]) == 20 and props["lineTotals"][-1] == "E£2,000.00"


def test_an_out_of_stock_tea_promises_no_delivery_date(client):
    # given one tea sold out and one in stock
    gone, kept = make_product(stock=0), make_product(stock=5)
    for language in ("", "/ar"):
        # when their pages are read, twice (the second from the page cache)
        for _ in range(2):
            pages = {p: client.get(f"{language}/product/{p.slug}").content.decode() for p in (gone, kept)}
            # then only the one that can be bought says when it would arrive
            assert 'data-testid="delivery-estimate"' not in pages[gone]
            assert 'data-testid="delivery-estimate"' in pages[kept]


def test_an_unknown_or_inactive_product_is_a_404_page(client):
    hidden = make_product(is_active=False)
    for slug in ("nope", hidden.slug):
        response = client.get(f"/product/{slug}")
        assert response.status_code == 404
        assert "Product Not Found" in response.content.decode()


def test_review_text_is_escaped_on_the_product_page(client, alice):
    # given
    product = make_product()
    make_delivered_order(user=alice, product=product)
    review = review_create(user=alice, product=product, rating=5,
                           title="<script>alert(1)</script>", comment="<img src=x onerror=alert(2)>")
    review_set_approved(review=review, approved=True)
    # when
    html = client.get(f"/product/{product.slug}").content.decode()
    # then
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<img src=x" not in html


def test_only_verified_buyers_get_the_review_form(client, alice):
    product = make_product()
    assert '"reason": "login"' in client.get(f"/product/{product.slug}").content.decode()
    client.force_login(alice)
    assert '"reason": "not-buyer"' in client.get(f"/product/{product.slug}").content.decode()
    make_delivered_order(user=alice, product=product)
    assert '"reason": ""' in client.get(f"/product/{product.slug}").content.decode()


def _count_queries(client, url):
    cache.clear()  # count the queries of a cold page, not of cached fragments
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_shop_and_product_pages_make_the_same_number_of_queries_at_10_and_200_products(client, alice):
    # given
    green = make_category("green-tea", "Green Tea", "شاي أخضر")
    products = [make_product(category=green if i % 2 else None, tags=["t"]) for i in range(10)]
    first = products[0]
    make_delivered_order(user=alice, product=first)
    review_set_approved(review=review_create(user=alice, product=first, rating=4, title="a", comment="b"),
                        approved=True)
    client.get("/shop")  # warm the settings cache
    small = (_count_queries(client, "/shop"), _count_queries(client, f"/product/{first.slug}"),
             _count_queries(client, "/shop?sort=price-asc&price=100-200"))
    # when
    for i in range(190):
        make_category(f"cat-{i % 20}", f"Cat {i % 20}", "فئة")
        make_product(category=green, tags=["t"])
    for _ in range(5):
        review_set_approved(review=review_create(user=alice, product=first, rating=5, title="a", comment="b"),
                            approved=True)
    large = (_count_queries(client, "/shop"), _count_queries(client, f"/product/{first.slug}"),
             _count_queries(client, "/shop?sort=price-asc&price=100-200"))
    # then
    assert small == large


def test_a_product_change_shows_at_once_despite_the_fragment_cache(client):
    # given
    product = make_product(title="Old name")
    assert "Old name" in client.get("/shop").content.decode()
    # when
    from catalog.services import product_upsert
    product_upsert(product=product, title_en="New name")
    # then
    html = client.get("/shop").content.decode()
    assert "New name" in html and "Old name" not in html


def test_the_shops_first_two_rows_of_pictures_load_at_once_and_the_rest_when_scrolled_to(client):
    # the largest paint on a phone is a picture in the first rows: a lazy one waits for layout
    # given
    for n in range(7):
        make_product(title=f"Tea {n}", images=[f"/media/demo/tea-{n}.svg"])
    # when
    html = client.get("/shop").content.decode()
    # then
    pictures = re.findall(r'<img src="/media/demo/tea-\d\.svg"[^>]*>', html)
    assert len(pictures) == 7
    assert all('loading="lazy"' not in tag and 'fetchpriority="high"' in tag for tag in pictures[:4])
    assert all('loading="lazy"' in tag and "fetchpriority" not in tag for tag in pictures[4:])
