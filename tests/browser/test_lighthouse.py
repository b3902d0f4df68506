"""Issue 14: on every storefront page (home, shop, filtered shop, product, cart, checkout; English and Arabic)
Lighthouse's accessibility, best-practices and SEO score 100, and nothing moves after the first paint (CLS 0).

Those three categories do not depend on timing, so CI checks them; performance is a benchmark
(`make lighthouse`, bench/lighthouse.py, figures in bench/RESULTS.md). CLS is measured here with the
browser's own layout-shift entries at a phone's and a desktop's width, the page loaded with nothing cached,
which is quicker than Lighthouse's performance runs and sees the same shifts.
"""

import pytest
from django.conf import settings
from django.test import Client

from bench.lighthouse import LIGHTHOUSE, PAGES, audit, pages
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.storefront_pages import seed_catalogue, settle

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.lighthouse,
    pytest.mark.skipif(not LIGHTHOUSE.exists(), reason="Lighthouse is not installed: `make test` runs npm ci"),
]

# Every layout shift since navigation start, with what moved, collected from the first paint on.
WATCH_SHIFTS = """(() => {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      const name = (s) => (s.node && s.node.nodeType === 1
        ? `${s.node.tagName.toLowerCase()}.${s.node.className}` : String(s.node?.nodeName));
      const moved = (entry.sources || []).map((s) =>
        `${name(s)} from y=${Math.round(s.previousRect.y)} to y=${Math.round(s.currentRect.y)}`);
      window.__shifts.push({ value: entry.value, at: Math.round(entry.startTime), moved });
    }
  }).observe({ type: "layout-shift", buffered: true });
})();"""


@pytest.fixture
def shop_with_a_cart(live_server):
    """The demo catalogue, and the session cookie of a visitor with one tea in the cart."""
    tea = seed_catalogue()
    client = Client()
    response = client.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, content_type="application/json")
    assert response.status_code in (200, 201), response.content
    return settings.SESSION_COOKIE_NAME, client.cookies[settings.SESSION_COOKIE_NAME].value


def test_lighthouse_scores_100_for_accessibility_best_practices_and_seo_on_every_page(live_server, shop_with_a_cart):
    name, value = shop_with_a_cart
    audited = list(pages())
    assert len(audited) == 2 * len(PAGES)
    results = audit([(live_server.url + path, needs_cart) for _label, path, needs_cart in audited],
                    categories=("accessibility", "best-practices", "seo"), cookie=f"{name}={value}", fast=True)
    assert len(results) == len(audited)
    problems = [
        f"{label} ({path}): {result['scores']} {result['error'] or ''} {result['failed']}"
        for (label, path, _cart), result in zip(audited, results, strict=True)
        if result["error"] or any(score != 100 for score in result["scores"].values())
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("prefix", ["", "/ar"])
def test_nothing_moves_after_the_first_paint_on_any_page(new_page, live_server, shop_with_a_cart, screenshot, prefix):
    name, value = shop_with_a_cart
    language = "AR" if prefix else "EN"
    shifted = []
    for viewport, width in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_page(viewport=viewport, locale="ar-EG" if prefix else "en-US")
        page.context.add_cookies([{"name": name, "value": value, "url": live_server.url}])
        # every navigation fetches everything again, as a first visit does: fonts and islands arrive late
        page.context.new_cdp_session(page).send("Network.setCacheDisabled", {"cacheDisabled": True})
        page.add_init_script(WATCH_SHIFTS)
        for label, path, _cart in pages(languages=(language,)):
            page.goto(path)
            settle(page)
            page.wait_for_timeout(300)  # a shift after the islands mounted still counts
            shifts = page.evaluate("() => window.__shifts")
            # CLS 0 as Lighthouse reports it (three decimals): a brand font that arrives after the first
            # paint on a loaded machine may nudge the header by a fraction of a pixel (0.0003 seen), which
            # font-display: swap (issue 12) allows; anything a shopper could notice is far above 0.0005
            if shifts and round(sum(s["value"] for s in shifts), 3) > 0:
                shifted.append(f"{label} ({width}, {path}): CLS {sum(s['value'] for s in shifts):.4f} {shifts}")
            if label.startswith("shop "):
                screenshot(page, f"lighthouse-shop-{language.lower()}-{width}")
    assert not shifted, "\n".join(shifted)
