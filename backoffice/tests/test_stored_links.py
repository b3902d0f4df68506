"""Every address staff or an import can store is http(s) or a site path (issue 11, stored XSS through links).

Refused at the service with a field error whatever the door (announcement,
settings and product APIs, the CSV import); and a value that got in anyway
(an old row, a data fix) is never rendered as a link or image.
"""

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from catalog.models import Product
from catalog.services import product_upsert
from shop.errors import ShopError
from shop.models import Announcement, StoreSettings
from tests.factories import make_category, make_product

pytestmark = pytest.mark.django_db

PAYLOADS = ["javascript:fetch('/api/admin/staff')", "java\tscript:alert(1)", "data:text/html,x", "//evil.example"]


def _json(client, method, url, body):
    return getattr(client, method)(url, body, content_type="application/json")


# --- refused at the service -----------------------------------------------------

@pytest.mark.parametrize("link", PAYLOADS)
def test_it_refuses_an_announcement_link_that_is_not_a_web_address(client, manager, link):
    # given
    client.force_login(manager)
    # when
    response = _json(client, "post", "/api/admin/announcements", {"title": "Sale", "content": "Now", "link": link})
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "link"
    assert not Announcement.objects.exists()


def test_it_refuses_the_same_link_on_an_edit(client, manager):
    # given
    client.force_login(manager)
    created = _json(client, "post", "/api/admin/announcements",
                    {"title": "Sale", "content": "Now", "link": "https://shop.example/sale"}).json()
    # when
    response = _json(client, "put", f"/api/admin/announcements/{created['id']}", {"link": "javascript:alert(1)"})
    # then
    assert (response.status_code, response.json()["field"]) == (400, "link")
    assert Announcement.objects.get().link == "https://shop.example/sale"


def test_an_announcement_may_link_to_a_page_of_the_shop(client, manager):
    client.force_login(manager)
    response = _json(client, "post", "/api/admin/announcements", {"title": "Sale", "content": "Now", "link": "/sale"})
    assert response.status_code == 201 and response.json()["link"] == "/sale"


@pytest.mark.parametrize("link", [*PAYLOADS, "/about"])
def test_it_refuses_a_social_link_that_is_not_a_full_web_address(client, owner, link):
    # given
    client.force_login(owner)
    # when
    response = _json(client, "put", "/api/admin/settings", {"socialMedia": {"facebook": link}})
    # then
    assert response.status_code == 400
    assert response.json()["field"] == "socialMedia.facebook"
    assert StoreSettings.objects.get_or_create(pk=1)[0].social_media.get("facebook", "") == ""


def test_a_social_link_is_stored_when_it_is_an_https_address(client, owner):
    client.force_login(owner)
    response = _json(client, "put", "/api/admin/settings",
                     {"socialMedia": {"facebook": "https://facebook.com/nilehighlands"}})
    assert response.status_code == 200
    assert response.json()["socialMedia"]["facebook"] == "https://facebook.com/nilehighlands"


@pytest.mark.parametrize("url", PAYLOADS)
def test_it_refuses_a_product_image_that_is_not_a_web_address(client, manager, url):
    # given
    make_category("black-tea")
    client.force_login(manager)
    # when
    response = _json(client, "post", "/api/admin/products",
                     {"title": "Kenya Gold", "price": "120", "stock": 3, "images": ["/media/a.png", url]})
    # then
    assert (response.status_code, response.json()["field"]) == (400, "images")
    assert not Product.objects.exists()


def test_the_csv_import_reports_a_bad_image_address_as_a_row_error(client, manager):
    # given
    make_category("black-tea")
    client.force_login(manager)
    csv = "title,price,images\nGood tea,5,/media/good.png\nBad tea,5,javascript:alert(1)\n"
    # when
    report = client.post("/api/admin/products/import",
                         {"file": SimpleUploadedFile("p.csv", csv.encode(), content_type="text/csv")}).json()
    # then
    assert report["created"] == 1
    assert [(e["row"], e["field"]) for e in report["errors"]] == [(3, "images")]


def test_the_one_product_write_path_refuses_it_too():
    # the seed, the importer and the dashboard all write through product_upsert
    category = make_category("black-tea")
    with pytest.raises(ShopError) as error:
        product_upsert(slug="x", title="X", price_amount="1", category=category, images=["vbscript:x"])
    assert error.value.field == "images"


# --- never rendered, even when stored -----------------------------------------------

def _announcement(link):
    now = timezone.now()
    return Announcement.objects.create(title="Sale", content="Now", link=link, is_main=True,
                                       display_start_date=now - timedelta(hours=1),
                                       display_end_date=now + timedelta(days=1))


def test_a_stored_javascript_link_is_never_rendered_in_the_announcement_bar():
    # given a row written around the services (an old row, a data fix)
    _announcement("javascript:alert(document.cookie)")
    # when
    body = Client().get("/").content.decode()
    # then: the bar shows, without the link
    assert "Sale" in body
    assert "javascript:" not in body and "Learn more" not in body


def test_a_safe_announcement_link_is_rendered():
    _announcement("https://shop.example/ramadan")
    assert 'href="https://shop.example/ramadan"' in Client().get("/about").content.decode()


def test_the_footer_shows_safe_social_links_and_never_a_script_link():
    # given
    StoreSettings.objects.update_or_create(pk=1, defaults={"social_media": {
        "facebook": "https://facebook.com/nilehighlands", "instagram": "javascript:alert(1)", "twitter": ""}})
    # when
    body = Client().get("/contact").content.decode()
    # then
    assert 'href="https://facebook.com/nilehighlands"' in body
    assert "javascript:" not in body and "Instagram" not in body


def test_a_stored_script_image_address_is_never_rendered():
    # given
    # an impossible row on purpose (the write path refuses script addresses): one stored before it did
    make_product(title="Kenya Gold", slug="kenya-gold")
    Product.objects.filter(slug="kenya-gold").update(images=["javascript:alert(1)", "/media/demo/kenya-gold.svg"])
    # when
    page = Client().get("/product/kenya-gold").content.decode()
    shop = Client().get("/shop").content.decode()
    # then
    assert "javascript:" not in page and "javascript:" not in shop
    assert 'src="/media/demo/kenya-gold.svg"' in page
