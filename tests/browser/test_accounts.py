"""Customer accounts in a real browser: register, sign in, /account, reset, in English and Arabic."""

import re
from decimal import Decimal

import pytest
from django.core import mail
from playwright.sync_api import expect

from accounts.models import User
from catalog.models import Category, Product
from orders.models import Order, OrderStatus, PaymentStatus
from tests.browser.conftest import DESKTOP, PHONE, islands_ready
from tests.browser.settle import place_order

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "Tea-Garden-2026"


@pytest.fixture
def tea(db):
    black = Category.objects.create(slug="black-tea", name="Black tea", name_ar="شاي أسود")
    return Product.objects.create(slug="kericho-gold", title="Kericho Gold", title_ar="كريتشو جولد",
                                  price_amount=Decimal("300.00"), stock=10, category=black)


def _buy_with_cash_on_delivery(page, *, prefix="", cod_label="Cash on Delivery"):
    """Add the tea on its page, then check out: the form comes prefilled and the names locked."""
    page.goto(f"{prefix}/product/kericho-gold")
    islands_ready(page, "add-to-cart")
    page.locator(".add-to-cart__button").click()
    page.wait_for_function("() => document.querySelector('.site-header .badge')?.textContent === '1'")
    page.goto(f"{prefix}/checkout")
    page.locator("#co-email").wait_for()
    user = User.objects.get(email=page.locator("#co-email").input_value())
    assert page.locator("#co-firstName").input_value() == user.first_name
    assert page.locator("#co-lastName").input_value() == user.last_name
    assert page.locator("#co-phone").input_value() == user.phone
    for locked in ("#co-email", "#co-firstName", "#co-lastName"):
        assert page.locator(locked).get_attribute("readonly") is not None
    page.fill("#co-street", "12 Nile Street")
    page.fill("#co-city", "Cairo")
    page.select_option("#co-state", "Giza")
    page.get_by_label(cod_label).check()
    place_order(page)
    page.wait_for_url("**/thankyou")
    order = Order.objects.get(user=user)
    assert (order.status, order.payment_status) == (OrderStatus.PROCESSING, PaymentStatus.COD)
    return order


def _fill_register(page, *, email, first="Mona", last="Saleh"):
    page.fill("#id_firstName", first)
    page.fill("#id_lastName", last)
    page.fill("#id_email", email)
    page.fill("#id_phone", "010 1234 5678")
    page.fill("#id_password", PASSWORD)
    page.fill("#id_confirmPassword", PASSWORD)
    page.check("input[name=agreeToTerms]")


def test_register_sign_in_check_out_and_see_the_order_in_english_on_desktop(new_page, screenshot, live_server, tea):
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
        document.querySelector('form[data-account-form]')
            .addEventListener('submit', (e) => { if (window.hold) e.preventDefault(); });
    }""")
    page.click(".auth__submit")
    page.wait_for_function("() => document.querySelector('.auth__submit').textContent === 'Creating Account...'")
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
    # as drawn: the space after the comma survives the link's flex layout
    assert page.locator(".site-header__actions .welcome").inner_text() == "Welcome, Mona"
    session = next(c for c in page.context.cookies() if c["name"] == "sessionid")
    assert session["httpOnly"] and session["sameSite"] == "Lax"

    # checkout comes prefilled; the order then shows in /account
    order = _buy_with_cash_on_delivery(page)
    page.locator(".site-header__actions").get_by_role("link", name="Welcome, Mona").click()
    page.wait_for_url("**/account")
    card = page.locator(f'[data-order="{order.number}"]')
    expect(card).to_be_visible()
    assert "Kericho Gold" in card.inner_text()
    assert "Processing" in card.inner_text() and "Cash on delivery" in card.inner_text()
    assert f"E£{order.total_amount:,.2f}" in card.inner_text()
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "accounts-account-en-desktop")

    # logout from the header
    page.locator(".site-header__actions").get_by_role("button", name="Logout").click()
    page.wait_for_url("**/")
    assert page.locator(".site-header__login").is_visible()


def test_register_sign_in_check_out_and_see_the_order_in_arabic_on_a_phone(new_page, screenshot, tea):
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
    order = _buy_with_cash_on_delivery(page, prefix="/ar", cod_label="الدفع عند الاستلام")
    assert order.language == "ar"
    # the phone menu names the way to the account and its orders
    page.locator(".site-header__menu").click()
    expect(page.get_by_test_id("menu-account")).to_have_text("حسابي")
    page.get_by_test_id("menu-orders").click()
    page.wait_for_url("**/ar/account#orders-heading")
    expect(page.get_by_role("heading", name="حسابي")).to_be_visible()
    card = page.locator(f'[data-order="{order.number}"]')
    expect(card).to_be_visible()
    assert "ج.م" in card.inner_text()
    page.evaluate("window.scrollTo(0, 0)")
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


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_filled_form_with_only_the_terms_unticked_keeps_the_passwords_typed(new_page, lang):
    # given the register form filled in, all but the terms box (its one fault)
    page = new_page(viewport=PHONE, locale="ar-EG" if lang == "ar" else "en-US")
    page.goto(f"{'/ar' if lang == 'ar' else ''}/register")
    page.wait_for_selector("form[data-enhanced=true]")
    _fill_register(page, email="mona@example.com")
    page.uncheck("input[name=agreeToTerms]")
    # when it is sent
    page.click(".auth__submit")
    # then it stays in the browser: the box says why, takes focus, and nothing typed is lost
    message = {"en": "You must agree to the terms and conditions", "ar": "يجب أن توافق على الشروط والأحكام"}[lang]
    expect(page.locator("#error_agreeToTerms")).to_have_text(message)
    expect(page.locator("input[name=agreeToTerms]")).to_be_focused()
    assert page.input_value("#id_password") == PASSWORD and page.input_value("#id_confirmPassword") == PASSWORD
    assert not User.objects.filter(email="mona@example.com").exists()
    # and ticking the box clears the message; then the account is made
    page.check("input[name=agreeToTerms]")
    assert page.locator("#error_agreeToTerms").is_hidden()
    page.click(".auth__submit")
    page.wait_for_url("**/login*")
    assert User.objects.filter(email="mona@example.com").exists()


def test_a_form_sent_back_with_a_problem_puts_focus_on_the_field_at_fault(new_page):
    # given the Arabic register form, without JavaScript's checks in the way (the server's answer is tested)
    page = new_page(viewport=PHONE, locale="ar-EG")
    page.goto("/ar/register")
    page.fill("#id_firstName", "منى")
    page.fill("#id_lastName", "علي")
    page.fill("#id_email", "mona@example.com")
    page.fill("#id_password", "short")
    page.fill("#id_confirmPassword", "short")
    page.locator('input[name="agreeToTerms"]').check()
    # when it is sent and comes back with the password refused
    page.locator('form[data-account-form="register"] button[type="submit"]').click()
    page.wait_for_load_state()
    # then focus is on the password field, whose message in Arabic it points to
    focused = page.locator("#id_password")
    expect(focused).to_be_focused()
    message = page.locator(f"#{focused.get_attribute('aria-describedby')}")
    expect(message).to_contain_text("8")


def test_a_wrong_password_puts_focus_on_the_banner_that_says_so(new_page, live_server):
    # given a customer who mistypes their password on the Arabic sign-in page
    User.objects.create_user(username="mona@example.com", email="mona@example.com", password=PASSWORD,
                             first_name="Mona", last_name="Saleh")
    page = new_page(viewport=PHONE, locale="ar-EG")
    page.goto("/ar/login")
    page.fill("#id_email", "mona@example.com")
    page.fill("#id_password", "not-the-password")
    # when the form comes back refused as a whole (no one field is at fault)
    page.locator('form[data-account-form="login"] button[type="submit"]').click()
    page.wait_for_load_state()
    # then focus is on the banner, so that a screen reader reads the reason first
    banner = page.locator("[data-form-error]")
    expect(banner).to_be_focused()
    expect(banner).not_to_contain_text("Invalid")


# the characters of an element as they are painted, line by line and left to right on each (spaces left out)
PAINTED_LEFT_TO_RIGHT_JS = """(el) => {
  const chars = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i++) {
      if (!node.data[i].trim() || /[\\u2066-\\u2069\\u200e\\u200f]/.test(node.data[i])) continue;
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getBoundingClientRect();
      if (box.width) chars.push([Math.round(box.top + box.height / 2), box.left, node.data[i]]);
    }
  }
  const lineOf = (y) => chars.find(([top]) => Math.abs(top - y) < 8)[0];  // one line's characters share it
  return chars.map(([top, left, ch]) => [lineOf(top), left, ch])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, , ch]) => ch).join('');
}"""


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_phone_examples_read_left_to_right_in_both_languages(new_page, screenshot, lang, viewport):
    # given the register page, whose phone field shows two example numbers
    prefix = "/ar" if lang == "ar" else ""
    page = new_page(viewport=viewport, locale="ar-EG" if lang == "ar" else "en-US")
    page.goto(f"{prefix}/register")
    hint = page.locator("[data-field=phone] .field__hint")
    # when the hint is painted (in Arabic, inside a right-to-left line)
    painted = hint.evaluate(PAINTED_LEFT_TO_RIGHT_JS)
    # then each number keeps its digit groups in order and its "+" in front, like on a phone's dial pad,
    assert "01012345678" in painted, painted
    assert "+201012345678" in painted, painted
    # because each one is an isolated left-to-right island, not a run the sentence's direction reorders
    assert hint.locator("bdi[dir=ltr]").all_inner_texts() == ["010 1234 5678", "+20 10 1234 5678"]
    hint.scroll_into_view_if_needed()
    screenshot(page, f"accounts-phone-hint-{lang}-{'phone' if viewport is PHONE else 'desktop'}")


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_forgot_password_refuses_text_that_is_not_an_e_mail_address(new_page, screenshot, lang, viewport):
    message = {"en": "Please enter a valid email address", "ar": "يرجى إدخال بريد إلكتروني صالح"}[lang]
    sent = {"en": "Check Your Email", "ar": "تحقق من بريدك الإلكتروني"}[lang]
    # given the forgot-password page, and a visitor who types something that is not an address
    prefix = "/ar" if lang == "ar" else ""
    page = new_page(viewport=viewport, locale="ar-EG" if lang == "ar" else "en-US")
    page.goto(f"{prefix}/forgot-password")
    page.wait_for_selector("form[data-enhanced=true]")
    page.fill("#id_email", "not-an-email")
    # when they send it
    page.click(".auth__submit")
    page.wait_for_load_state()
    # then the field says so in the page's language and has focus; no "check your email" and no e-mail
    field = page.locator("#id_email")
    expect(field).to_be_focused()
    expect(page.locator("#error_email")).to_have_text(message)
    expect(page.get_by_role("heading", name=sent)).to_have_count(0)
    assert mail.outbox == []
    screenshot(page, f"accounts-forgot-bad-email-{lang}-{'phone' if viewport is PHONE else 'desktop'}")


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_tap_on_the_agree_to_terms_words_ticks_the_box_and_never_leaves_the_form(new_page, screenshot, lang,
                                                                                   viewport):
    name = {"en": "I agree to the Terms of Service and Privacy Policy",
            "ar": "أوافق على شروط الخدمة وسياسة الخصوصية"}[lang]
    # given a visitor halfway through the register form
    prefix = "/ar" if lang == "ar" else ""
    page = new_page(viewport=viewport, locale="ar-EG" if lang == "ar" else "en-US")
    page.goto(f"{prefix}/register")
    page.wait_for_selector("form[data-enhanced=true]")
    page.fill("#id_email", "mona@example.com")
    page.fill("#id_password", PASSWORD)
    box = page.get_by_role("checkbox", name=name)  # the label names the box, links and all
    label = page.locator("label.checkbox", has=page.locator("input[name=agreeToTerms]"))
    # when they tap the label's words, anywhere along each line of them
    assert label.locator("a").count() == 0
    words = label.locator("span").evaluate("(span) => { span.scrollIntoView({block: 'center'}); "
                                           "return [...span.getClientRects()].map((r) => "
                                           "[r.left, r.top, r.width, r.height]); }")
    taps = [(left + width * share, top + height / 2) for left, top, width, height in words
            for share in (0.1, 0.5, 0.9)]
    for x, y in taps:
        page.mouse.click(x, y)
    # then each tap ticked or unticked the box, and the page and what was typed are still there
    expect(box).to_be_checked(checked=len(taps) % 2 == 1)
    assert page.url.endswith(f"{prefix}/register")
    expect(page.locator("#id_password")).to_have_value(PASSWORD)
    # and the terms, read from the links under it, open in a new tab, leaving the form as it was
    links = page.locator("#agree_links a")
    assert [links.nth(i).get_attribute("target") for i in range(2)] == ["_blank", "_blank"]
    assert all("noopener" in links.nth(i).get_attribute("rel") for i in range(2))
    with page.context.expect_page() as terms:
        links.first.click()
    assert terms.value.url.endswith(f"{prefix}/terms")
    expect(page.locator("#id_password")).to_have_value(PASSWORD)
    assert "agree_links" in box.get_attribute("aria-describedby")
    screenshot(page, f"accounts-register-agree-{lang}-{'phone' if viewport is PHONE else 'desktop'}")
