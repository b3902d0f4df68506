"""A tea with no picture yet (imported without one, or its picture removed) shows the big placeholder across
the product page's gallery, square, not as a sliver at its start that cuts its cup."""

import pytest

from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")], ids=["en", "ar"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_product_without_a_picture_fills_its_gallery_with_the_placeholder(new_page, teas, locale, prefix,
                                                                            viewport):
    # given a tea without pictures
    assert not teas[0].images
    page = new_page(viewport=viewport, locale=locale)
    # when its page opens
    page.goto(f"{prefix}/product/{teas[0].slug}")
    gallery = page.locator(".gallery__main").bounding_box()
    placeholder = page.locator(".gallery__main .product-card__placeholder--big").bounding_box()
    # then the placeholder is as wide as the gallery, and square
    assert abs(placeholder["width"] - gallery["width"]) <= 1
    assert abs(placeholder["height"] - placeholder["width"]) <= 1
