"""Issue 13: content with no Arabic twin, and the one digit rule at the input layer."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from shop.models import Announcement, StoreSettings
from shop.store_settings import store_settings_update
from tests.factories import make_product
from tests.pages import without_random_parts

pytestmark = pytest.mark.django_db


def _announcement(**fields):
    now = timezone.now()
    fields = {"title": "Eid sale", "content": "Every order ships free.", **fields}
    return Announcement.objects.create(
        display_start_date=now - timedelta(hours=1), display_end_date=now + timedelta(days=1), **fields)


def test_arabic_pages_use_the_arabic_store_texts_and_english_pages_the_english_ones(client):
    store_settings_update(store_name="Nile Highlands Tea", store_name_ar="شاي المرتفعات",
                          seo_ar={"metaTitle": "شاي كيني فاخر", "metaDescription": "أجود الشاي", "keywords": ["شاي"]})
    arabic = client.get("/ar/about").content.decode()
    assert "شاي المرتفعات" in arabic and "Nile Highlands Tea" not in arabic
    home = client.get("/ar/").content.decode()
    assert "<title>شاي كيني فاخر</title>" in home and 'content="أجود الشاي"' in home and 'content="شاي"' in home
    english = client.get("/about").content.decode()
    assert "Nile Highlands Tea" in english and "شاي المرتفعات" not in english


def test_an_empty_arabic_store_name_falls_back_to_english(client):
    store_settings_update(store_name="Kettle & Leaf", store_name_ar="")
    assert "Kettle &amp; Leaf" in client.get("/ar/about").content.decode()


def test_the_maintenance_page_shows_the_arabic_maintenance_text(client):
    store_settings_update(maintenance_mode=True, maintenance_message="Back at noon.",
                          maintenance_message_ar="نعود عند الظهر.")
    arabic = client.get("/ar/shop")
    assert arabic.status_code == 503 and "نعود عند الظهر." in arabic.content.decode()
    assert "Back at noon." in client.get("/shop").content.decode()


def test_an_announcement_shows_its_arabic_text_on_arabic_pages(client):
    _announcement(title_ar="تخفيضات العيد", content_ar="الشحن مجاني لكل الطلبات.", link="/shop",
                  link_label="Shop now", link_label_ar="تسوق الآن")
    html = client.get("/ar/about").content.decode()
    assert "تخفيضات العيد" in html and "تسوق الآن" in html and "Eid sale" not in html
    assert "Eid sale" in client.get("/about").content.decode()


def test_an_announcement_without_arabic_is_hidden_on_arabic_pages_when_staff_chose_so(client):
    _announcement(arabic_missing="hide")
    assert "data-announcement-id" not in client.get("/ar/about").content.decode()
    assert "Eid sale" in client.get("/about").content.decode()


def test_an_announcement_without_arabic_shows_english_isolated_when_staff_chose_so(client):
    _announcement(arabic_missing="english")
    html = client.get("/ar/about").content.decode()
    assert 'lang="en" dir="ltr"' in html and "Eid sale" in html


def test_product_lists_and_brand_show_in_arabic(client):
    make_product(slug="kenya-gold", flavor_notes=["bold", "malty"], flavor_notes_ar=["قوي", "مالتي"],
                 ingredients=["Kenyan tea", "mint"], ingredients_ar=["شاي كيني", "نعناع"])
    html = without_random_parts(client.get("/ar/product/kenya-gold").content.decode())
    assert "قوي" in html and "malty" not in html
    assert "شاي كيني، نعناع" in html  # the Arabic comma
    assert "Kenyan tea, mint" in client.get("/product/kenya-gold").content.decode()
    assert "كيريتشو جولد" in client.get("/ar/shop").content.decode()


def test_kes_amounts_are_written_in_arabic_on_arabic_pages(client):
    make_product(slug="kes-tea", kes_price_amount="320")
    html = without_random_parts(client.get("/ar/product/kes-tea").content.decode())
    assert "320\u00a0شلن" in html and "KSh" not in html


def test_settings_api_reads_and_writes_the_arabic_fields(client, owner):
    client.force_login(owner)
    body = {"storeNameAr": "شاي النيل", "storeDescriptionAr": "وصف", "maintenanceMessageAr": "صيانة",
            "seoAr": {"metaTitle": "عنوان", "metaDescription": "وصف", "keywords": ["شاي", "كينيا"]}}
    response = client.put("/api/admin/settings", json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.content
    data = client.get("/api/admin/settings").json()
    assert data["storeNameAr"] == "شاي النيل" and data["seoAr"]["keywords"] == ["شاي", "كينيا"]
    assert StoreSettings.objects.get().store_name == "Nile Highlands Tea"  # English untouched


def test_announcement_api_keeps_arabic_text_and_the_per_announcement_choice(client, owner):
    client.force_login(owner)
    body = {"title": "Sale", "content": "Now", "titleAr": "تخفيضات", "contentAr": "الآن", "arabicMissing": "english"}
    created = client.post("/api/admin/announcements", json.dumps(body), content_type="application/json").json()
    assert created["titleAr"] == "تخفيضات" and created["arabicMissing"] == "english"


# --- digits ---------------------------------------------------------------------

def test_eastern_digits_in_a_query_string_are_read_as_western(client):
    make_product(slug="gold-250", title="Gold 250")
    html = client.get("/ar/shop", {"search": "٢٥٠"}).content.decode()
    assert "gold-250" in html and 'value="250"' in html


def test_eastern_digits_in_json_are_stored_as_western_but_passwords_stay_as_typed(client, owner):
    client.force_login(owner)
    body = {"maxQuantityPerLine": "١٥", "shippingRate": "٧٥.٥٠", "storePhone": "+٢٠ ١٠٠ ۱۲۳ ۴۵۶۷"}
    response = client.put("/api/admin/settings", json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.content
    store = StoreSettings.objects.get()
    assert store.max_quantity_per_line == 15 and str(store.shipping_rate) == "75.50"
    assert store.store_phone == "+20 100 123 4567"
    from shop.validation import typed_text_in
    assert typed_text_in({"password": "كلمة١٢٣", "newPassword": "x٢", "q": "٣"}) == {
        "password": "كلمة١٢٣", "newPassword": "x٢", "q": "3"}


def test_eastern_digits_in_a_posted_form_are_read_as_western(client):
    from shop.models import ContactMessage
    response = client.post("/ar/contact", {"name": "سارة", "email": "sara@example.com",
                                           "subject": "طلب ١٢٣", "message": "رقم ٤٥٦"})
    assert response.status_code == 302
    message = ContactMessage.objects.get()
    assert message.subject == "طلب 123" and message.message == "رقم 456"


def test_the_product_api_edits_both_languages_and_names_what_is_missing_in_arabic(client, owner):
    make_product(slug="imported-tea", title="Imported Tea", source_url="https://producer.example/p/1",
                 flavor_notes=["bold"])
    client.force_login(owner)
    [row] = client.get("/api/admin/products").json()["results"]
    assert row["isImported"] is True and {"title", "flavorNotes"} <= set(row["arabicMissing"])
    body = {"title": "Imported Tea", "titleAr": "شاي مستورد", "price": "100.00",
            "flavorNotes": ["bold"], "flavorNotesAr": ["قوي"], "ingredientsAr": ["شاي كيني"]}
    response = client.put(f"/api/admin/products/{row['id']}", json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.content
    saved = response.json()
    assert saved["flavorNotesAr"] == ["قوي"] and "title" not in saved["arabicMissing"]


def test_the_public_settings_api_answers_an_arabic_request_with_the_arabic_texts(client):
    store_settings_update(store_name_ar="شاي النيل", store_description_ar="", maintenance_message_ar="صيانة",
                          seo_ar={"metaTitle": "شاي كيني", "metaDescription": "", "keywords": ["شاي"]})
    arabic = client.get("/api/settings", HTTP_ACCEPT_LANGUAGE="ar").json()
    english = client.get("/api/settings", HTTP_ACCEPT_LANGUAGE="en").json()
    assert arabic["language"] == "ar" and arabic["storeName"] == "شاي النيل"
    assert arabic["maintenanceMessage"] == "صيانة" and arabic["seo"]["keywords"] == ["شاي"]
    assert arabic["seo"]["metaTitle"] == "شاي كيني"
    # an empty Arabic text falls back to the English one
    assert arabic["storeDescription"] == english["storeDescription"] != ""
    assert english["language"] == "en" and english["storeName"] == "Nile Highlands Tea"
    vary = client.get("/api/settings").headers["Vary"]
    assert "Accept-Language" in vary and "Cookie" in vary


def test_the_language_cookie_picks_the_settings_api_language_too(client, settings):
    store_settings_update(store_name_ar="شاي النيل")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ar"
    assert client.get("/api/settings").json()["storeName"] == "شاي النيل"


def test_the_public_announcements_api_answers_in_the_requests_language(client):
    _announcement(title_ar="تخفيضات العيد", content_ar="الشحن مجاني.", link_label="Shop", link_label_ar="تسوق",
                  is_main=True)
    _announcement(title="English only, shown", arabic_missing="english")
    _announcement(title="English only, hidden", arabic_missing="hide")
    arabic = client.get("/api/announcements", HTTP_ACCEPT_LANGUAGE="ar").json()
    english = client.get("/api/announcements", HTTP_ACCEPT_LANGUAGE="en").json()
    assert [(a["title"], a["language"]) for a in arabic] == [("تخفيضات العيد", "ar"), ("English only, shown", "en")]
    assert arabic[0]["content"] == "الشحن مجاني." and arabic[0]["linkLabel"] == "تسوق"
    assert arabic[0]["isMain"] and arabic[0]["isActive"]
    assert {a["title"] for a in english} == {"Eid sale", "English only, shown", "English only, hidden"}
    assert all(a["language"] == "en" for a in english)
    assert next(a for a in english if a["isMain"])["linkLabel"] == "Shop"
    assert "Cookie" in client.get("/api/announcements").headers["Vary"]


def test_an_arabic_announcement_missing_its_arabic_title_keeps_the_english_one(client):
    _announcement(content_ar="الشحن مجاني.")
    [shown] = client.get("/api/announcements", HTTP_ACCEPT_LANGUAGE="ar").json()
    assert shown["title"] == "Eid sale" and shown["content"] == "الشحن مجاني." and shown["language"] == "ar"


def test_the_arabic_contact_form_leaves_checking_to_the_shop_and_answers_in_arabic(client):
    # novalidate: the browser's own "Please fill out this field" bubble speaks the browser's language
    page = client.get("/ar/contact").content.decode()
    assert 'class="contact-form" novalidate' in page
    response = client.post("/ar/contact", {"name": "", "email": "", "subject": "", "message": ""})
    assert response.status_code == 400
    text = response.content.decode()
    # the shop's answer is in Arabic, at the first empty field; the "error sending" sentence is for a failure to send
    assert '<p class="field__error" id="c-name-error">يرجى ملء جميع الحقول</p>' in text
    assert "حدث خطأ أثناء إرسال رسالتك" not in text
