"""The shop looks premium (issue 12): the hero's artwork, featured teas filling their row, pictured
Explore and About pages, product pictures with no words, and the product gallery's thumbnails and
lightbox (keyboard, Esc, RTL). Screenshots EN/AR at 360 and 1280 px go to test-artifacts/."""

import re

import pytest
from django.conf import settings
from playwright.sync_api import expect

from catalog.models import Product
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.storefront_pages import seed_catalogue, settle

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = [("phone", PHONE), ("desktop", DESKTOP)]


def _shot(page, screenshot, name):
    page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, name)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_home_shop_and_product_look_finished_at_both_widths(new_page, screenshot, lang):
    seed_catalogue()
    prefix = "/ar" if lang == "ar" else ""
    page = new_page(viewport=DESKTOP, locale="ar-EG" if lang == "ar" else "en-US")
    for size, viewport in SIZES:
        page.set_viewport_size(viewport)
        page.goto(f"{prefix}/")
        settle(page)
        # the hero's artwork is there and loaded; at desktop it fills the hero's other half
        art = page.locator(".hero__art img")
        assert art.evaluate("(img) => img.complete && img.naturalWidth > 0")
        hero, text, figure = (page.locator(sel).bounding_box() for sel in (".hero", ".hero__text", ".hero__art"))
        if size == "desktop":
            assert figure["width"] >= hero["width"] * 0.4 and figure["height"] >= hero["height"] * 0.95
            assert (figure["x"] > text["x"]) == (lang == "en")  # the artwork takes the far side, mirrored in Arabic
        # the featured teas fill their row: no empty column beside the last card
        cards = page.locator(".product-grid--featured > .product-card")
        assert cards.count() == 3
        grid = page.locator(".product-grid--featured").bounding_box()
        if size == "desktop":
            right = max(cards.nth(i).bounding_box()["x"] + cards.nth(i).bounding_box()["width"] for i in range(3))
            left = min(cards.nth(i).bounding_box()["x"] for i in range(3))
            assert right - left >= grid["width"] - 2, (left, right, grid)
        _shot(page, screenshot, f"looks-home-{lang}-{size}")
        page.goto(f"{prefix}/shop")
        settle(page)
        _shot(page, screenshot, f"looks-shop-{lang}-{size}")


def test_demo_product_pictures_carry_no_words_and_come_three_to_a_tea(db):
    seed_catalogue()
    for product in Product.objects.all():
        assert len(product.images) == 3, product.slug
        for url in product.images:
            svg = (settings.MEDIA_ROOT / url.removeprefix(settings.MEDIA_URL)).read_text()
            assert "<text" not in svg and "<tspan" not in svg, url  # nothing written on the pictures
            assert not re.search(r">\s*[A-Za-z]{3,}", svg), url


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_product_gallery_has_thumbnails_and_a_keyboard_lightbox(new_page, screenshot, lang):
    product = seed_catalogue()
    prefix = "/ar" if lang == "ar" else ""
    page = new_page(viewport=PHONE, locale="ar-EG" if lang == "ar" else "en-US")
    for size, viewport in SIZES:
        page.set_viewport_size(viewport)
        page.goto(f"{prefix}/product/{product.slug}")
        settle(page)
        # the gallery's code is not on the page until the shopper reaches for the pictures
        assert page.locator("[data-gallery][data-gallery-ready]").count() == 0
        thumbs = page.locator("[data-gallery-thumb]")
        assert thumbs.count() == 3
        # a thumbnail brings its picture into view and is marked as the current one (the first
        # click loads the code and is replayed)
        thumbs.nth(2).click()
        page.locator("[data-gallery][data-gallery-ready]").wait_for(state="attached")
        expect(thumbs.nth(2)).to_have_attribute("aria-current", "true")
        expect(thumbs.nth(0)).to_have_attribute("aria-current", "false")
        page.wait_for_function("""() => { const track = document.querySelector('.gallery__main');
            const slide = document.getElementById('image-3').getBoundingClientRect();
            const box = track.getBoundingClientRect(); return Math.abs(slide.left - box.left) < 2; }""")
        # keyboard only: focus the first picture, Enter opens the lightbox
        page.locator("#image-1").focus()
        page.keyboard.press("Enter")
        dialog = page.locator("[data-lightbox-dialog]")
        expect(dialog).to_be_visible()
        image = dialog.locator("[data-lightbox-img]")
        expect(image).to_have_attribute("src", re.compile(r"/demo/.+\.svg$"))
        first_src = image.get_attribute("src")
        expect(dialog.locator("[data-lightbox-count]")).to_have_text("1 / 3")
        # the arrow key that points forward in the reading direction goes to the next picture
        page.keyboard.press("ArrowLeft" if lang == "ar" else "ArrowRight")
        expect(dialog.locator("[data-lightbox-count]")).to_have_text("2 / 3")
        assert image.get_attribute("src") != first_src
        expect(image).to_have_js_property("complete", True)
        page.screenshot(path=f"test-artifacts/looks-product-lightbox-{lang}-{size}.png")
        # zoom is a toggle button; the zoomed picture opens on its middle
        zoom = dialog.locator("[data-lightbox-zoom]")
        zoom.click()
        expect(zoom).to_have_attribute("aria-pressed", "true")
        page.wait_for_timeout(150)
        page.screenshot(path=f"test-artifacts/looks-product-lightbox-zoom-{lang}-{size}.png")
        zoom.click()
        # focus stays inside the dialog while it is open
        for _ in range(6):
            page.keyboard.press("Tab")
            assert page.evaluate("() => !!document.activeElement.closest('[data-lightbox-dialog]')")
        # Esc closes and focus goes back to the picture that opened it
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        assert page.evaluate("() => document.activeElement.id") == "image-1"
        _shot(page, screenshot, f"looks-product-{lang}-{size}")


def test_explore_and_about_have_pictures(new_page, screenshot):
    seed_catalogue()
    page = new_page(viewport=PHONE)
    for prefix in ("", "/ar"):
        page.goto(f"{prefix}/explore")
        pictures = page.locator(".category-tile--pictured img")
        assert pictures.count() >= 10
        page.goto(f"{prefix}/about")
        art = page.locator(".about__art img")
        art.scroll_into_view_if_needed()
        page.wait_for_function("() => document.querySelector('.about__art img').complete")
        assert art.evaluate("(img) => img.naturalWidth > 0")
    page.set_viewport_size(DESKTOP)
    page.goto("/explore")
    screenshot(page, "looks-explore-en-desktop")
    page.goto("/ar/about")
    screenshot(page, "looks-about-ar-desktop")


# every choice of a <select> that its box is too narrow to show in full ("Price: High to…"): the same
# select holding only that choice, at its own width, is what showing it whole takes
CLIPPED_CHOICES_JS = """(select) => {
  const clipped = [];
  const has = select.getBoundingClientRect().width;
  for (const option of select.options) {
    const probe = select.cloneNode(false);
    probe.removeAttribute('id');
    probe.append(new Option(option.text));
    probe.style.cssText = 'position: absolute; inline-size: auto; min-inline-size: 0; max-inline-size: none;'
      + ' visibility: hidden';
    select.parentElement.append(probe);
    const needed = probe.getBoundingClientRect().width;
    probe.remove();
    if (has + 0.5 < needed) clipped.push(`${option.text}: ${Math.round(has)} < ${Math.round(needed)} px`);
  }
  return clipped;
}"""


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_shop_sort_shows_its_whole_choice_at_both_widths(new_page, screenshot, lang):
    seed_catalogue()
    prefix = "/ar" if lang == "ar" else ""
    page = new_page(viewport=PHONE, locale="ar-EG" if lang == "ar" else "en-US")
    for size, viewport in SIZES:
        # given the shop sorted by the longest choice, "Price: High to Low" ("السعر: من الأعلى إلى الأقل")
        page.set_viewport_size(viewport)
        page.goto(f"{prefix}/shop?sort=price-desc")
        # when the page (and its filters island) is in
        settle(page)
        select = page.locator("#shop-sort")
        # then the sort box is wide enough for every one of its choices, and stays inside the page
        assert select.evaluate(CLIPPED_CHOICES_JS) == [], size
        box, bar = select.bounding_box(), page.locator(".shop-filters__bar").bounding_box()
        assert bar["x"] - 0.5 <= box["x"] and box["x"] + box["width"] <= bar["x"] + bar["width"] + 0.5
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        # and the Filters button stays on the phone's bar, a full tap target
        if size == "phone":
            toggle = page.locator(".shop-filters__toggle").bounding_box()
            assert toggle["height"] >= 44 and toggle["width"] >= 44
        _shot(page, screenshot, f"looks-shop-sort-{lang}-{size}")
