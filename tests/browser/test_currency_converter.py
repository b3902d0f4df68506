"""The currency converter popover opens inside the screen on a 360 px phone, in English and Arabic
(issue 12: it opened off the left edge in English and off the right edge in Arabic)."""

import pytest
from django.core.management import call_command

from catalog.models import Product
from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def product(db):
    call_command("seed_demo", verbosity=0)
    return Product.objects.filter(is_active=True, stock__gt=0).order_by("pk").first()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")], ids=["en", "ar"])
def test_the_converter_opens_within_the_viewport(new_page, screenshot, product, viewport, locale, prefix):
    page = new_page(viewport=viewport, locale=locale)
    lang = "ar" if prefix else "en"
    size = "phone" if viewport is PHONE else "desktop"
    for name, path in (("shop", "/shop"), ("product", f"/product/{product.slug}")):
        # given
        page.goto(prefix + path)
        page.locator('[data-island="currency-converter"][data-mounted="true"]').wait_for(state="attached")
        # when
        page.locator(".converter > button").first.click()
        panel = page.locator(".converter__panel")
        panel.wait_for()
        # then the whole panel is on screen
        box = panel.bounding_box()
        assert box["x"] >= 0, f"{path}: starts {box['x']} px off the left edge"
        overflow = box["x"] + box["width"] - viewport["width"]
        assert overflow <= 0, f"{path}: ends {overflow} px past the right edge"
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"] + 1  # sub-pixel rounding
        page.screenshot(path=f"test-artifacts/converter-{name}-{lang}-{size}.png")
        # and it still closes with Escape
        page.keyboard.press("Escape")
        panel.wait_for(state="detached")
