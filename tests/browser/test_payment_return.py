"""/payment/success with no payment id: the spec's 'Payment Failed' and its toast, and no claim
about a charge, a decline or the stock (issue 12: it said "Nothing was charged" and that the
items went back on the shelf, which nobody knew)."""

import pytest

from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)

CLAIMS = ("charged", "shelf", "declined", "stock", "خصم", "المخزون", "رُفض")


@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")], ids=["en", "ar"])
def test_a_return_without_a_payment_id_fails_without_claiming_anything(new_page, screenshot, locale, prefix):
    lang = "ar" if prefix else "en"
    for viewport, size in ((PHONE, "phone"), (DESKTOP, "desktop")):
        # given
        page = new_page(viewport=viewport, locale=locale)
        # when
        page.goto(f"{prefix}/payment/success")
        card = page.locator('[data-state="failed"]')
        card.wait_for()
        # then
        assert card.locator("h1").inner_text() == ("فشل الدفع" if lang == "ar" else "Payment Failed")
        failed = "فشل التحقق من الدفع" if lang == "ar" else "Payment verification failed"
        assert page.locator(".toast--error").inner_text() == failed
        text = card.inner_text()
        assert not [claim for claim in CLAIMS if claim in text], text
        screenshot(page, f"payment-return-no-id-{lang}-{size}")
