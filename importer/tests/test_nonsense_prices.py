"""A producer's page holding nonsense prices never puts a product on sale for nothing, nor loses the others."""

from decimal import Decimal

import pytest
from django.utils import translation

from catalog.models import Category, Product
from importer import services, sync
from importer.models import ExternalProduct
from importer.parsers import parse_woocommerce_feed
from shop.store_settings import store_settings_update

pytestmark = pytest.mark.django_db

URL = "https://producer.example/product/{}/"


@pytest.fixture
def priced(db):
    """The fallback rate (0.376) and a 100 % markup: 1 KES makes 0.75 EGP, rounded to 1."""
    # the shop's producer is the one these products come from: the preview compares only its products
    store_settings_update(importer_markup=100, external_base_url="https://producer.example")
    Category.objects.get_or_create(slug="black-tea", defaults={"name": "Black Tea"})

    def item(name, kes, original=None):
        return ExternalProduct.objects.create(name=name, price=Decimal(kes), currency="KES",
                                              original_price=Decimal(original) if original else None,
                                              source_url=URL.format(name.lower().replace(" ", "-")))
    return item


# 1 KES makes 0.376 EGP before the markup. At 100 %, 0.50 KES makes 0.376 EGP, rounded to 0. At 300 %,
# 9,000,000,000 KES (a price the KES column holds) makes 13,536,000,000 EGP, more than the 12-digit EGP price
# columns hold (PostgreSQL refuses the write).
@pytest.mark.parametrize("markup, name, kes, sound_egp, language, message", [
    pytest.param(100, "Dust Tea", "0.50", "188", "en",
                 "\u2068Dust Tea\u2069 was not imported: its price (0.50 KES) makes 0 EGP", id="0 EGP-en"),
    pytest.param(100, "Dust Tea", "0.50", "188", "ar",
                 "لم يُستورد \u2068Dust Tea\u2069: سعره (0.50 شلن كيني) يساوي 0 جنيه مصري", id="0 EGP-ar"),
    pytest.param(300, "Gold Bars", "9000000000", "376", "en",
                 "\u2068Gold Bars\u2069 was not imported: its price (9000000000.00 KES) makes more EGP than a price "
                 "can hold", id="too many EGP-en"),
    pytest.param(300, "Gold Bars", "9000000000", "376", "ar",
                 "لم يُستورد \u2068Gold Bars\u2069: سعره (9000000000.00 شلن كيني) يساوي جنيهات أكثر مما يتسع له السعر",
                 id="too many EGP-ar"),
])
def test_a_price_that_makes_0_egp_or_more_than_a_price_holds_is_not_imported_and_the_rest_are(
        priced, owner, markup, name, kes, sound_egp, language, message):
    # given a page with a nonsense price (a few cents: a typo, a price per gram; or billions), beside a sound one
    store_settings_update(importer_markup=markup)
    priced(name, kes)
    priced("Kenya Gold", "250")
    # when
    with translation.override(language):
        result = services.external_products_import(user=owner)
    # then nothing goes on sale for 0 EGP nor fails the import, and staff are told why
    assert not Product.objects.filter(title=name).exists()
    assert Product.objects.get(title="Kenya Gold").price_amount == Decimal(sound_egp)
    assert result.errors == [message] and len(result.created) == 1


def test_an_imported_product_is_never_repriced_to_0_egp(priced, owner):
    # given an imported product at 188 EGP
    item = priced("Kenya Gold", "250")
    services.external_products_import(user=owner)
    product = Product.objects.get(title="Kenya Gold")
    # when the producer's page later says 0.01 KES
    ExternalProduct.objects.filter(pk=item.pk).update(price=Decimal("0.01"))
    diff = sync.diff_build(config=services.importer_config())
    sync.product_update_from_producer(product=product, item=ExternalProduct.objects.get(pk=item.pk),
                                      config=services.importer_config(), reason="import")
    # then the preview offers no change and a staff apply or a scheduled update keeps the price on sale
    assert diff.changed == []
    product.refresh_from_db()
    assert (product.price_amount, product.kes_price_amount) == (Decimal("188"), Decimal("250"))


@pytest.mark.parametrize("minor_unit", ["two", "-2", "99999999999", None, 2.5, "²", "𝟐", "9" * 5000])
def test_one_feed_item_with_a_nonsense_minor_unit_is_skipped_not_the_whole_page(minor_unit):
    feed = [{"name": "Odd Tea", "permalink": URL.format("odd"),
             "prices": {"price": "28000", "currency_minor_unit": minor_unit, "currency_code": "KES"}},
            {"name": "Love Tea", "permalink": URL.format("love"),
             "prices": {"price": "28000", "currency_minor_unit": 2, "currency_code": "KES"}}]
    # when: "²" passed str.isdigit(), which int() then refused, failing the page ("𝟐" it read as 2)
    products = {p.name: p.price for p in parse_woocommerce_feed(feed, "https://producer.example/")}
    assert products["Love Tea"] == Decimal("280")
    # no minor unit means whole shillings; anything else unreadable drops its own item only
    assert products.get("Odd Tea") == (Decimal("28000") if minor_unit is None else None)


def test_a_ticked_new_product_at_0_egp_is_not_created_and_the_apply_answer_says_why(priced, owner):
    from rest_framework.test import APIClient

    dust = priced("Dust Tea", "0.50")
    staff = APIClient()
    staff.force_login(owner)
    answer = staff.post("/api/admin/scrape/apply", {"new": [dust.pk]}, format="json", HTTP_ACCEPT_LANGUAGE="ar")
    assert answer.status_code == 200
    assert answer.json()["created"] == 0
    assert answer.json()["errors"] == ["لم يُستورد \u2068Dust Tea\u2069: سعره (0.50 شلن كيني) يساوي 0 جنيه مصري"]
    assert not Product.objects.filter(title="Dust Tea").exists()


def test_the_preview_never_shows_a_0_egp_price_as_a_change_and_names_it_refused(priced, owner):
    from rest_framework.test import APIClient

    # given two imported products at 188 EGP; the producer now says 0.01 KES for both, and one is sold out
    gold, leaf = priced("Kenya Gold", "250"), priced("Kenya Leaf", "250")
    services.external_products_import(user=owner)
    ExternalProduct.objects.filter(pk__in=[gold.pk, leaf.pk]).update(price=Decimal("0.01"))
    ExternalProduct.objects.filter(pk=leaf.pk).update(in_stock=False)
    staff = APIClient()
    staff.force_login(owner)
    # when staff open the preview
    diff = staff.get("/api/admin/scrape/preview").json()
    # then the sold-out one is offered for its stock only, at the price on sale, and both are named refused
    [row] = diff["changed"]
    assert (row["title"], row["oldEgp"], row["newEgp"], row["newPrice"]) == ("Kenya Leaf", "188.00", "188.00", "188.00")
    assert row["priceRefused"] is True and row["inStock"] is False
    assert [(r["title"], r["kes"]) for r in diff["refused"]] == [("Kenya Gold", "0.01"), ("Kenya Leaf", "0.01")]
    # and applying it takes the stock, never the price
    staff.post("/api/admin/scrape/apply", {"changed": [row["id"]]}, format="json")
    product = Product.objects.get(title="Kenya Leaf")
    assert (product.price_amount, product.stock) == (Decimal("188"), 0)


def test_a_list_price_too_large_for_egp_keeps_the_price_and_is_never_offered(priced, owner):
    # given an imported product at 188 EGP
    item = priced("Kenya Gold", "250")
    services.external_products_import(user=owner)
    product = Product.objects.get(title="Kenya Gold")
    # when the markup goes to 300 % and the producer's page says 9,000,000,000 KES struck through (its current
    # price 260), or 9,000,000,000 KES
    store_settings_update(importer_markup=300)
    config = services.importer_config()
    for price, original in [("260", "9000000000"), ("9000000000", None)]:
        ExternalProduct.objects.filter(pk=item.pk).update(
            price=Decimal(price), original_price=Decimal(original) if original else None)
        diff = sync.diff_build(config=config)
        # then the preview offers no change and names it refused, and an apply keeps the price on sale
        assert diff.changed == [] and [p.pk for p, _item in diff.refused] == [product.pk]
        sync.product_update_from_producer(product=product, item=ExternalProduct.objects.get(pk=item.pk),
                                          config=config, reason="import")
        product.refresh_from_db()
        assert (product.price_amount, product.sale_price_amount) == (Decimal("188"), None)
