from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from backoffice.models import AuditEntry
from catalog.models import Product
from tests.factories import make_category, make_product, make_review


@pytest.fixture
def as_manager(client, manager):
    client.force_login(manager)
    return client


@pytest.mark.django_db
class TestProductsApi:
    def test_it_creates_a_product_in_the_default_category_and_audits_it(self, as_manager, manager):
        # given
        make_category("black-tea")
        # when
        response = as_manager.post("/api/admin/products", {
            "title": "Kenya Breakfast", "price": "150.50", "stock": 12, "tags": [" strong ", "", "morning"],
        }, content_type="application/json")
        # then
        assert response.status_code == 201, response.content
        body = response.json()
        assert body["category"] == "black-tea" and body["slug"] == "kenya-breakfast"
        assert body["tags"] == ["strong", "morning"] and body["price"] == "150.50"
        entry = AuditEntry.objects.get(action="product.create")
        assert entry.actor == manager and entry.details == "Kenya Breakfast"

    def test_it_refuses_an_unknown_category_slug_with_a_field_error(self, as_manager):
        make_category("black-tea")
        response = as_manager.post("/api/admin/products", {"title": "X", "price": "1", "category": "coffee"},
                                   content_type="application/json")
        assert response.status_code == 400
        assert response.json()["field"] == "category"

    def test_it_requires_a_title(self, as_manager):
        response = as_manager.post("/api/admin/products", {"title": " ", "price": "1"}, content_type="application/json")
        assert response.status_code == 400
        assert response.json() == {"error": "Title is required", "message": "Title is required", "field": "title"}

    def test_an_update_changes_only_the_fields_sent(self, as_manager):
        product = make_product(title="Chai", stock=3)
        response = as_manager.put(f"/api/admin/products/{product.pk}", {"salePrice": "99.00"},
                                  content_type="application/json")
        assert response.status_code == 200
        product.refresh_from_db()
        assert product.sale_price_amount == Decimal("99.00") and product.title_en == "Chai" and product.stock == 3
        assert response.json()["stockWarning"] is True and response.json()["stockStatus"] == "low"

    def test_delete_all_removes_every_product_for_the_owner_only(self, client, owner, manager):
        make_product(title="A")
        make_product(title="B")
        client.force_login(manager)
        assert client.delete("/api/admin/products").status_code == 403
        client.force_login(owner)
        response = client.delete("/api/admin/products")
        assert response.status_code == 200 and response.json()["deleted"] == 2
        assert not Product.objects.exists()
        assert AuditEntry.objects.filter(action="product.delete_all", actor=owner).exists()

    def test_delete_all_counts_the_products_not_the_rows_that_went_with_them(self, client, owner):
        # given: two products, one with two reviews (deleted with it)
        tea = make_product(title="A")
        make_product(title="B")
        make_review(product=tea)
        make_review(product=tea)
        client.force_login(owner)
        # when
        response = client.delete("/api/admin/products")
        # then: the answer and the audit entry say 2, not 4
        assert response.json()["deleted"] == 2
        assert AuditEntry.objects.get(action="product.delete_all").details.endswith(": 2")

    def test_an_uploaded_image_lands_in_media(self, as_manager, settings, tmp_path):
        from backoffice.tests.test_role_matrix import PNG

        settings.MEDIA_ROOT = tmp_path
        response = as_manager.post("/api/admin/products/images",
                                   {"image": SimpleUploadedFile("leaf.png", PNG, content_type="image/png")})
        assert response.status_code == 201
        url = response.json()["url"]
        assert url.startswith("/media/products/leaf-") and url.endswith(".png")
        assert (tmp_path / url.removeprefix("/media/")).read_bytes() == PNG

    def test_it_refuses_an_svg_disguised_as_an_image(self, as_manager, settings, tmp_path):
        settings.MEDIA_ROOT = tmp_path
        svg = SimpleUploadedFile("x.png", b"<svg onload=alert(1)>", content_type="image/png")
        response = as_manager.post("/api/admin/products/images", {"image": svg})
        assert response.status_code == 400 and response.json()["field"] == "image"


@pytest.mark.django_db
class TestGenerators:
    @pytest.fixture(autouse=True)
    def _needs_generators(self):
        pytest.importorskip("importer.categorize")

    def test_ai_categorize_moves_a_product_to_the_rule_based_category(self, as_manager):
        make_category("green-tea", "Green Tea")
        product = make_product(title="Jasmine Green Tea Sencha")
        response = as_manager.post(f"/api/admin/products/{product.pk}/categorize")
        assert response.status_code == 200
        assert response.json()["category"] == "green-tea"
        assert "auto-categorized" in response.json()["tags"]

    def test_ai_description_writes_both_languages(self, as_manager):
        product = make_product(title="Kenya Gold", price="400.00")
        response = as_manager.post(f"/api/admin/products/{product.pk}/describe")
        assert response.status_code == 200
        product.refresh_from_db()
        assert "Kenya Gold" in product.description_en and product.description_ar

    def test_bulk_categorize_takes_at_most_five(self, as_manager):
        ids = [make_product(title=f"Tea {n}").pk for n in range(6)]
        response = as_manager.post("/api/admin/products/categorize", {"ids": ids}, content_type="application/json")
        assert response.status_code == 400

    def test_the_form_suggestion_needs_a_title(self, as_manager):
        response = as_manager.post("/api/admin/products/suggest-category", {"title": ""},
                                   content_type="application/json")
        assert response.json()["message"] == "Please enter a product title first"
