"""The footer's "Shipping Info" and "Returns" open the shop's real rules (issue 12: they went to
the Terms top and the Privacy Policy), with the rates from Store settings."""

import pytest

from shop.models import StoreSettings
from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def store(db):
    settings = StoreSettings.objects.get_or_create(pk=1)[0]
    settings.shipping_rate, settings.free_shipping_threshold, settings.cod_fee = "75.00", "1500.00", "10.00"
    settings.save()
    return settings


def _in_view(page, selector):
    return page.evaluate("""(s) => { const r = document.querySelector(s).getBoundingClientRect();
        const header = document.querySelector('.site-header').getBoundingClientRect().bottom;
        return r.top >= header - 1 && r.top < innerHeight; }""", selector)


@pytest.mark.parametrize("viewport, size", [(PHONE, "phone"), (DESKTOP, "desktop")], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_the_footer_opens_shipping_and_returns_with_the_store_rules(new_page, screenshot, store, viewport, size, locale,
                                                                    prefix, lang):
    page = new_page(viewport=viewport, locale=locale)
    page.goto(f"{prefix}/")
    # when
    page.locator(".site-footer").get_by_role("link", name="معلومات الشحن" if lang == "ar" else "Shipping Info").click()
    # then the shipping section, with this store's rates, is in view under the header
    page.wait_for_url(f"**{prefix}/terms#shipping")
    shipping = page.locator("#shipping").inner_text()
    assert ("75.00" in shipping and "1,500.00" in shipping and "10.00" in shipping), shipping
    assert _in_view(page, "#shipping")
    page.screenshot(path=f"test-artifacts/footer-shipping-{lang}-{size}.png")
    # when
    page.locator(".site-footer").get_by_role("link", name="الإرجاع" if lang == "ar" else "Returns").click()
    # then
    page.wait_for_url(f"**{prefix}/terms#returns")
    assert _in_view(page, "#returns")
    assert "30" in page.locator("#returns + p").inner_text()
    page.screenshot(path=f"test-artifacts/footer-returns-{lang}-{size}.png")
