"""Customer accounts in a real browser: register, sign in, /account, reset, in English and Arabic."""

import re

import pytest
from playwright.sync_api import expect
from django.core import mail

from accounts.models import User
from accounts.tests.factories import order_for
from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "Tea-Garden-2026"


def _fill_register(page, *, email, first="Mona", last="Saleh"):
    page.fill("#id_firstName", first)
    page.fill("#id_lastName", last)
    page.fill("#id_email", email)
    page.fill("#id_phone", "010 1234 5678")
    page.fill("#id_password", PASSWORD)
    page.fill("#id_confirmPassword", PASSWORD)
    page.check("input[name=agreeToTerms]")


def test_register_sign_in_and_see_orders_in_english_on_desktop(new_page, screenshot, live_server):
    page = new_page(viewport=DESKTOP)
    page.goto("/register")
    page.wait_for_selector("form[data-enhanced=true]")
    screenshot(page, "accounts-register-en-desktop")

    # errors come from the server, each under its field, and go away on edit
    page.click(".auth__submit")
    expect(page.locator("#error_firstName")).to_have_text("First name is required")
    expect(page.locator("#error_agreeToTerms")).to_have_text("You must agree to the terms and conditions")
    screenshot(page, "accounts-register-errors-en-desktop")
    page.wait_for_selector("form[data-enhanced=true]")
    page.fill("#id_firstName", "M")
    assert page.locator("#error_firstName").is_hidden()

    # the strength meter follows the spec's score and colours
    strength = page.locator(".pw-strength")
    page.fill("#id_password", "abc")
    assert strength.get_attribute("data-level") == "weak"
    assert "Weak" in strength.inner_text()
    page.fill("#id_password", "abcdefgh1")
    assert strength.get_attribute("data-level") == "medium"
    page.fill("#id_password", "Abcdefg1!")
    assert strength.get_attribute("data-level") == "strong"
    assert "Strong" in strength.inner_text()

    # show/hide and 'Passwords match'
    page.locator('[data-password-toggle="id_password"]').click()
    assert page.locator("#id_password").get_attribute("type") == "text"
    page.locator('[data-password-toggle="id_password"]').click()
    assert page.locator("#id_password").get_attribute("type") == "password"
    _fill_register(page, email="mona@example.com")
    assert page.locator(".pw-match").inner_text() == "✓ Passwords match"
    screenshot(page, "accounts-register-filled-en-desktop")

    # 'Creating Account...' while the form is on its way
    page.evaluate("""() => {
        window.hold = true;
        document.querySelector('form[data-account-form]').addEventListener('submit', (e) => { if (window.hold) e.preventDefault(); });
    }""")
    page.click(".auth__submit")
    page.wait_for_function("document.querySelector('.auth__submit').textContent === 'Creating Account...'")
    assert page.locator(".auth__submit").is_disabled()
    page.evaluate("document.querySelector('form[data-account-form]').submit()")

    page.wait_for_url("**/login")
    expect(page.get_by_text("Account created successfully! Please sign in to continue.")).to_be_visible()

    # a wrong password, then the right one
    page.fill("#id_email", "mona@example.com")
    page.fill("#id_password", "not-the-password")
    page.click(".auth__submit")
    expect(page.get_by_text("Login failed. Please try again.")).to_be_visible()
    screenshot(page, "accounts-login-failed-en-desktop")
    page.fill("#id_password", PASSWORD)
    page.check("input[name=rememberMe]")
    page.click(".auth__submit")
    page.wait_for_url(f"{live_server.url}/")
    expect(page.get_by_text("Welcome, Mona").first).to_be_visible()
    session = next(c for c in page.context.cookies() if c["name"] == "sessionid")
    assert session["httpOnly"] and session["sameSite"] == "Lax"

    # an order placed earlier shows in /account (made directly: see the report)
    order_for(User.objects.get(email="mona@example.com"), number="NH-2026-0001")
    page.locator(".site-header__actions").get_by_role("link", name="Welcome, Mona").click()
    page.wait_for_url("**/account")
    card = page.locator('[data-order="NH-2026-0001"]')
    assert card.is_visible()
    assert "Kericho Gold Black Tea" in card.inner_text()
    assert "Processing" in card.inner_text() and "Paid" in card.inner_text()
    screenshot(page, "accounts-account-en-desktop")

    # logout from the header
    page.locator(".site-header__actions").get_by_role("button", name="Logout").click()
    page.wait_for_url("**/")
    assert page.locator(".site-header__login").is_visible()


def test_register_sign_in_and_see_orders_in_arabic_on_a_phone(new_page, screenshot):
    page = new_page(viewport=PHONE, locale="ar-EG")
    page.goto("/register")
    assert page.url.endswith("/ar/register")
    assert page.locator("html").get_attribute("dir") == "rtl"
    page.wait_for_selector("form[data-enhanced=true]")
    page.click(".auth__submit")
    expect(page.locator("#error_firstName")).to_have_text("الاسم الأول مطلوب")
    screenshot(page, "accounts-register-errors-ar-phone")
    page.wait_for_selector("form[data-enhanced=true]")
    _fill_register(page, email="salma@example.com", first="سلمى", last="حسن")
    assert "قوية" in page.locator(".pw-strength").inner_text()
    assert "كلمتا المرور متطابقتان" in page.locator(".pw-match").inner_text()
    screenshot(page, "accounts-register-filled-ar-phone")
    page.click(".auth__submit")

    page.wait_for_url("**/ar/login")
    expect(page.get_by_text("تم إنشاء الحساب بنجاح! يرجى تسجيل الدخول للمتابعة.")).to_be_visible()
    screenshot(page, "accounts-login-ar-phone")
    page.fill("#id_email", "salma@example.com")
    page.fill("#id_password", PASSWORD)
    page.click(".auth__submit")
    page.wait_for_url("**/ar/")

    user = User.objects.get(email="salma@example.com")
    assert user.language == "ar" and user.phone == "01012345678"
    order_for(user, number="NH-2026-0002")
    page.goto("/ar/account")
    expect(page.get_by_role("heading", name="حسابي")).to_be_visible()
    card = page.locator('[data-order="NH-2026-0002"]')
    assert card.is_visible()
    assert "ج.م" in card.inner_text()
    screenshot(page, "accounts-account-ar-phone")
    # nothing sticks out sideways on a 360 px phone
    wide = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter((el) => el.getBoundingClientRect().left < -1 || el.getBoundingClientRect().right > innerWidth + 1)
        .map((el) => el.tagName + '.' + el.className)""")
    assert wide == []


def test_forgot_and_reset_password_from_the_e_mail(new_page, screenshot, live_server):
    User.objects.create_user(username="rana@example.com", email="rana@example.com", password=PASSWORD,
                             first_name="Rana")
    page = new_page(viewport=PHONE)
    page.goto("/forgot-password")
    screenshot(page, "accounts-forgot-en-phone")
    page.fill("#id_email", "rana@example.com")
    page.click(".auth__submit")
    expect(page.get_by_role("heading", name="Check Your Email")).to_be_visible()
    screenshot(page, "accounts-forgot-sent-en-phone")

    link = re.search(r"https?://\S+/reset-password\?token=\S+", mail.outbox[-1].body).group(0)
    page.goto(link)
    page.wait_for_selector("form[data-enhanced=true]")
    page.fill("#id_password", "Brand-New-Leaf-1")
    page.fill("#id_confirmPassword", "Brand-New-Leaf-1")
    page.click(".auth__submit")
    expect(page.get_by_role("heading", name="Password Reset Complete")).to_be_visible()

    page.goto(link)  # the link works once
    expect(page.get_by_role("heading", name="Invalid or Expired Link")).to_be_visible()
    assert page.get_by_role("link", name="Request New Reset Link").get_attribute("href") == "/forgot-password"


def test_auth_pages_in_arabic_on_desktop(new_page, screenshot):
    page = new_page(viewport=DESKTOP, locale="ar")
    page.goto("/ar/login")
    assert page.locator("html").get_attribute("dir") == "rtl"
    page.wait_for_selector("form[data-enhanced=true]")
    screenshot(page, "accounts-login-ar-desktop")
    page.goto("/ar/register")
    page.wait_for_selector("form[data-enhanced=true]")
    page.fill("#id_password", "abc")
    assert "ضعيفة" in page.locator(".pw-strength").inner_text()
    screenshot(page, "accounts-register-ar-desktop")
    page.goto("/ar/reset-password?token=nope")
    expect(page.get_by_role("heading", name="رابط غير صالح أو منتهي الصلاحية")).to_be_visible()
    screenshot(page, "accounts-reset-invalid-ar-desktop")
