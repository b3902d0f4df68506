"""One error type: services raise ShopError, the API handler shapes it by status and code."""

import pytest
from django.utils import translation

from shop.errors import ShopError
from shop.validation import clean_text


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ar"])
def test_it_answers_an_unknown_product_with_404_in_every_language(client, language):
    # given / when
    response = client.post("/api/cart/items", {"productId": 999999}, content_type="application/json",
                           HTTP_ACCEPT_LANGUAGE=language)
    # then
    assert response.status_code == 404
    assert response.json()["field"] == "productId"


def test_it_keeps_status_and_field_given_by_the_service():
    error = ShopError("nope", field="email", status=409, code="taken")
    assert (error.status_code, error.field, error.code, error.message) == (409, "email", "taken", "nope")


@pytest.mark.parametrize("raw", ["a\x00b", "a\ud800b", "a\x1bb", "x" * 201, "one\ntwo", "one\rtwo"])
def test_it_refuses_unsafe_single_line_text(raw):
    with pytest.raises(ShopError) as caught:
        clean_text(raw, field="subject", max_length=200)
    assert caught.value.field == "subject"


def test_it_keeps_line_breaks_in_multiline_text_and_strips_the_ends():
    assert clean_text("  hi\r\nthere ", field="message", max_length=50, multiline=True) == "hi\nthere"


def test_it_reads_a_wrong_type_as_empty():
    assert clean_text(["x"], field="name", max_length=10) == ""


def test_it_explains_in_arabic():
    with translation.override("ar"), pytest.raises(ShopError) as caught:
        clean_text("a\x00", field="name", max_length=10)
    assert "غير مسموح" in caught.value.message
