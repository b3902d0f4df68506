"""The rate badge and the currency converter on a phone and across widths (shopper review, session 29):
on a 360 px phone the shop's first product started 460 px down, under the two-way rate badge and the
converter's button, each on a line of its own; and the Arabic badge wrapped with its "·" alone at a line's
end. Now a phone shows the one-way rate and a small converter control beside the page's title, the islands
keep the server's box (CLS 0), and a separator only ever stands between two rates on one line."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from catalog.models import Category, Product
from tests.browser.conftest import DESKTOP

pytestmark = pytest.mark.django_db(transaction=True)

PHONE_360 = {"width": 360, "height": 780}
LANGUAGES = [("en-US", "", "Currency converter"), ("ar-EG", "/ar", "محوّل العملات")]


@pytest.fixture
def teas(db):
    black = Category.objects.create(slug="black-tea", name="Black Tea", name_ar="شاي أسود")
    return [Product.objects.create(slug=f"tea-{n}", title=f"Kenya Tea {n}, 20 bags", title_ar=f"شاي كيني {n}، 20 كيس",
                                   price_amount=Decimal("120.00") + n, stock=9, category=black) for n in range(6)]


def _box(locator):
    return locator.evaluate("(el) => { const r = el.getBoundingClientRect(); "
                            "return [r.left, r.top, r.width, r.height].map(Math.round); }")


@pytest.mark.parametrize("locale, prefix, converter", LANGUAGES, ids=["en", "ar"])
def test_a_phone_sees_the_first_products_in_its_first_screen(new_page, screenshot, teas, locale, prefix, converter):
    # given the shop on a 360 px phone
    page = new_page(viewport=PHONE_360, locale=locale)
    page.goto(f"{prefix}/shop")
    page.wait_for_load_state("networkidle")
    screenshot(page, f"shop-phone-first-screen-{prefix.strip('/') or 'en'}")
    # then the first products start well inside the first screen (they began at 460 px), and nothing scrolls sideways
    assert _box(page.locator(".product-card").first)[1] <= 360
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    # and the rate and the converter's control share the title's line
    title, badge = _box(page.locator(".shop__head h1")), _box(page.locator(".rate-badge"))
    control = page.get_by_role("button", name=converter)
    assert abs((title[1] + title[3] / 2) - (badge[1] + badge[3] / 2)) <= 8
    assert "0.376" in page.locator(".rate-badge").inner_text()
    # the control is a finger's size and named for a screen reader
    _, _, width, height = _box(control)
    assert width >= 44 and height >= 44
    # when it is tapped, the converter opens, and the control has not moved
    before = _box(control)
    control.click()
    expect(page.locator(".converter__panel")).to_be_visible()
    assert _box(page.get_by_role("button", name=converter)) == before
    screenshot(page, f"shop-phone-converter-{prefix.strip('/') or 'en'}")


@pytest.mark.parametrize("viewport", [PHONE_360, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix, converter", LANGUAGES, ids=["en", "ar"])
def test_the_rate_badge_mounts_over_its_stand_in_without_a_move(new_page, teas, viewport, locale, prefix, converter):
    # given the shop as the server wrote it, layout shifts counted from now
    page = new_page(viewport=viewport, locale=locale)
    page.goto(f"{prefix}/shop")
    page.wait_for_load_state("networkidle")
    page.evaluate("() => document.fonts.ready.then(() => true)")
    page.evaluate("""() => { window.shifted = 0; new PerformanceObserver((list) => list.getEntries()
        .forEach((entry) => { window.shifted += entry.value; })).observe({type: "layout-shift"}); }""")
    island = page.locator('[data-island="rate-badge"]')
    seen = (island.inner_html(), _box(island))
    # when the page's rate clock brings the same rate, which mounts the badge's island
    page.evaluate("() => window.dispatchEvent(new CustomEvent('shop:rate-updated', {detail: {rate: 0.376}}))")
    page.locator('[data-island="rate-badge"][data-mounted]').wait_for(state="attached")
    page.wait_for_timeout(200)
    # then it writes what the server wrote, in the same box, and nothing moved
    assert (island.inner_html(), _box(island)) == seen
    assert page.evaluate("window.shifted") == 0


# every "·" the badge shows, with the lines of the rates' own text around it: a separator must have a rate
# before it and after it on its own line
DANGLING = """() => {
  const problems = [];
  for (const badge of document.querySelectorAll('.rate-badge')) {
    badge.scrollIntoView({block: 'center'});
    const texts = [];
    const walker = document.createTreeWalker(badge, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      texts.push({node, separator: node.textContent.trim() === '·', rects: [...range.getClientRects()]});
    }
    texts.forEach((text, index) => {
      if (!text.separator) return;
      for (const rect of text.rects) {
        const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
        if (!hit || !text.node.parentElement.contains(hit)) continue;  // clipped away: not shown
        const sameLine = (other) => !other.separator && other.rects.some((r) => Math.abs(r.top - rect.top) < 4);
        if (!texts.slice(0, index).some(sameLine) || !texts.slice(index + 1).some(sameLine)) {
          problems.push(badge.innerText.replace(/\\s+/g, ' '));
        }
      }
    });
  }
  return problems;
}"""


@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")], ids=["en", "ar"])
def test_the_rate_badge_never_leaves_a_separator_at_a_lines_end(new_page, teas, locale, prefix):
    page = new_page(viewport=DESKTOP, locale=locale)
    for path in ("/shop", "/product/tea-1"):
        page.goto(f"{prefix}{path}")
        page.wait_for_load_state("networkidle")
        for width in range(320, 1281, 16):
            page.set_viewport_size({"width": width, "height": 800})
            assert page.evaluate(DANGLING) == [], f"{path} at {width} px"
