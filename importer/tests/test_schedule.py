"""The scheduled import: prices and stock of imported products, staff edits kept, the Owner told."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from backoffice.products import product_save
from catalog.models import Product
from importer import services, sync, tasks
from importer.models import ImporterRun, PriceRecord
from importer.tests.fake_site import Answer, card, listing, woo_price
from shop.models import OutboundEmail
from shop.money import format_egp
from shop.store_settings import store_settings_update
from tests.threads import at_once

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported(shop_setup, crawl, owner):
    """The fake producer's nine products imported by staff a day ago."""
    run = crawl(user=owner, max_pages=100)
    services.external_products_import(user=owner)
    ImporterRun.objects.filter(pk=run.pk).update(created_at=timezone.now() - timedelta(hours=25))
    store_settings_update(external_auto_import=True, external_refresh_interval=24)
    return shop_setup


def _producer_changes(site):
    """Detox Tea costs more, Ginger & Lemon is gone, a new tea appears; the 500 g leaf sells out."""
    site.routes["/product-category/health-wellness/"] = Answer(200, listing([
        card("Hangover Tea", "/product/hangover-tea/", category="health-wellness", price_html=woo_price("350.00")),
        card("Detox Tea", "/product/detox-tea/", category="health-wellness", price_html=woo_price("460.00")),
        card("Moringa Green", "/product/moringa-green/", category="health-wellness", price_html=woo_price("500.00")),
    ]))
    site.routes["/shop/page/2/"] = Answer(200, listing([
        card("Kericho Gold 100g Leaf Tea", "/product/kericho-gold-100g-leaf-tea/", price_html=woo_price("73.00"))]))
    site.routes["/product-category/black-tea/?paged=2"] = Answer(200, listing([
        card("Kericho Gold Loose Leaf 500g", "/product/loose-leaf-500g/",
             price_html=woo_price("890.00") + '<p class="stock out-of-stock">Out of stock</p>')]))


def test_the_beat_job_updates_prices_and_stock_keeps_staff_edits_and_mails_the_owner(imported, owner):
    # given staff renamed one product and the producer changed its catalogue
    detox = Product.objects.get(title="Detox Tea")
    hangover = Product.objects.get(title="Hangover Tea")
    product_save(actor=owner, product=hangover, data={"title_en": "Morning After Tea"})
    owner.language = "ar"
    owner.save(update_fields=["language"])
    _producer_changes(imported)
    count = Product.objects.count()
    # when beat ticks
    assert tasks.auto_import_tick() == "started"
    # then the price follows the producer: round(460 × 0.40 × 2) = 368
    detox.refresh_from_db()
    assert (detox.price_amount, detox.kes_price_amount) == (Decimal("368"), Decimal("460"))
    assert [(r.kes, r.egp, r.reason) for r in PriceRecord.objects.filter(product=detox)] == [
        (Decimal("460.00"), Decimal("368.00"), "schedule"), (Decimal("420.00"), Decimal("336.00"), "import")]
    # stock follows the producer's availability, the title staff edited stays
    hangover.refresh_from_db()
    assert hangover.title_en == "Morning After Tea" and hangover.stock == 50
    assert Product.objects.get(title="Kericho Gold Loose Leaf 500g").stock == 0
    # nothing is created, deactivated or deleted by a scheduled import
    assert Product.objects.count() == count and Product.objects.filter(is_active=False).count() == 0
    # the Owner hears about it in Arabic, through the outbox
    # (the 500 g leaf's stock alert goes to the Owner too: the summary is the scheduled import's mail)
    [mail] = OutboundEmail.objects.filter(to=owner.email, subject__contains="الاستيراد المجدول")
    assert mail.language == "ar"
    assert f"\u2068Detox Tea\u2069: {format_egp(336, 'ar')} ← {format_egp(368, 'ar')}" in mail.text
    assert "Moringa Green" in mail.text and "Ginger & Lemon" in mail.text
    assert "/admindash/external-products" in mail.text and "Morning After Tea: " not in mail.text
    assert "الاستيراد المجدول" in mail.subject


def test_a_title_staff_never_edited_follows_the_producer_and_stock_comes_back(imported, owner):
    # given the producer renamed a product's description, and marked one out of stock before
    hangover = Product.objects.get(title="Hangover Tea")
    imported.routes["/product/hangover-tea/"] = Answer(200, imported.routes["/product/hangover-tea/"].body.replace(
        "Green tea with ginger and mint", "Green tea with ginger, mint and lemon"))
    # when the schedule runs
    tasks.auto_import_tick()
    # then the description nobody edited is the producer's new one
    hangover.refresh_from_db()
    assert hangover.description_en.startswith("Green tea with ginger, mint and lemon")
    # and an edited one is kept on the next run
    product_save(actor=owner, product=hangover, data={"description_en": "Our own words."})
    ImporterRun.objects.update(created_at=timezone.now() - timedelta(hours=25))
    assert tasks.auto_import_tick() == "started"
    hangover.refresh_from_db()
    assert hangover.description_en == "Our own words."


def test_a_price_moving_more_than_a_quarter_is_held_for_staff_not_applied_overnight(imported, owner):
    # given the producer's Detox Tea page says KSh 1 (a typo), and Hangover Tea's price staff set
    detox = Product.objects.get(title="Detox Tea")
    hangover = Product.objects.get(title="Hangover Tea")
    product_save(actor=owner, product=hangover, data={"sale_price_amount": Decimal("250.00")})
    imported.routes["/product-category/health-wellness/"] = Answer(200, listing([
        card("Hangover Tea", "/product/hangover-tea/", category="health-wellness", price_html=woo_price("350.00")),
        card("Detox Tea", "/product/detox-tea/", category="health-wellness", price_html=woo_price("1.00")),
    ]))
    # when beat ticks
    assert tasks.auto_import_tick() == "started"
    # then Detox keeps the price on sale, with no history written for the one held
    detox.refresh_from_db()
    assert detox.price_amount == Decimal("336") and detox.kes_price_amount == Decimal("420")
    assert not PriceRecord.objects.filter(product=detox, reason="schedule").exists()
    # and the sale price staff set stays
    hangover.refresh_from_db()
    assert hangover.sale_price_amount == Decimal("250.00")
    # and the Owner is told what was held and where to apply it
    [mail] = OutboundEmail.objects.filter(to=owner.email, subject__contains="import")
    assert "Price changes held for you to check (more than a quarter up or down): 1" in mail.text
    assert f"Detox Tea\u2069: {format_egp(336, 'en')} → {format_egp(1, 'en')}" in mail.text
    assert "1 product kept the price staff set." in mail.text
    # and the preview still offers the held change, which staff may apply
    from importer.sync import diff_build
    assert detox.pk in {product.pk for product, _item, _prices in diff_build().changed}


def test_the_beat_job_queues_the_crawl_through_enqueue(imported, monkeypatch):
    # given the broker is down
    queued = []
    monkeypatch.setattr(tasks, "enqueue", lambda task, *a, **kw: queued.append((task.name, a, kw)) and False)
    runs = ImporterRun.objects.count()
    # when
    assert tasks.auto_import_tick() == "queue down"
    # then it asked the queue once, and leaves no run that would block the next tick
    assert queued == [("importer.tasks.crawl_run_task", (queued[0][1][0],), {"scheduled": True, "fail_fast": False})]
    assert ImporterRun.objects.count() == runs


def test_the_scheduled_import_is_off_unless_auto_import_is_on(imported):
    store_settings_update(external_auto_import=False)
    assert tasks.auto_import_tick() == "off"


def test_a_crawl_staff_start_does_not_put_the_scheduled_import_off(imported, crawl, owner, monkeypatch):
    # given the last scheduled import a day ago, and a crawl staff started an hour ago to look at the preview
    ImporterRun.objects.update(started_by=None)
    monkeypatch.setattr(services, "dispatch", lambda run_id: None)
    staff_run = crawl(user=owner, max_pages=5)
    ImporterRun.objects.filter(pk=staff_run.pk).update(status="done", created_at=timezone.now() - timedelta(hours=1))
    # when beat ticks, the scheduled import is due all the same, and reads the whole site
    monkeypatch.setattr(tasks, "enqueue", lambda task, *a, **kw: True)
    assert tasks.auto_import_tick() == "started"
    assert ImporterRun.objects.order_by("-created_at").first().max_pages == services.MAX_PAGES


@pytest.mark.django_db(transaction=True)
def test_two_ticks_at_once_start_one_crawl(monkeypatch):
    # given: auto-import on and due; the worker takes two ticks at once (the backlog after an outage)
    store_settings_update(external_auto_import=True, external_refresh_interval=24)
    monkeypatch.setattr(tasks, "enqueue", lambda task, *args, **kwargs: True)
    for attempt in range(30):  # two ticks started together do not always overlap
        ImporterRun.objects.all().delete()
        # when
        outcomes = at_once(tasks.auto_import_tick, tasks.auto_import_tick)
        # then: one crawl; the other tick finds it running
        assert sorted(outcomes) == ["busy", "started"], attempt
        assert ImporterRun.objects.count() == 1


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_producer_price_that_makes_0_egp_is_reported_refused_not_held_for_approval(imported, owner, language):
    # given the producer's Detox Tea card says KSh 0.50 (a typo, a price per gram): round(0.50 × 0.40 × 2) = 0 EGP,
    # beside a real jump (Hangover Tea at 1,000 KES: 800 EGP from 280)
    owner.language = language
    owner.save(update_fields=["language"])
    imported.routes["/product-category/health-wellness/"] = Answer(200, listing([
        card("Hangover Tea", "/product/hangover-tea/", category="health-wellness", price_html=woo_price("1,000.00")),
        card("Detox Tea", "/product/detox-tea/", category="health-wellness", price_html=woo_price("0.50")),
    ]))
    imported.routes["/product/hangover-tea/"] = Answer(200, imported.routes["/product/hangover-tea/"].body.replace(
        "350.00", "1,000.00"))
    # when beat ticks
    assert tasks.auto_import_tick() == "started"
    # then Detox keeps its price on sale
    detox = Product.objects.get(title="Detox Tea")
    assert (detox.price_amount, detox.kes_price_amount) == (Decimal("336"), Decimal("420"))
    # and the Owner's e-mail holds for approval only the change the dashboard offers (Hangover Tea)
    from importer.sync import diff_build
    offered = {product.title_en for product, _item, _prices in diff_build().changed}
    assert offered == {"Hangover Tea"}
    [mail] = OutboundEmail.objects.filter(to=owner.email, language=language, subject__contains=(
        "الاستيراد المجدول" if language == "ar" else "scheduled import"))
    held, _, refused = mail.text.partition("\u2068Detox Tea\u2069")
    assert "\u2068Hangover Tea\u2069" in held and "\u2068Hangover Tea\u2069" not in refused
    assert f"{'←' if language == 'ar' else '→'} {format_egp(0, language)}" not in mail.text
    # and Detox is named as a price refused, the price on sale kept
    if language == "en":
        assert ("Prices refused (the producer's price makes 0 EGP, more than a price can hold, or none could be "
                "read; the price on sale stays): 1\n- \u2068Detox Tea\u2069: 0.50 KES") in mail.text
        assert "Price changes held for you to check (more than a quarter up or down): 1" in mail.text
    else:
        assert "أسعار مرفوضة" in mail.text and "0.50 شلن كيني" in mail.text


@pytest.mark.parametrize("price", ["-250.00", "0.004", "99,999,999,999.00"])
def test_a_price_the_crawl_refuses_keeps_the_product_and_is_reported_refused_not_gone(imported, owner, price):
    # given the producer's Detox Tea card shows a price the crawl cannot use (negative, a tenth of a cent, more
    # than the price columns hold), its own page none (a 404), on a crawl that read the whole site
    imported.routes["/product-category/health-wellness/"] = Answer(200, listing([
        card("Hangover Tea", "/product/hangover-tea/", category="health-wellness", price_html=woo_price("350.00")),
        card("Detox Tea", "/product/detox-tea/", category="health-wellness", price_html=woo_price(price)),
    ]))
    # when beat ticks
    assert tasks.auto_import_tick() == "started"
    run = ImporterRun.objects.order_by("-created_at").first()
    assert run.complete
    # then Detox is still on sale at its price
    detox = Product.objects.get(title="Detox Tea")
    assert (detox.price_amount, detox.is_active) == (Decimal("336"), True)
    # and it is not gone from the producer's site, in the e-mail nor in the dashboard's preview
    from importer.sync import diff_build
    diff = diff_build()
    assert detox not in diff.gone and diff.gone_checked
    assert [(product.title_en, item) for product, item in diff.refused] == [("Detox Tea", None)]
    [mail] = OutboundEmail.objects.filter(to=owner.email, subject__contains="scheduled import")
    gone = mail.text.split("Gone from the producer's site")[1]
    assert "Detox Tea" not in gone and "Ginger & Lemon" not in gone  # Ginger & Lemon is on page 2, still there
    assert ("Prices refused (the producer's price makes 0 EGP, more than a price can hold, or none could be "
            "read; the price on sale stays): 1\n- \u2068Detox Tea\u2069\n") in mail.text


@pytest.mark.parametrize("language", ["en", "ar"])
def test_one_product_the_database_refuses_does_not_stop_the_others_nor_the_owners_email(imported, owner, language,
                                                                                       detox_write_refused):
    # given the producer raised two prices, and the database refuses Detox Tea's write (a lock wait that timed
    # out, a value a column cannot hold)
    owner.language = language
    owner.save(update_fields=["language"])
    _producer_changes(imported)
    imported.routes["/product/hangover-tea/"] = Answer(200, imported.routes["/product/hangover-tea/"].body.replace(
        "350.00", "380.00"))
    imported.routes["/product-category/health-wellness/"] = Answer(200, listing([
        card("Detox Tea", "/product/detox-tea/", category="health-wellness", price_html=woo_price("460.00")),
        card("Hangover Tea", "/product/hangover-tea/", category="health-wellness", price_html=woo_price("380.00")),
    ]))
    # when beat ticks
    assert tasks.auto_import_tick() == "started"
    # then Detox is left whole (no price history without its price), the others are updated
    detox = Product.objects.get(title="Detox Tea")
    assert (detox.price_amount, detox.kes_price_amount) == (Decimal("336"), Decimal("420"))
    assert not PriceRecord.objects.filter(product=detox, reason="schedule").exists()
    assert Product.objects.get(title="Hangover Tea").kes_price_amount == Decimal("380")
    assert Product.objects.get(title="Kericho Gold Loose Leaf 500g").stock == 0
    # and the Owner still gets the summary, naming the product that was not updated
    [mail] = OutboundEmail.objects.filter(to=owner.email, language=language, subject__contains=(
        "الاستيراد المجدول" if language == "ar" else "scheduled import"))
    if language == "en":
        assert ("Not updated, an error stopped the change (the next scheduled import tries again): 1"
                "\n- \u2068Detox Tea\u2069\n") in mail.text
    else:
        assert "لم يُحدَّث" in mail.text and "\u2068Detox Tea\u2069" in mail.text


def test_a_product_staff_restocked_and_customers_sold_out_is_not_restocked_by_the_import(imported, owner):
    # given the producer marked the 500 g leaf out of stock and the scheduled import set it to 0
    from backoffice.products import StockAction, stock_adjust

    _producer_changes(imported)
    assert tasks.auto_import_tick() == "started"
    leaf = Product.objects.get(title="Kericho Gold Loose Leaf 500g")
    assert leaf.stock == 0
    # and then staff counted 10 packs on the shelf, which customers bought
    stock_adjust(actor=owner, product=leaf, action=StockAction.SET, amount=10)
    Product.objects.filter(pk=leaf.pk).update(stock=0)
    # when the producer has it again and the next scheduled import runs
    imported.routes["/product-category/black-tea/?paged=2"] = Answer(200, listing([
        card("Kericho Gold Loose Leaf 500g", "/product/loose-leaf-500g/", price_html=woo_price("890.00"))]))
    ImporterRun.objects.update(created_at=timezone.now() - timedelta(hours=25))
    assert tasks.auto_import_tick() == "started"
    # then the shop's own sell-out stays: the import undoes only the 0 it set itself (no 50 packs invented)
    leaf.refresh_from_db()
    assert leaf.stock == 0


def test_a_sale_price_far_below_the_one_on_sale_is_held_for_approval_not_applied_overnight(imported, owner):
    """The quarter's guard looked at the regular price only: a producer's card crossing out its usual 420 KES
    for a sale at 5 KES (a typo, a page tampered with) kept the regular price, so beat applied a sale price of
    4 EGP where customers paid 336, and anyone could buy the stock at about 1 %. The price customers pay is
    held as any jump is."""
    # given the producer's Detox Tea card: was 420 KES (336 EGP here), now 5 KES
    imported.routes["/product-category/health-wellness/"] = Answer(200, listing([
        card("Hangover Tea", "/product/hangover-tea/", category="health-wellness", price_html=woo_price("350.00")),
        card("Detox Tea", "/product/detox-tea/", category="health-wellness",
             price_html=f"<del>{woo_price('420.00')}</del> <ins>{woo_price('5.00')}</ins>"),
    ]))
    # when beat ticks
    assert tasks.auto_import_tick() == "started"
    # then Detox is still sold at its price, with no sale price
    detox = Product.objects.get(title="Detox Tea")
    assert (detox.price_amount, detox.sale_price_amount) == (Decimal("336"), None)
    # and the Owner is asked to check it, from the price customers pay to the one the sale would make
    [mail] = OutboundEmail.objects.filter(to=owner.email, subject__contains="scheduled import")
    assert "Price changes held for you to check (more than a quarter up or down): 1" in mail.text
    assert f"\u2068Detox Tea\u2069: {format_egp(336, 'en')} → {format_egp(4, 'en')}" in mail.text


def _detox_costs(site, kes):
    site.routes["/product-category/health-wellness/"] = Answer(200, listing([
        card("Hangover Tea", "/product/hangover-tea/", category="health-wellness", price_html=woo_price("350.00")),
        card("Detox Tea", "/product/detox-tea/", category="health-wellness", price_html=woo_price(kes)),
    ]))


def _night(owner):
    """A day later, beat ticks: the scheduled import's summary to the Owner."""
    ImporterRun.objects.update(created_at=timezone.now() - timedelta(hours=25))
    assert tasks.auto_import_tick() == "started"
    return OutboundEmail.objects.filter(to=owner.email).order_by("pk").last()


@pytest.mark.parametrize("language", ["en", "ar"])
def test_nights_that_each_move_a_price_less_than_a_quarter_are_held_once_they_add_up_to_more(imported, owner,
                                                                                             language):
    """The quarter's guard compared each night with the price on sale, so a tampered or faulty producer site
    could lower a price by 24 % every night, unattended: 336 EGP, 255, 194, 147… It is also measured from the
    price staff last approved (the first import, an applied preview), which an apply moves on."""
    owner.language = language
    owner.save(update_fields=["language"])
    detox = Product.objects.get(title="Detox Tea")  # imported at 420 KES: 336 EGP
    # when the producer's price falls by less than a quarter on a night
    _detox_costs(imported, "340.00")
    _night(owner)
    # then it is applied
    detox.refresh_from_db()
    assert detox.price_amount == Decimal("272")
    # when it falls by less than a quarter again, a third below the price staff approved
    _detox_costs(imported, "280.00")
    mail = _night(owner)
    # then it is held, and the Owner is told from which approved price it drifted
    detox.refresh_from_db()
    assert detox.price_amount == Decimal("272")
    if language == "en":
        assert "Price changes held for you to check (more than a quarter up or down): 1" in mail.text
        assert (f"\u2068Detox Tea\u2069: {format_egp(272, 'en')} → {format_egp(224, 'en')} "
                f"({format_egp(336, 'en')} when staff last approved it)") in mail.text
    else:
        assert f"({format_egp(336, 'ar')} عند آخر اعتماد له من الموظفين)" in mail.text
    # when staff apply it from the preview, and the next night moves it by less than a quarter again
    assert [p.pk for p in sync.diff_apply(user=owner, changed=[detox.pk]).updated] == [detox.pk]
    _detox_costs(imported, "230.00")
    _night(owner)
    # then it is applied: measured from the price staff approved
    detox.refresh_from_db()
    assert detox.price_amount == Decimal("184")
