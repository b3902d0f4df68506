"""A new visitor on a phone, in English and Arabic: browse, search, filter, sort, open a
product, convert a price, read reviews, send a contact message and subscribe."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from catalog.models import Product
from catalog.services import review_create, review_set_approved
from shop.models import ContactMessage, NewsletterSubscriber
from shop.store_settings import store_settings_get
from tests.browser.conftest import DESKTOP, PHONE, islands_ready
from tests.factories import make_delivered_order

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def catalogue(alice):
    call_command("seed_demo", verbosity=0)
    product = Product.objects.filter(is_active=True, stock__gt=0).order_by("pk").first()
    make_delivered_order(user=alice, product=product)
    review = review_create(user=alice, product=product, rating=4, title="<script>window.pwned=1</script>Lovely",
                           comment="Bright and brisk")
    review_set_approved(review=review, approved=True)
    return product


@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")])
def test_a_phone_visitor_browses_searches_filters_and_sorts(new_page, screenshot, catalogue, locale, prefix):
    lang = "ar" if prefix else "en"
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/")
    screenshot(page, f"storefront-home-{lang}-phone")
    page.goto(f"{prefix}/shop")
    islands_ready(page, "shop-filters")
    screenshot(page, f"storefront-shop-{lang}-phone")
    total = int(page.locator(".shop-results").get_attribute("data-total"))
    assert total > 3
    # filter: open the panel, pick a category
    page.locator(".shop-filters__toggle").click()
    page.locator('input[name="category"][value="green-tea"]').check()
    page.wait_for_url(re.compile(r"category=green-tea"))
    page.locator('#shop-results:not([aria-busy]) .shop-results').wait_for()
    filtered = int(page.locator(".shop-results").get_attribute("data-total"))
    assert 0 < filtered < total
    # sort
    page.locator("#shop-sort").select_option("price-asc")
    page.wait_for_url(re.compile(r"sort=price-asc"))
    screenshot(page, f"storefront-shop-filtered-{lang}-phone")
    # the URL reloads to the same list without JavaScript
    assert "category=green-tea" in page.url
    page.reload()
    assert int(page.locator(".shop-results").get_attribute("data-total")) == filtered
    # clear all, then search
    page.locator("a.chip--clear").click()
    page.wait_for_url(re.compile(r"/shop$"))
    page.locator(".shop-filters__toggle").click() if not page.locator("#shop-search").is_visible() else None
    page.locator("#shop-search").fill("اخضر" if lang == "ar" else "GREEN")
    page.locator("#shop-search").press("Enter")
    page.wait_for_url(re.compile(r"search="))
    page.locator('#shop-results:not([aria-busy]) .product-card').first.wait_for()
    assert int(page.locator(".shop-results").get_attribute("data-total")) >= 1
    # back restores the previous list
    page.go_back()
    page.wait_for_url(re.compile(r"/shop$"))


@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")])
def test_a_phone_visitor_opens_a_product_reads_reviews_and_converts_a_price(new_page, screenshot, catalogue, locale,
                                                                            prefix):
    lang = "ar" if prefix else "en"
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/shop")
    page.locator(".product-card__title a").first.click()
    page.wait_for_url(re.compile(r"/product/"))
    page.goto(f"{prefix}/product/{catalogue.slug}")
    islands_ready(page, "add-to-cart")
    # reviews: the visitor's text is shown, inert
    assert "<script>window.pwned=1</script>Lovely" in page.locator(".review__title").first.inner_text()
    assert page.evaluate("window.pwned") is None
    # the stepper stays within 1..stock, and within what one cart line may hold
    stepper = page.locator(".stepper input")
    page.get_by_role("button", name=re.compile("Decrease|إنقاص")).is_disabled()
    page.get_by_role("button", name=re.compile("Increase|زيادة")).click()
    assert stepper.input_value() == "2"
    stepper.fill("100000")
    assert int(stepper.input_value()) == min(catalogue.stock, store_settings_get().max_quantity_per_line)
    # rate badge and converter
    assert "0.376" in page.locator(".rate-badge").first.inner_text()
    page.locator(".converter > button").first.click()
    page.locator(".converter__quick .chip").nth(2).click()  # KSh 1,000
    assert "376.00" in page.locator(".converter__result output").inner_text()
    screenshot(page, f"storefront-product-{lang}-phone")
    page.locator(".converter__actions button").first.click()  # swap: 1000 EGP → KES
    assert "2,660" in page.locator(".converter__result output").inner_text()
    # the tabs: Details first, then the reviews with the form explaining who may write
    islands_ready(page, "product-tabs")
    assert page.locator("#details").is_visible() and not page.locator("#reviews").is_visible()
    page.get_by_role("tab", name=re.compile("Reviews|التقييمات")).click()
    assert page.locator(".review__title").first.is_visible()
    assert not page.locator("#details").is_visible()
    assert page.locator('[data-island="review-form"] .alert').is_visible()


@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")])
def test_a_phone_visitor_sends_a_contact_message_and_subscribes(new_page, screenshot, catalogue, locale, prefix):
    lang = "ar" if prefix else "en"
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/contact")
    page.locator("#c-name").fill("Sara")
    page.locator("#c-email").fill(f"sara-{lang}@example.com")
    page.locator("#c-subject").fill("Wholesale")
    page.locator("#c-message").fill("Do you sell 5 kg bags?")
    page.locator(".contact-form button[type=submit]").click()
    page.locator(".alert--success").wait_for()
    screenshot(page, f"storefront-contact-{lang}-phone")
    assert ContactMessage.objects.filter(email=f"sara-{lang}@example.com").exists()
    # the footer newsletter island (its code loads as the footer comes into view)
    page.locator(".site-footer").scroll_into_view_if_needed()
    islands_ready(page, "newsletter-form")
    page.locator("#newsletter-email").fill(f"news-{lang}@example.com")
    page.locator(".newsletter-form button").click()
    page.locator(".newsletter-form .alert--success").wait_for()
    assert NewsletterSubscriber.objects.filter(email=f"news-{lang}@example.com").exists()


@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_contact_form_field_error_says_only_what_is_wrong_at_that_field(new_page, screenshot, locale, prefix,
                                                                           viewport):
    lang = "ar" if prefix else "en"
    bad_email = {"en": "Please enter a valid email address", "ar": "يرجى إدخال بريد إلكتروني صالح"}[lang]
    empty = {"en": "Please fill in all fields", "ar": "يرجى ملء جميع الحقول"}[lang]
    generic = {"en": "There was an error sending", "ar": "حدث خطأ أثناء إرسال"}[lang]
    # given a visitor who typed everything but a real e-mail address
    page = new_page(viewport=viewport, locale=locale)
    page.goto(f"{prefix}/contact")
    page.locator("#c-name").fill("Sara")
    page.locator("#c-email").fill("sara-at-example")
    page.locator("#c-subject").fill("Wholesale")
    page.locator("#c-message").fill("Do you sell 5 kg bags?")
    # when the form comes back
    page.locator(".contact-form button[type=submit]").click()
    page.wait_for_load_state()
    # then the e-mail field says what is wrong, in the page's language, and has focus; nothing claims sending failed
    email = page.locator("#c-email")
    expect(email).to_be_focused()
    expect(email).to_have_attribute("aria-invalid", "true")
    expect(page.locator(f"#{email.get_attribute('aria-describedby')}")).to_have_text(bad_email)
    expect(page.locator(".alert--error")).to_have_count(0)
    expect(page.locator("main")).not_to_contain_text(generic)
    expect(page.locator("#c-message")).to_have_value("Do you sell 5 kg bags?")  # what they typed is kept
    screenshot(page, f"storefront-contact-bad-email-{lang}-{'phone' if viewport is PHONE else 'desktop'}")
    # and an empty field says so at that field, the same way
    page.locator("#c-email").fill("sara@example.com")
    page.locator("#c-subject").fill("")
    page.locator(".contact-form button[type=submit]").click()
    page.wait_for_load_state()
    expect(page.locator("#c-subject")).to_be_focused()
    expect(page.locator("#c-subject-error")).to_have_text(empty)
    expect(page.locator("#c-email")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("main")).not_to_contain_text(generic)


def test_desktop_pages_in_both_languages(new_page, screenshot, catalogue):
    for prefix, lang in (("", "en"), ("/ar", "ar")):
        page = new_page(viewport=DESKTOP, locale="ar-EG" if lang == "ar" else "en-US")
        for name, path in (("home", "/"), ("shop", "/shop?view=list&price=100-200"),
                           ("product", f"/product/{catalogue.slug}"),
                           ("about", "/about"), ("terms", "/terms"), ("explore", "/explore")):
            page.goto(prefix + path)
            screenshot(page, f"storefront-{name}-{lang}-desktop")
            assert page.locator("html").get_attribute("dir") == ("rtl" if lang == "ar" else "ltr")


def _sign_in(page, live_server, user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                               "url": live_server.url}])


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")], ids=["en", "ar"])
def test_a_verified_buyer_writes_a_review_that_waits_for_approval(new_page, screenshot, live_server, catalogue, alice,
                                                                  locale, prefix,
                                                                   viewport):
    lang = "ar" if prefix else "en"
    size = "phone" if viewport is PHONE else "desktop"
    page = new_page(viewport=viewport, locale=locale)
    _sign_in(page, live_server, alice)
    page.goto(f"{prefix}/product/{catalogue.slug}#reviews")
    islands_ready(page, "review-form")
    form = page.locator(".review-form")
    # empty fields are refused before any request: both are marked, and the first is focused where the
    # shopper sees it (not under the phone's sticky header and tabs)
    page.locator("#review-comment").fill("Lovely")
    page.locator("#review-comment").fill("")
    form.locator("button[type=submit]").click()
    assert form.locator(".alert--error").is_visible()
    expect(page.locator("#review-title")).to_be_focused()
    for field in ("#review-title", "#review-comment"):
        assert page.locator(field).get_attribute("aria-invalid") == "true"
        assert page.locator(field).get_attribute("aria-describedby") == "review-problem"
    hidden_above = page.evaluate("""() => {
        const covers = [...document.querySelectorAll('.site-header, .tabs')].filter((el) =>
            ['sticky', 'fixed'].includes(getComputedStyle(el).position));
        const top = document.querySelector('#review-title').getBoundingClientRect().top;
        return covers.some((el) => el.getBoundingClientRect().bottom > top);
    }""")
    assert not hidden_above
    form.locator(".rating-input label").nth(2).click()
    page.locator("#review-title").fill("Malty and bright")
    assert page.locator("#review-title").get_attribute("aria-invalid") is None
    page.locator("#review-comment").fill("<b>Great</b> with milk.")
    form.locator("button[type=submit]").click()
    form.locator(".alert--success").wait_for()
    screenshot(page, f"storefront-review-sent-{lang}-{size}")
    review = catalogue.reviews.get(title="Malty and bright")
    assert (review.rating, review.is_approved, review.comment) == (3, False, "<b>Great</b> with milk.")
    # the form gave way to the thank-you note: no blank form with five stars lit again
    thanks = ("تم إرسال التقييم بنجاح" if lang == "ar"
              else "Review submitted successfully! It will be visible after approval.")
    assert thanks in form.inner_text()
    assert page.locator("#review-title, #review-comment, .rating-input").count() == 0
    assert page.evaluate("document.activeElement.classList.contains('alert--success')")
    form.screenshot(path=f"test-artifacts/storefront-review-thanks-{lang}-{size}.png")


def test_add_to_cart_updates_the_header_badge_on_a_phone(new_page, catalogue):
    # given
    page = new_page(viewport=PHONE, locale="ar-EG")
    page.goto(f"/ar/product/{catalogue.slug}")
    islands_ready(page, "add-to-cart")
    # when
    page.get_by_role("button", name="زيادة الكمية").click()
    page.get_by_role("button", name="زيادة الكمية").click()
    page.locator(".add-to-cart__button").click()
    # then
    page.locator(".mini-cart[open]").wait_for()
    expect(page.locator('[data-island="cart-badge"] .badge')).to_have_text("3")
    expect(page.locator('[data-island="cart-badge"] .visually-hidden')).to_have_text("3 منتجات في السلة")


@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")])
def test_a_dead_newsletter_link_leads_to_the_footer_form_in_view(new_page, screenshot, locale, prefix):
    # given a shopper on a phone who opened a confirmation link that no longer leads anywhere
    lang = "ar" if prefix else "en"
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/newsletter/confirm/bogus")
    # when they follow the page's advice and tap Subscribe
    page.get_by_role("link", name="Subscribe" if lang == "en" else "اشترك", exact=True).click()
    # then the footer's e-mail field has the focus, clear of the sticky header (the button under it too)
    expect(page.locator("#newsletter-email")).to_be_focused()
    page.wait_for_timeout(300)  # the jump's scroll
    header = page.locator(".site-header").bounding_box()
    field = page.locator("#newsletter-email").bounding_box()
    screenshot(page, f"newsletter-dead-link-{lang}-phone")
    assert field["y"] >= header["y"] + header["height"], (field, header)


@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")])
def test_subscribing_in_the_footer_keeps_the_focus_on_the_form(new_page, locale, prefix):
    # given a keyboard shopper at the footer's newsletter form
    lang = "ar" if prefix else "en"
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/about")
    page.locator(".site-footer").scroll_into_view_if_needed()
    islands_ready(page, "newsletter-form")
    page.locator("#newsletter-email").fill(f"keys-{lang}@example.com")
    page.locator("#newsletter-email").press("Tab")
    expect(page.locator(".newsletter-form button")).to_be_focused()
    # when they press Enter on Subscribe
    page.keyboard.press("Enter")
    page.locator(".newsletter-form .alert--success").wait_for()
    # then the focus is still on Subscribe, not thrown back to the page's start by a button disabled while busy
    expect(page.locator(".newsletter-form button")).to_be_focused()
    assert NewsletterSubscriber.objects.filter(email=f"keys-{lang}@example.com").exists()


@pytest.mark.parametrize("islands", [True, False], ids=["island", "stand-in"])
@pytest.mark.parametrize("prefix", ["", "/ar"], ids=["en", "ar"])
def test_a_mistyped_newsletter_address_is_told_in_the_page_s_language(new_page, prefix, islands):
    # given a shopper on a page in either language, whose browser speaks English
    lang = "ar" if prefix else "en"
    page = new_page(viewport=PHONE, locale="en-US")
    if not islands:  # the form as the page sends it: its island's code never comes (no swap mid-click)
        page.route("**/newsletter-form-*.js", lambda route: route.abort())
    page.goto(f"{prefix}/about")
    page.locator(".site-footer").scroll_into_view_if_needed()
    if islands:
        islands_ready(page, "newsletter-form")
    # when they send an address without its @
    page.locator("#newsletter-email").fill("reader.example.com")
    page.locator(".newsletter-form button").click()
    # then the shop says so in the page's language (not the browser's bubble in the browser's), and keeps no one
    expect(page.locator(".alert--error").first).to_contain_text(
        "Please enter a valid email address" if lang == "en" else "يرجى إدخال بريد إلكتروني صالح")
    assert not NewsletterSubscriber.objects.exists()


# the width the field's placeholder needs in its own font, and the width the field has for it
PLACEHOLDER_ROOM = """(el) => {
  const style = getComputedStyle(el);
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = style.font;
  return [pen.measureText(el.placeholder).width,
          el.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd)];
}"""


@pytest.mark.parametrize("width", [PHONE["width"], 320], ids=["360", "320"])
@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")])
def test_the_footer_newsletter_field_and_button_share_one_line_on_a_phone(new_page, screenshot, locale, prefix, width):
    # given the footer's newsletter form on a 360 px phone, in either language (Arabic's font draws the empty
    # field wider, which pushed Subscribe onto a line of its own), and on a 320 px one (where both languages'
    # Subscribe went below a full-width field, at the line's start)
    lang = "ar" if prefix else "en"
    page = new_page(viewport={**PHONE, "width": width}, locale=locale)
    page.goto(f"{prefix}/about")
    page.locator(".site-footer").scroll_into_view_if_needed()
    islands_ready(page, "newsletter-form")
    field = page.locator("#newsletter-email").bounding_box()
    button = page.locator(".newsletter-form button").bounding_box()
    # then Subscribe sits beside the field, on the same line, and both fit the screen
    assert abs(button["y"] - field["y"]) < field["height"] / 2, (field, button)
    assert min(field["x"], button["x"]) >= 0 and max(field["x"] + field["width"],
                                                     button["x"] + button["width"]) <= width
    assert field["width"] >= 160, field
    # and the field shows its whole placeholder ("Your email address")
    needed, room = page.locator("#newsletter-email").evaluate(PLACEHOLDER_ROOM)
    assert needed <= room, (needed, room)
    screenshot(page, f"newsletter-footer-{lang}-{'phone' if width == PHONE['width'] else width}")
