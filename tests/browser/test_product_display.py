"""How products read on a 360 px phone and a desktop, in English and Arabic (issue 12): no empty
"☆☆☆☆☆ (0)" under a product nobody reviewed, and a title never breaks between a number and its
unit ("250 / g")."""

import pytest

from catalog.models import Category, Product
from catalog.services import review_create, review_set_approved
from tests.browser.conftest import DESKTOP, PHONE, islands_ready
from tests.factories import make_delivered_order

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = [(PHONE, "phone"), (DESKTOP, "desktop")]
LANGUAGES = [("en-US", "", "en"), ("ar-EG", "/ar", "ar")]

# True when, at some width between 90 px and the element's own, the browser puts the number and
# the unit of `needle` ("250 g") on different lines; the width is the test's, set through the CSSOM.
SPLITS_JS = """([el, needle]) => {
  const number = needle.split(" ")[0];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode()) && !node.data.includes(number));
  const start = node.data.indexOf(number);
  const range = document.createRange();
  range.setStart(node, start);
  range.setEnd(node, start + needle.length);
  const widest = Math.ceil(el.getBoundingClientRect().width);
  el.style.display = "block";
  try {
    for (let width = 90; width <= widest; width += 2) {
      el.style.inlineSize = `${width}px`;
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) return width;
    }
    return 0;
  } finally { el.style.removeProperty("inline-size"); el.style.removeProperty("display"); }
}"""


@pytest.fixture
def teas(alice):
    category = Category.objects.create(slug="black-tea", name="Black Tea", name_ar="شاي أسود")
    quiet = Product.objects.create(slug="kenya-black-250", title="Kenya Black Tea 250 g",
                                   title_ar="شاي كيني أسود 250 جم",
                                   price_amount="95.00", category=category, stock=8, is_featured=True)
    loved = Product.objects.create(slug="kenya-gold-100", title="Kenya Gold, 100 bags", title_ar="كينيا جولد، 100 كيس",
                                   price_amount="185.00", category=category, stock=8, is_featured=True)
    make_delivered_order(user=alice, product=loved)
    review_set_approved(review=review_create(user=alice, product=loved, rating=5, title="Lovely", comment="Brisk"),
                        approved=True)
    return quiet, loved


@pytest.mark.parametrize("viewport, size", SIZES, ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_a_product_nobody_reviewed_shows_no_empty_stars(new_page, screenshot, teas, viewport, size, locale, prefix,
                                                        lang):
    quiet, loved = teas
    page = new_page(viewport=viewport, locale=locale)
    # when
    page.goto(f"{prefix}/shop")
    # then the unreviewed card has no rating line; the reviewed one keeps its stars
    quiet_card = page.locator(".product-card", has=page.locator(f'a[href$="/product/{quiet.slug}"]'))
    loved_card = page.locator(".product-card", has=page.locator(f'a[href$="/product/{loved.slug}"]'))
    assert quiet_card.locator(".stars").count() == 0 and "(0)" not in quiet_card.inner_text()
    assert loved_card.locator(".stars").count() == 1 and "(1)" in loved_card.inner_text()
    screenshot(page, f"display-shop-{lang}-{size}")
    # and the product page says so in words
    page.goto(f"{prefix}/product/{quiet.slug}")
    info = page.locator(".product__info")
    assert info.locator(".stars").count() == 0
    no_reviews = "لا توجد تقييمات بعد" if lang == "ar" else "No reviews yet"
    assert page.locator(".product__rating").inner_text() == no_reviews
    assert page.locator("#reviews .stars").count() == 0
    screenshot(page, f"display-product-unreviewed-{lang}-{size}")


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_a_title_never_breaks_between_a_number_and_its_unit(new_page, screenshot, teas, locale, prefix, lang):
    quiet, loved = teas
    needle = "250 جم" if lang == "ar" else "250 g"
    for viewport, size in SIZES:
        page = new_page(viewport=viewport, locale=locale)
        page.goto(f"{prefix}/shop")
        title = page.locator(f'.product-card__title a[href$="/product/{quiet.slug}"]')
        split_at = page.evaluate(SPLITS_JS, [title.element_handle(), needle])
        assert split_at == 0, f"card title: '{needle}' splits at {split_at} px"
        page.goto(f"{prefix}/product/{quiet.slug}")
        split_at = page.evaluate(SPLITS_JS, [page.locator(".product__info h1").element_handle(), needle])
        assert split_at == 0, f"product title: '{needle}' splits at {split_at} px"
        screenshot(page, f"display-product-title-{lang}-{size}")
        # the cart island's line title too
        islands_ready(page, "add-to-cart")
        page.locator(".add-to-cart__button").click()
        page.locator(".mini-cart[open]").wait_for()
        page.goto(f"{prefix}/cart")
        line = page.locator(".cart-line__title").first
        line.wait_for()
        split_at = page.evaluate(SPLITS_JS, [line.element_handle(), needle])
        assert split_at == 0, f"cart line: '{needle}' splits at {split_at} px"
        screenshot(page, f"display-cart-{lang}-{size}")


# how many lines each piece of the product's price line takes ([selector, lines])
PRICE_PIECE_LINES_JS = """(line) => [...line.querySelectorAll('.price, .price--original, .save')].map((el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  return [el.className, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
})"""


@pytest.mark.parametrize("viewport, size", SIZES, ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES, ids=["en", "ar"])
def test_the_save_badge_and_the_prices_never_break_over_two_lines(new_page, screenshot, viewport, size, locale,
                                                                  prefix, lang):
    # given a tea on sale at four-digit prices: E£1,160.00, now E£1,000.00, "Save E£160.00"
    category = Category.objects.create(slug="black-tea", name="Black Tea", name_ar="شاي أسود")
    Product.objects.create(slug="kericho-reserve", title="Kericho Reserve", title_ar="كريتشو ريزيرف",
                           price_amount="1160.00", sale_price_amount="1000.00", category=category, stock=8)
    page = new_page(viewport=viewport, locale=locale)
    # when its page is shown
    page.goto(f"{prefix}/product/kericho-reserve")
    page.evaluate("() => document.fonts.ready.then(() => true)")
    line = page.locator(".product__price")
    # then the badge, the price and the crossed-out price each stay on one line (the line may wrap between them)
    pieces = line.evaluate(PRICE_PIECE_LINES_JS)
    assert [name for name, _ in pieces] == ["price price--big", "price--original", "save"]
    assert all(lines == 1 for _, lines in pieces), pieces
    assert "160" in line.locator(".save").inner_text()
    line.scroll_into_view_if_needed()
    screenshot(page, f"display-product-save-{lang}-{size}")
