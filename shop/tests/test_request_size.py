"""A request body larger than any the shop takes is refused before it is read, by anyone, on any path.

Django keeps no limit on an uploaded file (DATA_UPLOAD_MAX_MEMORY_SIZE counts form fields only): a
multipart body posted anywhere was parsed (TypedTextMiddleware, the CSRF check, DRF) and its files
written to the temporary folder whatever their size, so anyone could fill the disk the shop writes to.
"""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import FileUploadHandler
from django.test import Client

from shop.middleware import REQUEST_MAX_BYTES

pytestmark = pytest.mark.django_db


class CountingHandler(FileUploadHandler):
    """Counts the file bytes Django reads from request bodies (and keeps none)."""

    received = 0

    def receive_data_chunk(self, raw_data, start):
        CountingHandler.received += len(raw_data)

    def file_complete(self, file_size):
        return None


@pytest.fixture
def counted(settings):
    settings.FILE_UPLOAD_HANDLERS = ["shop.tests.test_request_size.CountingHandler"]
    CountingHandler.received = 0
    return CountingHandler


@pytest.mark.parametrize("path, language, message", [
    ("/api/admin/products/images", "en", "This upload is too large: files must be 5 MB or smaller"),
    ("/api/cart/items", "ar", "الملف المرفوع كبير جدًا: يجب ألا يتجاوز حجم الملفات 5 ميجابايت"),
    ("/contact", "en", "This upload is too large: files must be 5 MB or smaller"),
    ("/no-such-page", "en", "This upload is too large: files must be 5 MB or smaller"),
])
def test_a_body_over_the_limit_is_refused_unread(counted, path, language, message):
    big = SimpleUploadedFile("x.png", b"\x00" * (REQUEST_MAX_BYTES + 1))
    response = Client().post(path, {"image": big}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 413
    assert counted.received == 0
    if path.startswith("/api/"):
        assert response.json()["error"] == message
    else:
        assert message in response.content.decode()


def test_a_picture_of_5_mb_still_reaches_the_upload(counted, manager):
    client = Client()
    client.force_login(manager)
    picture = SimpleUploadedFile("x.png", b"\x00" * (5 * 1024 * 1024))
    response = client.post("/api/admin/products/images", {"image": picture})
    assert counted.received == 5 * 1024 * 1024 and response.status_code != 413


@pytest.mark.parametrize("length", ["²", "¹²³", "9" * 5000])
def test_a_content_length_that_is_not_a_number_is_no_500(length):
    # when: "²" passes str.isdigit(), which int() then refused with a 500 (as it does 5000 digits);
    # a WSGI header is Latin-1, which holds "¹²³" but no other script's digits
    response = Client().post("/contact", b"", content_type="text/plain", CONTENT_LENGTH=length)
    # then: 5000 digits is a body too large; "²" is none Django reads, as if none were sent
    unsent = Client().post("/contact", b"", content_type="text/plain").status_code
    assert response.status_code == (413 if length.isascii() else unsent) and unsent != 500
