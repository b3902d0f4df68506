"""/payment/success with no payment id: the spec's 'Payment Failed' and its toast, and no claim
about a charge, a decline or the stock (issue 12: it said "Nothing was charged" and that the
items went back on the shelf, which nobody knew)."""

from urllib.parse import urlencode

import pytest
from django.test import Client

from orders.models import Payment
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


@pytest.fixture
def kiosk_paymob(settings, fake_paymob):
    from orders.tests.payments.test_kiosk_pending import KIOSK

    settings.PAYMOB_INTEGRATION_IDS = [*settings.PAYMOB_INTEGRATION_IDS, str(KIOSK)]
    return fake_paymob


@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")], ids=["en", "ar"])
def test_a_kiosk_payer_sent_back_pending_is_told_the_order_waits_for_their_cash(
        new_page, screenshot, teas, kiosk_paymob, locale, prefix):
    from orders.tests.conftest import CHECKOUT
    from orders.tests.payments.test_kiosk_pending import _kiosk_redirect

    # given a card order whose payer chose Aman or Masary on Paymob's page, sent back with its signed pending
    # transaction to a browser without the shop's session
    shopper = Client()
    shopper.post("/api/cart/items", {"productId": teas[0].pk}, content_type="application/json")
    shopper.post("/api/payment/create-intention", {**CHECKOUT, "paymentMethod": "card"},
                 content_type="application/json")
    params = _kiosk_redirect(Payment.objects.get())
    lang = "ar" if prefix else "en"
    for viewport, size in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_page(viewport=viewport, locale=locale)
        # when
        page.goto(f"{prefix}/payment/success?{urlencode(params)}")
        card = page.locator('[data-state="cash"]')
        card.wait_for()
        # then not "Payment Failed": the order waits for the cash, with the reference, how long, and where to track
        assert card.locator("h1").inner_text() == ("بانتظار دفعك النقدي" if lang == "ar"
                                                   else "Waiting for your cash payment")
        assert "61203455" in card.get_by_test_id("cash-reference").inner_text()
        assert ("24 ساعة" if lang == "ar" else "24 hours") in card.get_by_test_id("cash-hold").inner_text()
        assert card.get_by_test_id("track-link").get_attribute("href") == f"{prefix}/track"
        assert page.locator(".toast--error").count() == 0
        screenshot(page, f"payment-return-kiosk-{lang}-{size}")
    assert Payment.objects.get().status == "awaiting"


def test_a_payer_whose_first_check_meets_a_server_blip_still_sees_the_payment_confirmed(
        new_page, teas, kiosk_paymob):
    from orders.payments.paymob import hmac_sign
    from orders.tests.conftest import CHECKOUT
    from orders.tests.payments.test_kiosk_pending import _kiosk_redirect

    # given a card order paid on Paymob's page, its payer sent back with the signed successful transaction
    shopper = Client()
    shopper.post("/api/cart/items", {"productId": teas[0].pk}, content_type="application/json")
    shopper.post("/api/payment/create-intention", {**CHECKOUT, "paymentMethod": "card"},
                 content_type="application/json")
    params = {key: value for key, value in _kiosk_redirect(Payment.objects.get(), reference=False).items()
              if key != "hmac"}
    params.update({"pending": "false", "success": "true", "source_data.type": "card",
                   "source_data.sub_type": "MasterCard", "integration_id": str(kiosk_paymob.integrations["card"])})
    params["hmac"] = hmac_sign(params, "test_hmac_secret")
    page = new_page(viewport=DESKTOP, locale="en-US")
    blips = []

    def busy_once(route):
        # the shop's first answer is a blip (a database busy for a moment, a proxy's 502 between two deploys)
        if not blips:
            blips.append(route.request.url)
            return route.fulfill(status=503, content_type="application/json",
                                 body='{"error": "The shop is busy", "message": "Try again in a moment."}')
        return route.continue_()

    page.route("**/api/payment/verify/**", busy_once)
    # when
    page.goto(f"/payment/success?{urlencode(params)}")
    # then the page asked again rather than telling a payer who paid that the payment failed
    page.locator('[data-state="success"]').wait_for()
    assert blips and page.locator(".toast--error").count() == 0
    assert Payment.objects.get().status == "paid"
