"""The one product write path (catalog.products) and the one picture store (catalog.media)."""

import io
import struct
import zlib
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from backoffice.models import AuditEntry
from catalog.media import (
    IMPORT_FOLDER,
    MAX_IMAGE_BYTES,
    MAX_IMAGE_PIXELS,
    ImageRejected,
    image_kind,
    image_save,
    image_stored,
)
from catalog.models import Category, Product
from catalog.products import category_resolve, product_create, product_slug_unique, product_update
from importer.tests.fake_site import png_bytes
from shop.errors import ShopError
from tests.factories import make_category, make_product


def _picture(kind, size=(4, 4)):
    out = io.BytesIO()
    Image.new("RGB", size, (120, 60, 20)).save(out, format=kind)
    return out.getvalue()


def _png_claiming(width, height):
    """A PNG whose header says `width` x `height`: what a browser would unpack, whatever its few bytes hold."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" * 4096)) + chunk(b"IEND", b""))


PNG = png_bytes()
JPEG = _picture("JPEG")
WEBP = b"RIFF\x00\x00\x00\x00WEBPVP8 " + b"\x00" * 32
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'

pytestmark = pytest.mark.django_db


# --- slugs ---------------------------------------------------------------------------

def test_a_slug_is_made_from_the_text_and_numbered_when_taken():
    make_product(slug="kenya-gold", title="Kenya Gold")
    make_product(slug="kenya-gold-2", title="Kenya Gold")
    assert product_slug_unique("Kenya Gold") == "kenya-gold-3"
    assert product_slug_unique("Kenya Silver") == "kenya-silver"


def test_a_product_keeps_its_own_slug_and_text_with_no_latin_letter_gets_a_neutral_one():
    mine = make_product(slug="kenya-gold", title="Kenya Gold")
    assert product_slug_unique("Kenya Gold", exclude=mine) == "kenya-gold"
    assert product_slug_unique("شاي") == "product"


def test_create_numbers_a_taken_slug_and_records_one_audit_entry_for_staff(owner):
    make_category()
    first = product_create(actor=owner, title_en="Kenya Gold", price_amount="100")
    second = product_create(actor=owner, slug="Kenya Gold", title_en="Other", price_amount="100")
    unaudited = product_create(title_en="Kenya Gold", price_amount="100")
    assert (first.slug, second.slug, unaudited.slug) == ("kenya-gold", "kenya-gold-2", "kenya-gold-3")
    assert list(AuditEntry.objects.order_by("pk").values_list("action", "target_id")) == [
        ("product.create", str(first.pk)), ("product.create", str(second.pk))]


def test_update_refuses_a_slug_another_product_has_and_keeps_an_empty_one(owner):
    make_product(slug="kenya-gold", title="Kenya Gold")
    other = make_product(slug="chai", title="Chai")
    with pytest.raises(ShopError) as refused:
        product_update(product=other, actor=owner, slug="Kenya Gold")
    assert refused.value.field == "slug"
    assert product_update(product=other, slug="  ").slug == "chai"
    assert product_update(product=other, actor=owner, slug="Masala Chai").slug == "masala-chai"
    assert list(AuditEntry.objects.values_list("action", flat=True)) == ["product.update"]


# --- categories ---------------------------------------------------------------------------

def test_a_category_is_resolved_by_slug_the_default_when_empty():
    black = make_category("black-tea")
    green = make_category("green-tea", "Green Tea", "شاي أخضر")
    assert category_resolve("green-tea") == green
    assert category_resolve("") == black and category_resolve(None) == black


def test_an_unknown_or_unassignable_category_is_a_field_error_unless_the_import_may_create_it():
    Category.objects.create(slug="entire-range", name="Entire Range", is_assignable=False)
    for slug in ("coffee", "entire-range"):
        with pytest.raises(ShopError) as refused:
            category_resolve(slug)
        assert refused.value.field == "category"
    made = category_resolve("cold-brew", create=True)
    assert (made.slug, made.name) == ("cold-brew", "Cold Brew")
    with pytest.raises(ShopError):
        category_resolve("entire-range", create=True)


def test_create_and_update_take_a_category_slug():
    make_category("black-tea")
    green = make_category("green-tea", "Green Tea", "شاي أخضر")
    product = product_create(title_en="Sencha", price_amount="100")
    assert product.category.slug == "black-tea"
    assert product_update(product=product, category="green-tea").category == green
    with pytest.raises(ShopError):
        product_create(title_en="X", price_amount="1", category="coffee")


def test_a_staff_edit_is_audited_with_old_and_new_values_and_a_long_text_by_name(owner):
    make_category("black-tea")
    made = product_create(title_en="Sencha", price_amount="100", description_en="Old words")
    product_update(product=Product.objects.get(pk=made.pk), actor=owner, price_amount=Decimal("120.00"),
                   description_en="New words", title_en="Sencha")
    entry = AuditEntry.objects.get(action="product.update")
    assert entry.changes == [{"field": "price_amount", "old": "100.00", "new": "120.00"},
                             {"field": "description_en", "old": "", "new": ""}]


def test_an_update_from_a_product_read_earlier_writes_only_what_it_changes():
    # given a product read (the importer's list, a dialog), whose stock, rating and reviews then move on
    make_category("black-tea")
    product = product_create(title_en="Sencha", price_amount="100", stock=10)
    read_earlier = Product.objects.get(pk=product.pk)
    Product.objects.filter(pk=product.pk).update(stock=7, rating="4.50", review_count=2)
    # when that copy's price and title change (the title by its untranslated name)
    product_update(product=read_earlier, price_amount="120", title="Sencha Special")
    # then those changed and nothing else went back to what was read
    product.refresh_from_db()
    assert (product.price_amount, product.title_en, product.stock, product.rating, product.review_count) == (
        Decimal("120.00"), "Sencha Special", 7, Decimal("4.50"), 2)
    assert "sencha special" in product.search_text.lower()


def test_a_slug_from_a_product_read_earlier_is_judged_against_the_row_under_the_lock(owner):
    # given a product read, whose slug another write then changes
    make_category("black-tea")
    product = product_create(title_en="Sencha", slug="sencha", price_amount="100")
    read_earlier = Product.objects.get(pk=product.pk)
    product_update(product=Product.objects.get(pk=product.pk), slug="sencha-special")
    # when that copy's edit sends the slug it read
    product_update(product=read_earlier, actor=owner, slug="sencha")
    # then the slug is that one, and the audit entry names the slug it replaced
    assert Product.objects.get(pk=product.pk).slug == "sencha"
    assert AuditEntry.objects.get(action="product.update").changes == [
        {"field": "slug", "old": "sencha-special", "new": "sencha"}]


# --- pictures ---------------------------------------------------------------------------

@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def test_the_kind_of_a_picture_is_read_from_its_bytes():
    assert [image_kind(head) for head in (PNG, JPEG, WEBP, b"GIF89a..", SVG, b"")] == [
        "png", "jpg", "webp", "gif", None, None]


def test_an_upload_is_saved_under_a_clean_unique_name(media):
    upload = SimpleUploadedFile("Kenya Gold!.jpeg", PNG, content_type="image/jpeg")
    url = image_save(upload, stem=Path(upload.name).stem)
    again = image_save(SimpleUploadedFile("Kenya Gold!.jpeg", PNG), stem="Kenya Gold!")
    # the bytes decide the extension, never the name or the announced type
    assert url.startswith("/media/products/kenya-gold-") and url.endswith(".png") and again != url
    assert (media / url.removeprefix("/media/")).read_bytes() == PNG


def test_downloaded_bytes_are_saved_under_their_given_name_and_found_again(media):
    assert image_stored(stem="abc123", folder=IMPORT_FOLDER) is None
    url = image_save(JPEG, stem="abc123", folder=IMPORT_FOLDER, unique=False)
    assert url == "/media/products/imported/abc123.jpg"
    assert image_stored(stem="abc123", folder=IMPORT_FOLDER) == url


@pytest.mark.parametrize("content, message", [
    (SVG, "Please upload a JPEG, PNG, GIF or WebP image"),
    (b"<html>hotlink protection</html>", "Please upload a JPEG, PNG, GIF or WebP image"),
    (PNG + b"\x00" * MAX_IMAGE_BYTES, "The image must be 5 MB or smaller"),
    # a picture's first bytes before a page: the signature alone does not make a picture
    (b"GIF89a<html><script>alert(1)</script></html>", "Please upload a JPEG, PNG, GIF or WebP image"),
    (b"\x89PNG\r\n\x1a\n" + b"\x00" * 32, "Please upload a JPEG, PNG, GIF or WebP image"),
    # a decompression bomb: a few hundred bytes that open as 20,000 x 20,000 pixels (1.6 GB in a browser)
    (_png_claiming(20_000, 20_000),
     "The image must be 40 megapixels or smaller (for example 8000 x 5000)"),
])
def test_a_picture_that_is_not_one_or_too_big_is_refused_and_nothing_is_stored(media, content, message):
    with pytest.raises(ImageRejected) as refused:
        image_save(content, stem="leaf")
    assert (refused.value.message, refused.value.field) == (message, "image")
    assert list(media.rglob("*.*")) == []


def test_every_kind_of_picture_opens_and_one_at_the_pixel_limit_is_kept(media):
    for kind, extension in (("PNG", "png"), ("JPEG", "jpg"), ("GIF", "gif"), ("WEBP", "webp")):
        assert image_save(_picture(kind), stem="leaf").endswith(f".{extension}")
    assert image_save(_png_claiming(MAX_IMAGE_PIXELS // 1000, 1000), stem="wide").endswith(".png")
    with pytest.raises(ImageRejected):
        image_save(_png_claiming(MAX_IMAGE_PIXELS // 1000 + 1, 1000), stem="wide")


def _disk_full_after(monkeypatch, written=8):
    """Media storage on a disk that fills up while a picture is written: `written` bytes reach the file, then
    ENOSPC, as a real full disk leaves a truncated file behind."""
    import errno
    import os

    from django.core.files.storage import filesystem

    real_fdopen = os.fdopen

    class FillingFile:
        def __init__(self, fd, mode):
            self._file = real_fdopen(fd, mode)

        def write(self, chunk):
            self._file.write(chunk[:written])
            self._file.flush()
            raise OSError(errno.ENOSPC, "No space left on device")

        def close(self):
            self._file.close()

    monkeypatch.setattr(filesystem.os, "fdopen", FillingFile)


def test_a_picture_the_full_disk_cannot_take_is_refused_and_leaves_no_truncated_file(media, monkeypatch):
    # given a disk that fills up while the importer's picture is written
    from catalog.media import ImageNotStored

    _disk_full_after(monkeypatch)
    # when
    with pytest.raises(ImageNotStored) as refused:
        image_save(JPEG, stem="abc123", folder=IMPORT_FOLDER, unique=False)
    # then the reason is told, and nothing half-written stays: a re-import would find a truncated picture
    # under the name it looks for (image_stored) and show it on the product for ever
    assert refused.value.status == 503 and refused.value.field == "image"
    assert list(media.rglob("*.*")) == []
    monkeypatch.undo()
    assert image_stored(stem="abc123", folder=IMPORT_FOLDER) is None


def test_a_picture_saved_where_one_was_kept_already_never_deletes_the_kept_one(media, monkeypatch):
    # given a kept picture, and a disk that fills up while another of the same name is saved
    from catalog.media import ImageNotStored

    kept = image_save(JPEG, stem="abc123", folder=IMPORT_FOLDER, unique=False)
    _disk_full_after(monkeypatch)
    # when
    with pytest.raises(ImageNotStored):
        image_save(JPEG, stem="abc123", folder=IMPORT_FOLDER, unique=False)
    # then
    assert (media / kept.removeprefix("/media/")).read_bytes() == JPEG
