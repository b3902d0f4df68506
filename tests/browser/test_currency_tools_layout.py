"""The rate badge across widths (shopper review, session 29): the Arabic badge wrapped with its "·" alone
at a line's end. Now a separator only ever stands between two rates on one line, and the badge's island
keeps the server's markup and box (CLS 0)."""

from decimal import Decimal

import pytest

from catalog.models import Category, Product
from tests.browser.conftest import DESKTOP

pytestmark = pytest.mark.django_db(transaction=True)

PHONE_360 = {"width": 360, "height": 780}
LANGUAGES = [("en-US", ""), ("ar-EG", "/ar")]


@pytest.fixture
def teas(db):
    black = Category.objects.create(slug="black-tea", name="Black Tea", name_ar="شاي أسود")
    return [Product.objects.create(slug=f"tea-{n}", title=f"Kenya Tea {n}, 20 bags", title_ar=f"شاي كيني {n}، 20 كيس",
                                   price_amount=Decimal("120.00") + n, stock=9, category=black) for n in range(6)]


def _box(locator):
    return locator.evaluate("(el) => { const r = el.getBoundingClientRect(); "
                            "return [r.left, r.top, r.width, r.height].map(Math.round); }")


@pytest.mark.parametrize("viewport", [PHONE_360, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix", LANGUAGES, ids=["en", "ar"])
def test_the_rate_badge_mounts_over_its_stand_in_without_a_move(new_page, teas, viewport, locale, prefix):
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
