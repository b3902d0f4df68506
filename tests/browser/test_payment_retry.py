"""After a declined card payment the checkout keeps what the shopper typed (issue 12: it came
back blank): the failed page offers "Try again" (the form prefilled, the card chosen) and "Pay on
delivery instead" (prefilled, cash on delivery chosen) when cash on delivery can take the order."""

from decimal import Decimal

import pytest

from catalog.models import Category, Product
from orders.models import Order, PaymentStatus
from shop.store_settings import store_settings_update
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.settle import place_order, settle, track_writes

pytestmark = pytest.mark.django_db(transaction=True)

TEXT = {
    "en": {"try": "Try again", "cod": "Pay on delivery instead", "failed": "Payment Failed"},
    "ar": {"try": "حاول مرة أخرى", "cod": "ادفع عند الاستلام بدلاً من ذلك", "failed": "فشل الدفع"},
}


@pytest.fixture
def tea(db):
    black = Category.objects.create(slug="black-tea", name="Black tea", name_ar="شاي أسود")
    return Product.objects.create(slug="kericho-gold", title="Kericho Gold", title_ar="كريتشو جولد",
                                  price_amount=Decimal("300.00"), stock=10, category=black)


def add_to_cart(page, product, quantity=1):
    page.evaluate(
        """([id, q]) => fetch('/api/cart/items', {method: 'POST', headers: {'Content-Type': 'application/json',
             'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || ''},
             body: JSON.stringify({productId: id, quantity: q})}).then(r => r.json())""",
        [product.pk, quantity],
    )


TYPED = {"#co-email": "mona@example.com", "#co-phone": "01012345678", "#co-firstName": "Mona",
         "#co-lastName": "Ali", "#co-street": "12 Nile Street", "#co-building": "7", "#co-floor": "3",
         "#co-city": "Cairo"}


def decline_a_card_payment(page, prefix):
    track_writes(page)
    page.goto(f"{prefix}/")
    page.goto(f"{prefix}/checkout")
    page.locator("#co-email").wait_for()
    for selector, value in TYPED.items():
        page.fill(selector, value)
    page.select_option("#co-state", "Giza")
    page.locator("input[name=paymentMethod][value=sandbox]").check()
    settle(page)  # the summary follows the governorate and the method
    place_order(page)
    page.locator("button[value=decline]").click()
    page.locator("[data-state=failed]").wait_for()


def assert_prefilled(page):
    page.locator("#co-email").wait_for()
    for selector, value in TYPED.items():
        assert page.locator(selector).input_value() == value, selector
    assert page.locator("#co-state").input_value() == "Giza"


@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_try_again_after_a_decline_comes_back_prefilled_with_the_card(new_page, screenshot, tea, locale, prefix, lang):
    for viewport, size in ((PHONE, "phone"), (DESKTOP, "desktop")):
        # given a declined card payment
        page = new_page(viewport=viewport, locale=locale)
        page.goto(f"{prefix}/")
        add_to_cart(page, tea, 2)
        decline_a_card_payment(page, prefix)
        card = page.locator("[data-state=failed]")
        assert card.locator("h1").inner_text() == TEXT[lang]["failed"]
        assert card.get_by_role("link", name=TEXT[lang]["cod"]).is_visible()
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"payment-failed-retry-{lang}-{size}")
        # when
        card.get_by_role("link", name=TEXT[lang]["try"]).click()
        # then everything typed is back and the card is chosen again
        page.wait_for_url(f"**{prefix}/checkout")
        assert_prefilled(page)
        assert page.locator("input[name=paymentMethod][value=sandbox]").is_checked()
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"checkout-prefilled-{lang}-{size}")


@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_pay_on_delivery_instead_places_the_order_with_cash(new_page, tea, locale, prefix, lang):
    # given a declined card payment
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/")
    add_to_cart(page, tea, 2)
    decline_a_card_payment(page, prefix)
    # when the shopper chooses cash on delivery
    page.get_by_role("link", name=TEXT[lang]["cod"]).click()
    # then the form is filled, cash on delivery chosen, and one press places the order
    assert_prefilled(page)
    assert page.locator("input[name=paymentMethod][value=cod]").is_checked()
    settle(page)
    place_order(page)
    page.wait_for_url("**/thankyou")
    placed = Order.objects.filter(payment_status=PaymentStatus.COD).get()
    assert (placed.email, placed.building, placed.floor, placed.state) == ("mona@example.com", "7", "3", "Giza")
    # and the form is no longer prefilled once the order went through
    page.goto(f"{prefix}/")
    add_to_cart(page, tea)
    page.goto(f"{prefix}/checkout")
    page.locator("#co-email").wait_for()
    assert page.locator("#co-email").input_value() == ""


def test_pay_on_delivery_is_not_offered_when_the_order_is_over_the_cash_limit(new_page, tea):
    # given cash on delivery only up to E£500 and a E£900 cart
    store_settings_update(cod_max_total=Decimal("500.00"))
    page = new_page(viewport=PHONE)
    page.goto("/")
    add_to_cart(page, tea, 3)
    # when the card is declined
    decline_a_card_payment(page, "")
    # then only "Try again" is offered
    card = page.locator("[data-state=failed]")
    assert card.get_by_role("link", name="Try again").is_visible()
    assert card.get_by_role("link", name="Pay on delivery instead").count() == 0


def test_a_failed_page_without_a_checkout_in_this_session_offers_no_retry(new_page):
    page = new_page(viewport=PHONE)
    page.goto("/payment/success")
    page.locator("[data-state=failed]").wait_for()
    assert page.get_by_role("link", name="Try again").count() == 0
