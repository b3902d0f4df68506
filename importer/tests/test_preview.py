"""The preview before an import: new, repriced and gone products; only the checked ones applied."""

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from backoffice.products import product_save
from catalog.models import Product
from importer import services
from importer.models import ImportedProduct, PriceRecord
from importer.tests.fake_site import Answer
from importer.tests.test_schedule import _producer_changes
from shop.rates import rate_set_by_hand
from shop.store_settings import store_settings_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(owner):
    client = APIClient()
    client.force_login(owner)
    return client


@pytest.fixture
def recrawled(shop_setup, crawl, owner):
    """Nine products imported, then the producer changed things and staff crawled again."""
    crawl(user=owner, max_pages=100)
    services.external_products_import(user=owner)
    _producer_changes(shop_setup)
    crawl(user=owner, max_pages=100)
    return shop_setup


def test_the_preview_lists_new_repriced_and_gone_products_and_writes_nothing(recrawled, staff):
    # given
    before = list(Product.objects.order_by("pk").values_list("price_amount", "stock", "is_active"))
    # when
    answer = staff.get("/api/admin/scrape/preview")
    # then
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert [p["name"] for p in body["new"]] == ["Moringa Green"]
    assert body["new"][0]["priceEgp"] == "400.00"  # round(500 × 0.40 × 2)
    changed = {c["title"]: c for c in body["changed"]}
    assert (changed["Detox Tea"]["oldEgp"], changed["Detox Tea"]["newEgp"]) == ("336.00", "368.00")
    assert changed["Kericho Gold Loose Leaf 500g"]["inStock"] is False  # same price, sold out
    assert body["goneChecked"] is True and [g["title"] for g in body["gone"]] == ["Ginger & Lemon"]
    assert list(Product.objects.order_by("pk").values_list("price_amount", "stock", "is_active")) == before


@pytest.mark.parametrize("cut_short", ["page limit", "a page that failed", "403", "401", "408", "400", "empty"])
def test_a_crawl_cut_short_calls_no_product_gone(shop_setup, crawl, owner, staff, cut_short):
    # given nine products imported, then a crawl that did not read the whole site: a page failed, or answered
    # a refusal (a firewall's challenge, a sign-in wall, the server's timeout) in place of its products
    crawl(user=owner, max_pages=100)
    services.external_products_import(user=owner)
    if cut_short == "a page that failed":
        shop_setup.routes["/shop/page/2/"] = Answer(500, "down")
        crawl(user=owner, max_pages=100)
    elif cut_short.isdigit():
        shop_setup.routes["/shop/page/2/"] = Answer(int(cut_short), "<html><body>Access denied</body></html>")
        run = crawl(user=owner, max_pages=100)
        assert run.complete is False and any(f"HTTP {cut_short}" in e for e in run.errors)
    elif cut_short == "empty":  # a proxy's hiccup: 200 with no body
        shop_setup.routes["/shop/page/2/"] = Answer(200, "")
        run = crawl(user=owner, max_pages=100)
        assert run.complete is False and any("HTTP 200, empty" in e for e in run.errors)
    else:
        crawl(user=owner, max_pages=3)
    # when
    body = staff.get("/api/admin/scrape/preview").json()
    # then nothing it did not reach is offered for deactivation
    assert body["goneChecked"] is False and body["gone"] == []


def test_only_the_checked_changes_are_applied_and_gone_products_are_deactivated_not_deleted(recrawled, staff):
    # given
    body = staff.get("/api/admin/scrape/preview").json()
    detox = next(c["id"] for c in body["changed"] if c["title"] == "Detox Tea")
    leaf = next(c["id"] for c in body["changed"] if c["title"] == "Kericho Gold Loose Leaf 500g")
    ginger = body["gone"][0]["id"]
    count = Product.objects.count()
    # when staff tick Detox Tea's new price and Ginger & Lemon's deactivation only
    answer = staff.post("/api/admin/scrape/apply", {"changed": [detox], "gone": [ginger]}, format="json")
    # then
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"created": 0, "updated": 1, "deactivated": 1, "errors": []}
    assert Product.objects.get(pk=detox).price_amount == Decimal("368")
    assert Product.objects.get(pk=leaf).stock == 50  # not ticked: untouched
    gone = Product.objects.get(pk=ginger)
    assert gone.is_active is False and ImportedProduct.objects.get(product=gone).gone_since is not None
    assert Product.objects.count() == count and not Product.objects.filter(title="Moringa Green").exists()
    # and the preview no longer offers what was applied
    again = staff.get("/api/admin/scrape/preview").json()
    assert detox not in [c["id"] for c in again["changed"]] and again["gone"] == []


def test_a_ticked_new_product_is_created(recrawled, staff):
    new = staff.get("/api/admin/scrape/preview").json()["new"][0]["id"]
    answer = staff.post("/api/admin/scrape/apply", {"new": [new]}, format="json")
    assert answer.json()["created"] == 1
    assert Product.objects.get(title="Moringa Green").price_amount == Decimal("400")


def test_applying_nothing_is_a_field_error(recrawled, staff):
    answer = staff.post("/api/admin/scrape/apply", {}, format="json")
    assert answer.status_code == 400 and "Tick at least one" in answer.json()["error"]


def test_support_may_look_at_the_preview_but_not_apply_it(recrawled, support):
    client = APIClient()
    client.force_login(support)
    assert client.get("/api/admin/scrape/preview").status_code == 200
    assert client.post("/api/admin/scrape/apply", {"gone": [1]}, format="json").status_code == 403


def test_each_imported_product_keeps_its_price_history(recrawled, staff, owner):
    # given Detox Tea was imported at 420 KES and repriced at 460 KES
    body = staff.get("/api/admin/scrape/preview").json()
    detox = next(c["id"] for c in body["changed"] if c["title"] == "Detox Tea")
    staff.post("/api/admin/scrape/apply", {"changed": [detox]}, format="json")
    # when
    answer = staff.get(f"/api/admin/scrape/products/{detox}/prices")
    # then newest first: KES, rate, markup, EGP, when
    history = answer.json()["history"]
    assert [(h["kes"], h["rate"], h["markup"], h["egp"]) for h in history] == [
        ("460.00", "0.4", "100", "368.00"), ("420.00", "0.4", "100", "336.00")]
    assert all(h["recordedAt"] for h in history)
    # and the dashboard's product answer says it is imported
    product = staff.get("/api/admin/products").json()["results"]
    assert next(p for p in product if p["id"] == detox)["sourceUrl"].endswith("/product/detox-tea/")


def test_staff_edits_of_imported_products_are_remembered(recrawled, owner):
    hangover = Product.objects.get(title="Hangover Tea")
    product_save(actor=owner, product=hangover, data={"title_en": "Hangover Tea", "description_en": "Ours."})
    assert ImportedProduct.objects.get(product=hangover).staff_edited == ["description_en"]
    assert PriceRecord.objects.filter(product=hangover).count() == 1


@pytest.mark.parametrize("language, message", [
    ("en", "\u2068Detox Tea\u2069 was not updated: an error stopped the change; try again."),
    ("ar", "لم يُحدَّث \u2068Detox Tea\u2069: أوقف خطأٌ التغيير؛ حاول مرة أخرى."),
])
def test_a_ticked_change_the_database_refuses_is_named_and_the_others_are_applied(recrawled, staff, language,
                                                                                  message, detox_write_refused):
    # given staff tick Detox Tea's new price and the sold-out leaf, and the database refuses Detox's write
    body = staff.get("/api/admin/scrape/preview").json()
    ids = {c["title"]: c["id"] for c in body["changed"]}
    # when
    answer = staff.post("/api/admin/scrape/apply", {"changed": [ids["Detox Tea"], ids["Kericho Gold Loose Leaf 500g"]]},
                        format="json", HTTP_ACCEPT_LANGUAGE=language)
    # then the answer says what was applied and names the one that was not, which is left whole
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"created": 0, "updated": 1, "deactivated": 0, "errors": [message]}
    detox = Product.objects.get(title_en="Detox Tea")
    assert (detox.price_amount, detox.kes_price_amount) == (Decimal("336"), Decimal("420"))
    assert Product.objects.get(title_en="Kericho Gold Loose Leaf 500g").stock == 0
    # and the preview still offers it
    again = staff.get("/api/admin/scrape/preview").json()
    assert [c["title"] for c in again["changed"]] == ["Detox Tea"]


def test_an_apply_prices_as_its_preview_showed_or_applies_nothing(recrawled, staff):
    # given staff read the preview, priced at 0.40 with a 100 % markup
    body = staff.get("/api/admin/scrape/preview").json()
    assert body["pricing"] == {"rate": "0.40000000", "markup": "100.00"}
    detox = next(c for c in body["changed"] if c["title"] == "Detox Tea")
    moringa = body["new"][0]
    assert (detox["newEgp"], moringa["priceEgp"]) == ("368.00", "400.00")
    before = Product.objects.get(pk=detox["id"]).price_amount
    # when the rate is refreshed while they read it, and they apply what they ticked
    rate_set_by_hand(rate="0.5")
    ticked = {"changed": [detox["id"]], "new": [moringa["id"]], **body["pricing"]}
    answer = staff.post("/api/admin/scrape/apply", ticked, format="json", HTTP_ACCEPT_LANGUAGE="ar")
    # then nothing is applied, and they are told why, in their language
    assert answer.status_code == 409
    assert answer.json()["error"] == (
        "تغيّر سعر الصرف أو هامش الربح منذ هذه المعاينة (كان 1 شلن كيني = 0.4 جنيه بهامش 100%، والآن 0.5 جنيه "
        "بهامش 100%). لم يُطبَّق شيء: تعرض المعاينة الآن الأسعار الجديدة؛ راجعها ثم طبّقها من جديد.")
    assert Product.objects.get(pk=detox["id"]).price_amount == before
    assert not Product.objects.filter(title="Moringa Green").exists()
    # when they read the preview again, at the new rate, and apply it
    again = staff.get("/api/admin/scrape/preview").json()
    assert again["pricing"] == {"rate": "0.50000000", "markup": "100.00"}
    assert next(c for c in again["changed"] if c["id"] == detox["id"])["newEgp"] == "460.00"
    answer = staff.post("/api/admin/scrape/apply", {**ticked, **again["pricing"]}, format="json")
    # then exactly the prices they were shown are applied
    assert answer.status_code == 200, answer.content
    assert Product.objects.get(pk=detox["id"]).price_amount == Decimal("460")
    assert Product.objects.get(title="Moringa Green").price_amount == Decimal("500")


def test_an_apply_whose_markup_changed_since_its_preview_applies_nothing(recrawled, staff):
    body = staff.get("/api/admin/scrape/preview").json()
    detox = next(c["id"] for c in body["changed"] if c["title"] == "Detox Tea")
    before = Product.objects.get(pk=detox).price_amount
    store_settings_update(importer_markup=120)
    answer = staff.post("/api/admin/scrape/apply", {"changed": [detox], **body["pricing"]}, format="json")
    assert answer.status_code == 409
    assert "(1 KES made 0.4 EGP at a 100% markup; now 0.4 EGP at 120%)" in answer.json()["error"]
    assert Product.objects.get(pk=detox).price_amount == before


@pytest.mark.parametrize("since", ["a crawl finished", "a crawl cut short"])
def test_an_apply_whose_preview_another_crawl_replaced_applies_nothing(recrawled, staff, crawl, owner, since):
    # given staff read the preview, built from the last crawl
    body = staff.get("/api/admin/scrape/preview").json()
    detox = next(c["id"] for c in body["changed"] if c["title"] == "Detox Tea")
    before = Product.objects.get(pk=detox).price_amount
    ticked = {"changed": [detox], "new": [body["new"][0]["id"]], "runId": body["runId"], **body["pricing"]}
    # when another crawl runs before they click Apply (it replaces the cached products; cut short, it proves no
    # product gone either), and they apply what they ticked
    if since == "a crawl cut short":
        recrawled.routes["/shop/page/2/"] = Answer(500, "down")
    crawl(user=owner, max_pages=100)
    answer = staff.post("/api/admin/scrape/apply", ticked, format="json", HTTP_ACCEPT_LANGUAGE="ar")
    # then nothing is applied, and they are told why, in their language
    assert answer.status_code == 409, answer.content
    assert answer.json()["error"] == ("زُحف موقع المنتِج من جديد منذ هذه المعاينة. لم يُطبَّق شيء: تعرض المعاينة "
                                      "الآن آخر زحف؛ راجعها ثم طبّقها من جديد.")
    assert Product.objects.get(pk=detox).price_amount == before
    assert not Product.objects.filter(title="Moringa Green").exists()
    # when they read the preview again and apply it
    again = staff.get("/api/admin/scrape/preview").json()
    assert again["runId"] != body["runId"]
    moringa = [n["id"] for n in again["new"] if n["name"] == "Moringa Green"]
    answer = staff.post("/api/admin/scrape/apply", {"changed": [detox], "new": moringa, "runId": again["runId"],
                                                    **again["pricing"]}, format="json")
    # then it is applied
    assert answer.status_code == 200, answer.content
    assert Product.objects.get(pk=detox).price_amount == Decimal("368")
    assert Product.objects.filter(title="Moringa Green").exists()


def test_an_apply_without_a_run_id_is_applied_against_the_latest_crawl_as_before(recrawled, staff):
    body = staff.get("/api/admin/scrape/preview").json()
    detox = next(c["id"] for c in body["changed"] if c["title"] == "Detox Tea")
    answer = staff.post("/api/admin/scrape/apply", {"changed": [detox]}, format="json")
    assert answer.status_code == 200, answer.content
    assert Product.objects.get(pk=detox).price_amount == Decimal("368")
