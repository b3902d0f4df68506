"""Registration keeps the spec's redirect to /login and its message, now with the e-mail filled in,
and signing in lands the shopper back where they came from (issue 12: the cart or checkout they
left), through a same-site `next` only."""

import re
from decimal import Decimal
from urllib.parse import urlencode

import pytest

from catalog.models import Category, Product
from conftest import PASSWORD
from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)

NEW_PASSWORD = "Tea-Garden-2026"
CREATED = "Account created successfully! Please sign in to continue."


@pytest.fixture
def tea(db):
    category = Category.objects.create(slug="black-tea", name="Black Tea", name_ar="شاي أسود")
    return Product.objects.create(slug="kericho-gold", title="Kericho Gold", title_ar="كريتشو جولد",
                                  price_amount=Decimal("300.00"), stock=10, category=category)


def _add_to_cart(page, product):
    page.evaluate(
        """(id) => fetch('/api/cart/items', {method: 'POST', headers: {'Content-Type': 'application/json',
             'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || ''},
             body: JSON.stringify({productId: id, quantity: 1})}).then(r => r.json())""",
        product.pk,
    )


@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_a_shopper_registers_from_the_cart_and_lands_back_on_it(new_page, screenshot, tea, locale, prefix, lang):
    for viewport, size in ((DESKTOP, "desktop"), (PHONE, "phone")):
        email = f"mona-{size}@example.com"
        # given a shopper with a tea in the cart
        page = new_page(viewport=viewport, locale=locale)
        page.goto(f"{prefix}/cart")
        _add_to_cart(page, tea)
        page.goto(f"{prefix}/cart")
        # when they follow Login from the cart (the header on desktop, the menu on a phone), then Create one
        if size == "phone":
            page.locator("[data-drawer-open]").click()
            page.locator("#drawer").get_by_role("link", name="Register" if lang == "en" else "إنشاء حساب").click()
        else:
            page.locator(".site-header__login").click()
            page.wait_for_url(re.compile(rf"{prefix}/login\?next="))
            page.locator(".auth__switch a").click()
        page.wait_for_url(re.compile(rf"{prefix}/register\?next="))
        page.fill("#id_firstName", "Mona")
        page.fill("#id_lastName", "Saleh")
        page.fill("#id_email", email)
        page.fill("#id_password", NEW_PASSWORD)
        page.fill("#id_confirmPassword", NEW_PASSWORD)
        page.check("input[name=agreeToTerms]")
        page.click(".auth__submit")
        # then the spec's sign-in page and message, with the e-mail already there
        page.wait_for_url(re.compile(rf"{prefix}/login\?next="))
        if lang == "en":
            assert page.get_by_text(CREATED).is_visible()
        assert page.locator(".auth .alert--success").first.is_visible()  # the message, in either language
        assert page.locator("#id_email").input_value() == email
        screenshot(page, f"login-after-register-{lang}-{size}")
        # when they sign in
        page.fill("#id_password", NEW_PASSWORD)
        page.click(".auth__submit")
        # then they are back on their cart, signed in
        page.wait_for_url(f"**{prefix}/cart")
        page.locator("[data-island=cart][data-mounted]").wait_for()
        assert page.get_by_text("كريتشو جولد" if lang == "ar" else "Kericho Gold").first.is_visible()


def test_sign_in_from_the_checkout_comes_back_to_the_checkout(new_page, tea, alice):
    page = new_page(viewport=PHONE)
    page.goto("/cart")
    _add_to_cart(page, tea)
    page.goto("/checkout")
    page.locator(".checkout-signin a").click()
    page.wait_for_url(re.compile(r"/login\?next=/checkout$"))
    page.fill("#id_email", alice.email)
    page.fill("#id_password", PASSWORD)
    page.click(".auth__submit")
    page.wait_for_url("**/checkout")
    page.locator("#co-email").wait_for()
    assert page.locator("#co-email").input_value() == alice.email


@pytest.mark.parametrize("target", ["https://evil.example/steal", "//evil.example/steal", "/\\evil.example",
                                    "http://evil.example"])
def test_an_off_site_next_is_ignored(new_page, live_server, alice, target):
    page = new_page(viewport=DESKTOP)
    page.goto("/login?" + urlencode({"next": target}))
    page.fill("#id_email", alice.email)
    page.fill("#id_password", PASSWORD)
    page.click(".auth__submit")
    page.wait_for_url(f"{live_server.url}/")
    assert page.url == f"{live_server.url}/"
