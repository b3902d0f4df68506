"""Crawl runs and importing their products into the shop."""

from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings

from backoffice.models import AuditEntry
from backoffice.products import product_save
from catalog.models import Category, Product
from importer import services
from importer.models import ExternalProduct, ImporterRun, RunStatus
from importer.tests.fake_site import EXPECTED, Answer
from shop.models import ExchangeRate

pytestmark = pytest.mark.django_db


def test_a_run_crawls_saves_progress_and_caches_the_products(crawl, shop_setup, owner):
    # when (Celery runs eagerly in tests)
    run = crawl(user=owner, max_pages=100)
    # then
    assert run.status == RunStatus.DONE and run.started_by == owner
    assert run.products_found == 9 and run.pages_fetched == run.pages_planned > 20
    assert sorted(ExternalProduct.objects.values_list("name", flat=True)) == sorted(EXPECTED)
    # the rate was refreshed from the chain first
    assert ExchangeRate.objects.get().rate == Decimal("0.4")


def test_import_all_creates_products_in_egp_with_the_kes_price_and_categories(crawl, shop_setup, owner):
    # given
    crawl(user=owner, max_pages=100)
    # when
    result = services.external_products_import(user=owner)
    # then
    assert len(result.created) == 9 and result.errors == []
    for name, (kes, egp, category) in EXPECTED.items():
        product = Product.objects.get(title=name)
        shown = product.sale_price_amount or product.price_amount
        assert (shown, product.kes_price_amount, product.category.slug) == (Decimal(egp), Decimal(kes), category), name
        assert product.stock == 50 and product.is_active and product.source_url
        assert "auto-categorized" in product.tags and "kericho-gold" in product.tags
    assert Product.objects.filter(is_featured=True).count() == 3
    sale = Product.objects.get(title="Strawberry & Vanilla 20TB")
    assert (sale.price_amount, sale.sale_price_amount) == (Decimal("360"), Decimal("304"))


def test_imported_products_have_downloaded_images_brewing_text_and_descriptions(crawl, shop_setup, owner):
    # given
    crawl(user=owner, max_pages=100)
    # when
    services.external_products_import(user=owner)
    # then images are in media storage, never the producer's URL
    hangover = Product.objects.get(title="Hangover Tea")
    [image] = hangover.images
    assert image.startswith("/media/products/imported/") and image.endswith(".png")
    assert (Path(settings.MEDIA_ROOT) / image.removeprefix("/media/")).read_bytes().startswith(b"\x89PNG")
    assert hangover.brewing_instructions_en.startswith("Use 1 teaspoon") and "95°C" in hangover.brewing_instructions_en
    assert hangover.brewing_instructions_ar
    assert hangover.description_en.startswith("Green tea with ginger and mint")
    assert hangover.short_description_en == hangover.description_en[:100]
    # a product without a source description gets a generated one, in both languages
    detox = Product.objects.get(title="Detox Tea")
    assert "Detox Tea is a premium wellness blend" in detox.description_en and detox.description_ar
    # Arabic tags from the tea glossary; the Arabic title is left for staff, and the dashboard says so
    assert "كيريتشو جولد" in detox.tags_ar
    assert "title" in detox.arabic_missing


def test_reimporting_updates_prices_and_never_duplicates(crawl, shop_setup, owner):
    # given an import at 0.40
    crawl(user=owner, max_pages=100)
    services.external_products_import(user=owner)
    # when the rate moves to 0.50 and everything is imported again
    ExchangeRate.objects.update(rate=Decimal("0.5"))
    from shop.rates import rate_forget
    rate_forget()
    result = services.external_products_import(user=owner)
    # then
    assert len(result.created) == 0 and len(result.updated) == 9
    assert Product.objects.count() == 9
    assert Product.objects.get(title="Hangover Tea").price_amount == Decimal("350")  # 350 × 0.5 × 2


def test_import_one_imports_only_the_selected_product(crawl, shop_setup, owner):
    # given
    crawl(user=owner, max_pages=100)
    love = ExternalProduct.objects.get(name="Love Tea")
    # when
    result = services.external_products_import(external_products=[love], user=owner)
    # then
    assert [p.title for p in result.created] == ["Love Tea"] and Product.objects.count() == 1


def test_an_image_that_is_not_an_image_is_skipped_and_the_product_kept(crawl, shop_setup, owner):
    # given the producer answers an HTML page for one picture
    shop_setup.routes["/wp-content/uploads/2026/01/love.png"] = Answer(200, "<html>hotlink protection</html>")
    crawl(user=owner, max_pages=100)
    # when
    services.external_products_import(external_products=list(ExternalProduct.objects.filter(name="Love Tea")))
    # then
    assert Product.objects.get(title="Love Tea").images == []


def test_a_failed_crawl_keeps_the_previous_cache(crawl, shop_setup, owner):
    # given a cache from an earlier crawl, then a site that answers nothing
    crawl(user=owner, max_pages=100)
    shop_setup.routes.clear()
    # when
    run = crawl(user=owner, max_pages=10)
    # then
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and "no products were found on it" in run.error
    assert ExternalProduct.objects.count() == 9


def test_a_base_url_that_is_not_http_is_refused(shop_setup, owner):
    with pytest.raises(services.ImporterError, match="not allowed"):
        services.run_start(user=owner, base_url="file:///etc/passwd")
    assert ImporterRun.objects.count() == 0


def test_a_private_base_url_is_refused_unless_allowed(shop_setup, owner, settings):
    settings.IMPORTER_ALLOW_PRIVATE_HOSTS = False
    with pytest.raises(services.ImporterError, match="on a private network"):
        services.run_start(user=owner, base_url=shop_setup.url)


def test_a_cancelled_run_stops_before_fetching(crawl, shop_setup, owner, monkeypatch):
    # given a run queued but not yet picked up by a worker
    monkeypatch.setattr(services, "dispatch", lambda run_id: None)
    run = crawl(user=owner, max_pages=100)
    # when
    services.run_cancel(run=run)
    run = services.run_crawl(run_id=run.pk)
    # then
    assert run.status == RunStatus.CANCELLED and shop_setup.requests == []


def test_a_crawl_delivered_twice_runs_once(crawl, shop_setup, owner, monkeypatch):
    # given a queued run that a worker has started (a late acknowledgement hands the job to another)
    monkeypatch.setattr(services, "dispatch", lambda run_id: None)
    run = crawl(user=owner, max_pages=100)
    ImporterRun.objects.filter(pk=run.pk).update(status=RunStatus.RUNNING)
    # when the second delivery runs it
    run = services.run_crawl(run_id=run.pk)
    # then it leaves the run to the first, and fetches nothing
    assert run.status == RunStatus.RUNNING and shop_setup.requests == []


def test_a_crawl_whose_products_cannot_be_kept_ends_failed_not_running(crawl, shop_setup, owner, monkeypatch):
    monkeypatch.setattr(services, "cache_replace", lambda **kwargs: 1 / 0)
    run = crawl(user=owner, max_pages=100)
    assert run.status == RunStatus.FAILED and "ZeroDivisionError" in run.error
    # and a new crawl may start
    monkeypatch.setattr(services, "dispatch", lambda run_id: None)
    services.run_start(user=owner)


def test_only_one_crawl_runs_at_a_time(shop_setup, owner, monkeypatch):
    monkeypatch.setattr(services, "dispatch", lambda run_id: None)
    services.run_start(user=owner)
    with pytest.raises(services.ImporterError, match="already running"):
        services.run_start(user=owner)


def test_importing_with_an_empty_cache_says_so(db):
    with pytest.raises(services.ImporterError, match="No products to save. Please scrape products first."):
        services.external_products_import()


def test_a_product_out_of_stock_at_the_producer_is_created_with_no_stock(shop_setup, owner):
    # given
    ExternalProduct.objects.create(name="Golden Tips 50g", price=Decimal("2300"), in_stock=False,
                                   source_url=f"{shop_setup.url}/product/golden-tips/")
    # when
    services.external_products_import(user=owner)
    # then
    assert Product.objects.get(title="Golden Tips 50g").stock == 0


def _cached(site, name, *, image="", category="attitude-teas"):
    return ExternalProduct.objects.create(name=name, price=Decimal("100"), image=image, category=category,
                                          source_url=f"{site.url}/product/{name.lower().replace(' ', '-')}/")


def test_staff_and_the_import_share_one_slug_rule_and_one_audit_entry_each(shop_setup, owner, manager):
    # given staff made a "Love Tea" before the producer's one is imported
    from_staff = product_save(actor=manager, data={"title_en": "Love Tea", "price_amount": Decimal("10")})
    # when
    [imported] = services.external_products_import(external_products=[_cached(shop_setup, "Love Tea")],
                                                   user=owner).created
    again = product_save(actor=manager, data={"title_en": "Love Tea", "price_amount": Decimal("10")})
    # then
    assert (from_staff.slug, imported.slug, again.slug) == ("love-tea", "love-tea-2", "love-tea-3")
    assert list(AuditEntry.objects.order_by("pk").values_list("action", "actor__username")) == [
        ("product.create", manager.username), ("product_import", owner.username),
        ("product.create", manager.username)]


def test_the_import_makes_a_missing_category_that_staff_could_not_name(shop_setup, owner):
    Category.objects.filter(slug="attitude-teas").delete()
    [product] = services.external_products_import(external_products=[_cached(shop_setup, "Hangover Tea")]).created
    assert product.category.slug == "attitude-teas" and product.category.name == "Attitude Teas"


def test_a_download_announced_as_png_that_is_svg_is_refused_by_the_picture_check(shop_setup, owner):
    # given a picture whose header says PNG but whose bytes are SVG
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    shop_setup.routes["/fake.png"] = Answer(200, svg, content_type="image/png")
    # when
    [product] = services.external_products_import(
        external_products=[_cached(shop_setup, "Love Tea", image=f"{shop_setup.url}/fake.png")]).created
    # then the product is kept without the picture, and nothing was stored
    assert product.images == []
    assert not list((Path(settings.MEDIA_ROOT) / "products").rglob("*.*"))


def test_staff_starting_cancelling_and_clearing_a_crawl_leave_one_audit_entry_each(shop_setup, owner, monkeypatch):
    # given a crawl queued but not picked up by a worker
    monkeypatch.setattr(services, "dispatch", lambda run_id: None)
    run = services.run_start(user=owner, max_pages=10)
    # when
    services.run_cancel(run=run, actor=owner)
    services.run_cancel(run=run, actor=owner)  # asked already: still one entry
    _cached(shop_setup, "Love Tea")
    services.cache_clear(actor=owner)
    services.cache_clear()  # a script's clear is not staff activity
    # then
    assert list(AuditEntry.objects.order_by("pk").values_list("action", "target_id", "actor")) == [
        ("importer.crawl_start", str(run.pk), owner.pk), ("importer.crawl_cancel", str(run.pk), owner.pk),
        ("importer.cache_clear", "", owner.pk)]


@pytest.mark.parametrize("language, message", [
    ("en", "\u2068Detox Tea\u2069 was not imported: an error stopped it; try again."),
    ("ar", "لم يُستورد \u2068Detox Tea\u2069: أوقفه خطأ؛ حاول مرة أخرى."),
])
def test_one_product_that_fails_is_named_and_the_others_are_imported(crawl, shop_setup, owner, monkeypatch,
                                                                     language, message):
    # given a crawl, a media disk that refuses one picture (full) and a database that refuses one product
    from django.db import OperationalError
    from django.utils import translation

    from catalog import media

    crawl(user=owner, max_pages=100)
    image_import, save, fetching = services.image_import, media.default_storage.save, []

    def image_import_noted(url, **kwargs):
        fetching[:] = [url]
        return image_import(url, **kwargs)

    def disk_full(name, content, **kwargs):  # the disk refuses Love Tea's picture
        if "love" in fetching[0]:
            raise OSError(28, "No space left on device")
        return save(name, content, **kwargs)

    create = services.product_create

    def refusing(**fields):
        if fields["title_en"] == "Detox Tea":
            raise OperationalError("database is locked")
        return create(**fields)

    monkeypatch.setattr(services, "image_import", image_import_noted)
    monkeypatch.setattr(media.default_storage, "save", disk_full)
    monkeypatch.setattr(services, "product_create", refusing)
    # when staff import all
    with translation.override(language):
        result = services.external_products_import(user=owner)
    # then the one without its picture is imported all the same, the refused one is named, the rest imported
    assert Product.objects.get(title_en="Love Tea").images == []
    assert not Product.objects.filter(title_en="Detox Tea").exists()
    assert len(result.created) == 8 and result.errors == [message]
