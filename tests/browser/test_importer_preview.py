"""The diff before an import (new, repriced, gone; only the ticked ones applied) and an imported
product's price history in the product dialog, in English and Arabic, on a phone and a desktop."""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from catalog.models import Product
from importer import services
from importer.models import ImportedProduct
from importer.tests.test_schedule import _producer_changes
from shop.rates import rate_set_by_hand
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.test_importer_panel import login, recrawled_after

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def recrawled(settings, tmp_path, monkeypatch, owner):
    """Nine products imported; then the producer changed its catalogue and staff crawled again."""
    with recrawled_after(_producer_changes, settings, tmp_path, monkeypatch, owner) as site:
        yield site


def _panel(page, path):
    page.goto(path)
    page.locator('[data-island="admin-external-products"][data-mounted="true"]').wait_for()
    diff = page.get_by_test_id("import-diff")
    diff.get_by_test_id("diff-changed").wait_for()
    return diff


def test_staff_tick_the_changes_they_want_and_only_those_are_applied(new_page, live_server, recrawled, owner,
                                                                     screenshot):
    # given
    page = new_page(viewport=DESKTOP)
    login(page, live_server, owner)
    diff = _panel(page, "/admindash/external-products")
    # then the diff names the new product, the price change old → new and the gone product
    expect(diff.get_by_test_id("diff-new")).to_contain_text("New products (1)")
    expect(diff.get_by_test_id("diff-new")).to_contain_text("Moringa Green")
    detox = diff.get_by_test_id("diff-changed").locator("li", has_text="Detox Tea")
    expect(detox).to_contain_text(re.compile(r"E£336\.00 →\s+becomes E£368\.00"))  # "becomes" is for screen readers
    leaf = diff.get_by_test_id("diff-changed").locator("li", has_text="Kericho Gold Loose Leaf 500g")
    expect(leaf).to_contain_text("Out of stock at the producer")
    gone = diff.get_by_test_id("diff-gone").locator("li", has_text="Ginger & Lemon")
    expect(gone).to_contain_text("never deleted")
    # new and repriced start ticked, gone ones do not
    assert detox.get_by_role("checkbox").is_checked() and not gone.get_by_role("checkbox").is_checked()
    screenshot(page, "importer-diff-en-desktop")
    # when staff leave out the new product and the sold-out one and deactivate the gone one
    diff.get_by_test_id("diff-new").get_by_role("checkbox").last.uncheck()
    leaf.get_by_role("checkbox").uncheck()
    gone.get_by_role("checkbox").check()
    diff.get_by_role("button", name="Apply 2 changes").click()
    # then exactly those are applied
    page.get_by_text("Applied: 0 new, 1 updated, 1 deactivated.").first.wait_for()
    assert Product.objects.get(title="Detox Tea").price_amount == Decimal("368")
    assert Product.objects.get(title="Kericho Gold Loose Leaf 500g").stock == 50
    ginger = Product.objects.get(title="Ginger & Lemon")
    assert ginger.is_active is False and ImportedProduct.objects.get(product=ginger).gone_since
    assert not Product.objects.filter(title="Moringa Green").exists()
    # and the diff shows what is left
    expect(diff.get_by_test_id("diff-changed")).not_to_contain_text("Detox Tea")
    expect(diff.get_by_test_id("diff-new")).to_contain_text("Moringa Green")


@pytest.mark.parametrize("viewport,size", [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_the_diff_reads_right_to_left_in_arabic(new_page, live_server, recrawled, owner, screenshot, viewport, size):
    page = new_page(viewport=viewport, locale="ar-EG")
    login(page, live_server, owner)
    diff = _panel(page, "/ar/admindash/external-products")
    assert page.locator("html").get_attribute("dir") == "rtl"
    expect(diff.get_by_test_id("diff-new")).to_contain_text("منتجات جديدة (1)")
    detox = diff.get_by_test_id("diff-changed").locator("li", has_text="Detox Tea")
    expect(detox).to_contain_text(re.compile("336\\.00\u00a0ج\\.م ←\\s+يصبح 368\\.00\u00a0ج\\.م"))
    expect(diff.get_by_role("button", name="تطبيق 3 تغييرات")).to_be_visible()
    # nothing is wider than the screen
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    diff.scroll_into_view_if_needed()
    screenshot(page, f"importer-diff-ar-{size}")
    if size == "phone":
        page.set_viewport_size(PHONE)
        en = new_page(viewport=PHONE)
        login(en, live_server, owner)
        _panel(en, "/admindash/external-products")
        assert en.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(en, "importer-diff-en-phone")


@pytest.mark.parametrize("language,viewport,size", [
    ("en", DESKTOP, "desktop"), ("en", PHONE, "phone"), ("ar", DESKTOP, "desktop"), ("ar", PHONE, "phone")])
def test_the_product_dialog_shows_an_imported_products_price_history(new_page, live_server, recrawled, owner,
                                                                     screenshot, language, viewport, size):
    # given Detox Tea was imported at 420 KES and repriced at 460 KES
    from importer import sync

    detox = Product.objects.get(title="Detox Tea")
    sync.diff_apply(user=owner, changed=[detox.pk])
    page = new_page(viewport=viewport, locale="ar-EG" if language == "ar" else "en-GB")
    login(page, live_server, owner)
    # when the product dialog opens
    page.goto(f"{'/ar' if language == 'ar' else ''}/admindash/products")
    page.locator('[data-island="admin-products"][data-mounted="true"]').wait_for()
    row = page.locator("tr", has_text="Detox Tea")
    row.get_by_role("button", name="تعديل" if language == "ar" else "Edit").click()
    history = page.get_by_test_id("price-history")
    history.locator("tbody tr").nth(1).wait_for()
    # then both prices are listed, newest first, with KES, rate, markup and EGP
    rows = history.locator("tbody tr")
    assert rows.count() == 2
    first, second = rows.nth(0).inner_text(), rows.nth(1).inner_text()
    if language == "en":
        assert "KSh\u00a0460" in first and "0.4" in first and "100%" in first and "E£368.00" in first
        assert "KSh\u00a0420" in second and "E£336.00" in second
        expect(history).to_contain_text("Import price history")
    else:
        assert "460\u00a0شلن" in first and "368.00\u00a0ج.م" in first
        expect(history).to_contain_text("سجل أسعار الاستيراد")
    history.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_path(f"importer-price-history-{language}-{size}")))


def screenshot_path(name):
    from tests.browser.conftest import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_producer_price_that_makes_0_egp_is_named_refused_never_offered(new_page, live_server, recrawled, owner,
                                                                         language):
    # given the producer's Detox Tea and sold-out 500 g leaf now say KSh 0.50: round(0.50 × 0.40 × 2) = 0 EGP
    from importer.models import ExternalProduct

    ExternalProduct.objects.filter(name__in=["Detox Tea", "Kericho Gold Loose Leaf 500g"]).update(price=Decimal("0.50"))
    # and Ginger & Lemon's page showed no price the crawl could use (negative, too large)
    from importer.models import ImporterRun

    ginger = Product.objects.get(title="Ginger & Lemon")
    ImporterRun.objects.filter(pk=ImporterRun.objects.order_by("-created_at").first().pk).update(
        unpriced=[ginger.source_url])
    page = new_page(viewport=PHONE, locale="ar-EG" if language == "ar" else "en-GB")
    login(page, live_server, owner)
    # when staff open the diff
    diff = _panel(page, f"{'/ar' if language == 'ar' else ''}/admindash/external-products")
    # then Detox is named refused (no checkbox), the sold-out leaf is offered for its stock at its own price
    refused = diff.get_by_test_id("diff-refused")
    leaf = diff.get_by_test_id("diff-changed").locator("li", has_text="Kericho Gold Loose Leaf 500g")
    expect(diff.get_by_test_id("diff-changed")).not_to_contain_text("Detox Tea")
    assert refused.get_by_role("checkbox").count() == 0
    expect(diff.get_by_test_id("diff-gone")).to_have_count(0)  # Ginger & Lemon is not gone: its price was refused
    if language == "en":
        expect(refused).to_contain_text("Prices refused, the price on sale stays: the producer's price makes 0 EGP, "
                                        "more than a price can hold, or none could be read (3)")
        expect(refused.locator("li", has_text="Detox Tea")).to_contain_text("(0.50 KES)")
        expect(refused.locator("li", has_text="Ginger & Lemon")).to_contain_text(
            "(no price the shop can use on the producer's site)")
        expect(leaf).to_contain_text("Price kept: the producer's was refused")
        expect(leaf).to_contain_text("E£712.00")
        expect(leaf).not_to_contain_text("E£0.00")
    else:
        expect(refused).to_contain_text("أسعار مرفوضة")
        expect(refused.locator("li", has_text="Detox Tea")).to_contain_text("0.50 شلن كيني")
        expect(refused.locator("li", has_text="Ginger & Lemon")).to_contain_text("لا سعر صالحًا")
        expect(leaf).to_contain_text("بقي السعر")
        expect(leaf).not_to_contain_text("0.00\u00a0ج.م ")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize(("viewport", "size", "language"), [(DESKTOP, "desktop", "en"), (PHONE, "phone", "ar")])
def test_a_rate_refreshed_while_staff_read_the_preview_is_shown_before_anything_is_applied(
        new_page, live_server, recrawled, owner, screenshot, viewport, size, language):
    # given staff read the preview priced at 0.40, and leave the new product out
    page = new_page(viewport=viewport, locale="ar-EG" if language == "ar" else "en-US")
    login(page, live_server, owner)
    diff = _panel(page, "/ar/admindash/external-products" if language == "ar" else "/admindash/external-products")
    detox = diff.get_by_test_id("diff-changed").locator("li", has_text="Detox Tea")
    expect(detox).to_contain_text("368.00")
    diff.get_by_test_id("diff-new").get_by_role("checkbox").last.uncheck()
    # when the rate is refreshed before they click Apply
    rate_set_by_hand(rate="0.5")
    diff.locator(".importer-diff__foot button").click()
    # then nothing is applied: they are told why and shown the prices at the new rate, their ticks kept
    notice = diff.get_by_test_id("diff-repriced")
    expect(notice).to_contain_text("0.5")
    expect(notice).to_contain_text("تغيّر سعر الصرف" if language == "ar" else "The exchange rate or markup changed")
    expect(detox).to_contain_text("460.00")
    expect(page.get_by_test_id("preview-item").filter(has_text="Detox Tea")).to_contain_text("460.00")
    assert Product.objects.get(title="Detox Tea").price_amount == Decimal("336")
    assert not diff.get_by_test_id("diff-new").get_by_role("checkbox").last.is_checked()
    screenshot(page, f"importer-diff-repriced-{language}-{size}")
    # when they apply what they now see
    diff.locator(".importer-diff__foot button").click()
    # then it is applied at the prices shown
    expect(detox).to_have_count(0)
    assert Product.objects.get(title="Detox Tea").price_amount == Decimal("460")
    assert not Product.objects.filter(title="Moringa Green").exists()


@pytest.mark.parametrize(("viewport", "size", "language"), [(DESKTOP, "desktop", "en"), (PHONE, "phone", "ar")])
def test_a_crawl_since_the_preview_is_shown_before_anything_is_applied(
        new_page, live_server, recrawled, owner, screenshot, viewport, size, language):
    # given staff read the preview, the new product and Detox Tea ticked, the sold-out one left out
    page = new_page(viewport=viewport, locale="ar-EG" if language == "ar" else "en-US")
    login(page, live_server, owner)
    diff = _panel(page, "/ar/admindash/external-products" if language == "ar" else "/admindash/external-products")
    diff.get_by_test_id("diff-changed").locator("li", has_text="Kericho Gold Loose Leaf 500g").get_by_role(
        "checkbox").uncheck()
    # when another crawl replaces the cached products (its new product gets a new id) before they click Apply
    services.run_start(user=owner, max_pages=100)
    previews = []
    page.on("response", lambda answer: "/api/admin/scrape/preview" in answer.url and previews.append(answer))
    diff.locator(".importer-diff__foot button").click()
    # then nothing is applied: they are told why and shown the latest crawl, their ticks kept
    notice = diff.get_by_test_id("diff-repriced")
    expect(notice).to_contain_text("زُحف موقع المنتِج من جديد" if language == "ar" else "crawled again")
    for _wait in range(50):  # the preview is read again twice: after the refusal, and as the panel's status moves
        if len(previews) >= 2:
            break
        page.wait_for_timeout(100)
    page.wait_for_load_state("networkidle")
    assert Product.objects.get(title="Detox Tea").price_amount == Decimal("336")
    assert not Product.objects.filter(title="Moringa Green").exists()
    moringa = diff.get_by_test_id("diff-new").locator("li", has_text="Moringa Green").get_by_role("checkbox")
    expect(moringa).to_be_checked()
    expect(diff.get_by_test_id("diff-changed").locator("li", has_text="Kericho Gold Loose Leaf 500g").get_by_role(
        "checkbox")).not_to_be_checked()
    screenshot(page, f"importer-diff-recrawled-{language}-{size}")
    # when they apply what they now see
    diff.locator(".importer-diff__foot button").click()
    # then it is applied
    expect(diff.get_by_test_id("diff-changed").locator("li", has_text="Detox Tea")).to_have_count(0)
    assert Product.objects.get(title="Detox Tea").price_amount == Decimal("368")
    assert Product.objects.filter(title="Moringa Green").exists()
