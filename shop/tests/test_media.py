"""Files under /media/ (uploads, imports, the demo pictures) can never run script on the shop's origin."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from importer.fetch import FetchError
from importer.tests.fake_site import Answer, FakeServer, png_bytes

SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>'
PNG = png_bytes()


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "pack.svg").write_bytes(SVG)
    (tmp_path / "demo" / "pack.png").write_bytes(PNG)
    return tmp_path


def test_an_svg_in_media_is_a_download_under_a_policy_that_runs_nothing(media):
    # when
    response = Client().get("/media/demo/pack.svg")
    # then
    assert response.status_code == 200
    assert response["Content-Disposition"] == "attachment"
    policy = response["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "sandbox" in policy and "script-src" not in policy
    assert response["X-Content-Type-Options"] == "nosniff"


def test_a_picture_in_media_is_shown_inline_under_the_same_policy(media):
    response = Client().get("/media/demo/pack.png")
    assert response.status_code == 200
    assert not response.get("Content-Disposition", "").startswith("attachment")
    assert response["Content-Security-Policy"].startswith("default-src 'none'")


@pytest.mark.django_db
def test_staff_cannot_upload_an_svg(client, manager, media):
    client.force_login(manager)
    upload = SimpleUploadedFile("leaf.svg", SVG, content_type="image/svg+xml")
    response = client.post("/api/admin/products/images", {"image": upload})
    assert (response.status_code, response.json()["field"]) == (400, "image")
    assert not (media / "products").exists()


@pytest.mark.django_db
def test_the_importer_never_stores_an_svg(media):
    from importer.fetch import PoliteSession
    from importer.services import image_import

    with FakeServer() as site:
        site.routes["/pack.svg"] = Answer(200, SVG, content_type="image/svg+xml")
        with pytest.raises(FetchError):
            image_import(f"{site.url}/pack.svg", session=PoliteSession(base_url=site.url, delay=0))
        # while a PNG from the same site is stored
        site.routes["/pack.png"] = Answer(200, PNG, content_type="image/png")
        stored = image_import(f"{site.url}/pack.png", session=PoliteSession(base_url=site.url, delay=0))
    assert stored.endswith(".png")
    assert [path.suffix for path in (media / "products").rglob("*.*")] == [".png"]


@pytest.mark.django_db
@pytest.mark.parametrize("language, message", [
    ("en", "The image must be 40 megapixels or smaller (for example 8000 x 5000)"),
    ("ar", "يجب ألا تتجاوز أبعاد الصورة 40 ميجابكسل (مثلًا 8000 × 5000)"),
])
def test_staff_cannot_upload_a_picture_that_unpacks_to_gigabytes(client, manager, media, language, message):
    # a PNG of 30,000 x 30,000 pixels in under a kilobyte: every shopper's browser would unpack 3.6 GB
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    bomb = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 30_000, 30_000, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" * 65_536)) + chunk(b"IEND", b""))
    client.force_login(manager)
    response = client.post("/api/admin/products/images", {"image": SimpleUploadedFile("leaf.png", bomb)},
                           HTTP_ACCEPT_LANGUAGE=language)
    assert (response.status_code, response.json()["field"], response.json()["error"]) == (400, "image", message)
    assert not (media / "products").exists()


@pytest.mark.django_db  # the not-found page reads the store's settings
@pytest.mark.parametrize("name", ["secret_key", "db.sqlite3", "backups/shop-2026-11-29.tar.gz", ".env",
                                  "cache/abc.djcache", "products/notes.txt", "products/page.html"])
def test_only_pictures_are_served_even_when_media_root_holds_the_data_folder(settings, tmp_path, name):
    # a careless MEDIA_ROOT=DATA_DIR (or a parent of it) must not publish the secret key, database or backups
    settings.MEDIA_ROOT = tmp_path
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_bytes(b"SECRET")
    (tmp_path / "products").mkdir(exist_ok=True)
    (tmp_path / "products" / "leaf.PNG").write_bytes(PNG)
    assert Client().get(f"/media/{name}").status_code == 404
    assert Client().get("/media/products/leaf.PNG").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("language, message", [
    ("en", "The picture could not be stored: the server's disk is full or its media folder cannot be written. "
           "Nothing was changed; tell whoever runs the shop's server."),
    ("ar", "تعذّر حفظ الصورة: قرص الخادم ممتلئ أو لا يمكن الكتابة في مجلد الوسائط. لم يتغيّر شيء؛ "
           "أبلغ المسؤول عن خادم المتجر."),
])
def test_staff_are_told_in_their_language_when_the_media_folder_cannot_be_written(client, manager, settings,
                                                                                  tmp_path, language, message):
    # given a media folder that cannot be written (here: a file stands where its folder should be)
    (tmp_path / "media").write_bytes(b"")
    settings.MEDIA_ROOT = tmp_path / "media"
    client.force_login(manager)
    # when
    response = client.post("/api/admin/products/images", {"image": SimpleUploadedFile("leaf.png", PNG)},
                           HTTP_ACCEPT_LANGUAGE=language)
    # then a clear answer, not "Something went wrong"; a retry later will do once the operator fixed the disk
    assert (response.status_code, response.json()["field"], response.json()["error"]) == (503, "image", message)
