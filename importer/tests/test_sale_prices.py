"""A product on sale keeps both prices: the struck-through original and the current one."""

from decimal import Decimal

import pytest

from catalog.models import Product
from importer import services
from importer.parsers import parse_page, parse_shopify_feed, parse_woocommerce_feed

URL = "https://producer.example/product/love-tea/"


def one_product(html):
    [product] = parse_page(html, URL).products
    return product.price, product.original_price


def product_page(price_html, jsonld=""):
    return (f'<html><body class="single-product"><div class="summary"><h1 class="product_title">Love Tea</h1>'
            f'<p class="price">{price_html}</p></div>{jsonld}</body></html>')


@pytest.mark.parametrize("price_html", [
    # WooCommerce classic: del and ins
    '<del><span class="amount">KSh&nbsp;300.00</span></del> <ins><span class="amount">KSh&nbsp;280.00</span></ins>',
    # WooCommerce block theme: del, then the current price in a plain span
    '<del class="wc-block-components-product-price__regular">KSh 300</del>'
    '<span class="wc-block-components-product-price__value is-discounted">KSh 280</span>',
    # Shopify themes: s (or strike) for the compare-at price
    '<s class="price-item price-item--regular">KES 300.00</s> <span class="price-item--sale">KES 280.00</span>',
    '<span>KSh 280</span> <strike>KSh 300</strike>',
])
def test_a_struck_through_price_in_the_html_is_the_original(price_html):
    assert one_product(product_page(price_html)) == (Decimal("280"), Decimal("300"))


def test_a_page_with_json_ld_keeps_the_struck_through_price_of_its_html():
    # given JSON-LD with the current price only
    jsonld = ('<script type="application/ld+json">{"@type": "Product", "name": "Love Tea", '
              '"offers": {"@type": "Offer", "price": "280", "priceCurrency": "KES"}}</script>')
    # then
    assert one_product(product_page("<del>KSh 300</del><ins>KSh 280</ins>", jsonld)) == (Decimal("280"),
                                                                                        Decimal("300"))


def test_a_json_ld_strikethrough_price_specification_is_the_original():
    jsonld = ('<script type="application/ld+json">{"@type": "Product", "name": "Love Tea", "offers": '
              '{"@type": "Offer", "price": "280", "priceCurrency": "KES", "priceSpecification": '
              '{"@type": "UnitPriceSpecification", "priceType": "https://schema.org/StrikethroughPrice", '
              '"price": "300", "priceCurrency": "KES"}}}</script>')
    assert one_product(f"<html><body>{jsonld}</body></html>") == (Decimal("280"), Decimal("300"))


def test_feeds_keep_the_original_price():
    shopify = {"products": [{"title": "Love Tea", "handle": "love-tea", "variants": [
        {"price": "450.00", "compare_at_price": None},
        {"price": "280.00", "compare_at_price": "300.00"}]}]}
    woo = [{"name": "Love Tea", "permalink": URL,
            "prices": {"price": "28000", "regular_price": "30000", "currency_minor_unit": 2, "currency_code": "KES"}}]
    for [product] in (parse_shopify_feed(shopify, "https://producer.example/"),
                      parse_woocommerce_feed(woo, "https://producer.example/")):
        assert (product.price, product.original_price) == (Decimal("280"), Decimal("300"))


@pytest.mark.django_db
def test_the_shop_shows_the_sale_with_the_markup_on_both_prices(crawl, shop_setup, owner):
    # given Love Tea on sale on the producer's site (300 struck through, 280 now; JSON-LD says 280)
    crawl(user=owner, max_pages=100)
    # when
    services.external_products_import(user=owner)
    # then at 0.40 × (1 + 100 %): shop price from the original, sale price from the current one
    love = Product.objects.get(title="Love Tea")
    assert (love.price_amount, love.sale_price_amount, love.kes_price_amount) == (
        Decimal("240"), Decimal("224"), Decimal("280.00"))
