import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from shop.models import Announcement
from shop.store_settings import store_settings_get, store_settings_update
from tests.factories import make_product


@pytest.mark.django_db
class TestShell:
    def test_the_header_shows_the_store_name_from_settings(self, client):
        store_settings_update(store_name="Chai Corner")
        assert b"Chai Corner" in client.get("/").content

    def test_unknown_pages_get_the_404_page(self, client):
        response = client.get("/no-such-page")
        assert response.status_code == 404
        assert b"Oops! Page not found" in response.content
        assert b'href="/"' in response.content

    def test_unknown_arabic_pages_get_the_arabic_404(self, client):
        response = client.get("/ar/no-such-page")
        assert response.status_code == 404
        assert "عفوًا! الصفحة غير موجودة".encode() in response.content

    def test_a_signed_in_customer_is_welcomed_by_name(self, client, alice):
        client.force_login(alice)
        body = client.get("/").content.decode()
        assert "Welcome, <bdi>Alice</bdi>" in body
        assert "Logout" in body

    def test_it_shows_the_main_announcement(self, client):
        now = timezone.now()
        Announcement.objects.create(title="Eid offer", content="10% off", display_end_date=now + timedelta(days=3))
        Announcement.objects.create(
            title="Ramadan hours", content="We ship until 2am", is_main=True,
            display_end_date=now + timedelta(days=3),
        )
        Announcement.objects.create(
            title="Expired", content="old", is_main=True, display_end_date=now - timedelta(days=1)
        )
        body = client.get("/").content.decode()
        assert "Ramadan hours" in body
        assert "Expired" not in body

    def test_an_announcement_text_is_escaped(self, client):
        Announcement.objects.create(
            title="<script>alert(1)</script>", content="x", display_end_date=timezone.now() + timedelta(days=1)
        )
        body = client.get("/").content.decode()
        assert "<script>alert(1)</script>" not in body
        assert "&lt;script&gt;" in body


@pytest.mark.django_db
class TestMaintenanceMode:
    def test_it_replaces_the_storefront(self, client):
        store_settings_update(maintenance_mode=True)
        for path in ("/", "/ar/", "/shop", "/no-such-page"):
            response = client.get(path)
            assert response.status_code == 503, path
        assert b"Site Under Maintenance" in client.get("/").content

    def test_the_api_says_so_in_json(self, client):
        store_settings_update(maintenance_mode=True)
        response = client.get("/api/products")
        assert response.status_code == 503
        assert response.json()["error"] == "Site Under Maintenance"

    def test_staff_still_see_the_shop(self, client, owner):
        store_settings_update(maintenance_mode=True)
        client.force_login(owner)
        assert client.get("/").status_code == 200

    def test_a_staff_account_without_a_role_is_a_shopper_like_any_other(self, client, owner):
        # given: a staff account whose role was taken away
        store_settings_update(maintenance_mode=True)
        owner.role = ""
        owner.save(update_fields=["role"])
        client.force_login(owner)
        # when
        response = client.get("/")
        # then
        assert response.status_code == 503
        assert "data-maintenance-banner" not in response.content.decode()

    @pytest.mark.parametrize(("path", "banner"), [
        ("/", "Maintenance mode is on: shoppers see the maintenance page"),
        ("/ar/", "وضع الصيانة مفعّل: يرى المتسوقون صفحة الصيانة")])
    def test_staff_see_a_banner_saying_shoppers_get_the_maintenance_page(self, client, support, path, banner):
        # given
        store_settings_update(maintenance_mode=True)
        client.force_login(support)
        # when
        body = client.get(path).content.decode()
        # then
        assert banner in body

    def test_there_is_no_banner_when_the_shop_is_open(self, client, owner):
        # given
        client.force_login(owner)
        # when
        body = client.get("/").content.decode()
        # then
        assert "data-maintenance-banner" not in body

    def test_it_is_seen_at_once_through_the_shared_cache(self, client):
        assert client.get("/").status_code == 200
        assert store_settings_get().maintenance_mode is False
        store_settings_update(maintenance_mode=True)
        assert client.get("/").status_code == 503
        store_settings_update(maintenance_mode=False)
        assert client.get("/").status_code == 200


CART_SENTENCE = re.compile(r'data-island="cart-badge".*?<span class="visually-hidden">([^<]+)</span>', re.S)
ISLAND_STRINGS = Path(__file__).resolve().parents[2] / "static_src" / "i18n"


def _cldr_category(lang, n):
    """The CLDR plural category that i18next picks for n (Intl.PluralRules)."""
    if lang == "en":
        return "one" if n == 1 else "other"
    if n in (0, 1, 2):
        return ("zero", "one", "two")[n]
    return "few" if 3 <= n % 100 <= 10 else "many" if 11 <= n % 100 <= 99 else "other"


@pytest.mark.django_db
@pytest.mark.parametrize("lang, prefix", [("en", ""), ("ar", "/ar")])
@pytest.mark.parametrize("count", [0, 1, 2, 3, 11, 100])
def test_the_cart_badge_says_what_its_island_would(client, lang, prefix, count):
    """The header's cart count waits for the first cart change to mount (data-island-on-event): until then
    the server's sentence stands, so it is the island's, in every plural form."""
    store_settings_update(max_quantity_per_line=count or 1, max_quantity_per_order=count or 1)
    if count:
        product = make_product(slug="kenya-gold", stock=count)
        client.post("/api/cart/items", {"productId": product.pk, "quantity": count}, content_type="application/json")
    sentence = CART_SENTENCE.search(client.get(f"{prefix}/").content.decode()).group(1)
    island = json.loads((ISLAND_STRINGS / lang / "common.json").read_text())[f"cartItems_{_cldr_category(lang, count)}"]
    assert sentence == island.replace("{{count}}", str(count))
