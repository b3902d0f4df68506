import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from catalog.models import Product
from tests.factories import make_category, make_product


def _upload(text):
    return SimpleUploadedFile("products.csv", text.encode("utf-8"), content_type="text/csv")


@pytest.mark.django_db
class TestProductCsv:
    def test_an_export_reimported_changes_nothing(self, client, manager):
        # given: products with Arabic text, lists, a sale price and a formula-looking title
        make_category("green-tea", "Green Tea")
        make_product(title="Kenya Gold", title_ar="ذهب كينيا", tags=["strong", "morning"], sale_price_amount="99.50",
                          flavor_notes=["malt"], images=["/media/a.png"], is_featured=True)
        make_product(title="=HYPERLINK(\"x\")", slug="formula", category_slug="green-tea", stock=0,
                          description_en="Line one\nline two, with comma")
        client.force_login(manager)
        before = list(Product.objects.order_by("pk").values())
        exported = client.get("/api/admin/products/export").content.decode("utf-8")
        # when
        response = client.post("/api/admin/products/import", {"file": _upload(exported.lstrip("\ufeff"))})
        # then
        assert response.status_code == 200, response.content
        assert response.json() == {"created": 0, "updated": 0, "unchanged": 2, "errors": []}
        assert list(Product.objects.order_by("pk").values()) == before
        assert "'=HYPERLINK" in exported  # spreadsheets do not run it

    def test_an_import_creates_new_rows_and_updates_changed_ones(self, client, manager):
        make_product(title="Kenya Gold", stock=5)
        client.force_login(manager)
        csv = "slug,title,price,stock,tags\nkenya-gold,Kenya Gold,120.00,40,\n,Fresh Chai,80,7,spicy|warm\n"
        response = client.post("/api/admin/products/import", {"file": _upload(csv)})
        assert response.json()["created"] == 1 and response.json()["updated"] == 1
        assert Product.objects.get(slug="kenya-gold").stock == 40
        assert Product.objects.get(slug="fresh-chai").tags == ["spicy", "warm"]

    def test_a_slug_typed_as_words_finds_the_product_it_made_when_imported_again(self, client, manager):
        # given: a file whose slug cell is not in slug form, imported once
        make_category()
        client.force_login(manager)
        csv = "slug,title,price,category\nEarl Grey Special,Earl Grey Special,120.00,black-tea\n"
        first = client.post("/api/admin/products/import", {"file": _upload(csv)}).json()
        # when: imported again (say, after fixing another row)
        again = client.post("/api/admin/products/import", {"file": _upload(csv)}).json()
        # then: the one product it made, found by the slug creation gave it
        assert first["created"] == 1 and again == {"created": 0, "updated": 0, "unchanged": 1, "errors": []}
        assert list(Product.objects.values_list("slug", flat=True)) == ["earl-grey-special"]

    def test_a_file_is_read_like_typed_text_no_direction_controls_and_western_digits(self, client, manager):
        # a supplier's file whose title reverses what follows it ("Kenya Gold" + RLO + "gnp.exe" shows
        # "exe.png"), with Eastern Arabic digits in the price and stock, as the dashboard's form would read them
        make_category()
        client.force_login(manager)
        csv = "title,title_ar,price,stock\nKenya Gold\u202egnp.exe,\u2067ذهب كينيا\u2069,١٢٠,٥\n"
        report = client.post("/api/admin/products/import", {"file": _upload(csv)}).json()
        assert report["created"] == 1, report
        product = Product.objects.get()
        assert (product.title_en, product.title_ar) == ("Kenya Goldgnp.exe", "ذهب كينيا")
        assert (str(product.price_amount), product.stock) == ("120.00", 5)

    def test_it_reports_bad_rows_and_keeps_the_good_ones(self, client, manager):
        make_category()
        client.force_login(manager)
        csv = "title,price\n,10\nGood tea,abc\nFine tea,5\n"
        report = client.post("/api/admin/products/import", {"file": _upload(csv)}).json()
        assert report["created"] == 1
        assert [(e["row"], e["field"]) for e in report["errors"]] == [(2, "title"), (3, "price")]

    def test_a_bad_item_in_a_list_and_an_unreadable_row_are_reported_not_a_500(self, client, manager):
        # given a row whose second tag is too long, a good row, then a cell past the csv module's limit
        make_category()
        client.force_login(manager)
        csv = (f"title,price,tags\nFirst tea,10,ok|{'t' * 150}\nFine tea,5,\n"
               f"Long tea,5,{'x' * 140_000}\nAfter tea,5,\n")
        # when
        response = client.post("/api/admin/products/import", {"file": _upload(csv)}, HTTP_ACCEPT_LANGUAGE="ar")
        # then the good row is made, each bad one reported with its row, and nothing after the unreadable one
        assert response.status_code == 200, response.content
        report = response.json()
        assert report["created"] == 1 and Product.objects.get().title_en == "Fine tea"
        assert [(e["row"], e["field"]) for e in report["errors"]] == [(2, "tags"), (4, None)]
        assert report["errors"][1]["message"] == "تعذّرت قراءة هذا الصف"

    @pytest.mark.parametrize("price, sale, field", [("0", "", "price"), ("10", "0", "sale_price")])
    def test_a_price_of_zero_is_refused_never_sold_free(self, client, manager, price, sale, field):
        make_category()
        client.force_login(manager)
        report = client.post("/api/admin/products/import",
                             {"file": _upload(f"title,price,sale_price\nFree tea,{price},{sale}\n")}).json()
        assert report["created"] == 0 and [e["field"] for e in report["errors"]] == [field]
        response = client.post("/api/admin/products", {"title": "Free tea", "price": price, "salePrice": sale or None},
                               content_type="application/json", HTTP_ACCEPT_LANGUAGE="ar")
        assert response.status_code == 400 and Product.objects.count() == 0
        assert response.json()["message"] in ("يجب أن يكون السعر أكبر من 0", "يجب أن يكون سعر التخفيض أكبر من 0")
