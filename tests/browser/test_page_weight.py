"""The budget: a storefront page's own JS + CSS, React included, is at most 100 KB gzipped; its
fonts, counted apart, at most 60 KB for the first view, self-hosted, preloaded, font-display: swap."""

import gzip
from pathlib import Path
from urllib.parse import urlparse

import pytest

from catalog.models import Category, Product
from orders.models import Cart

pytestmark = pytest.mark.django_db(transaction=True)

STATIC = Path(__file__).resolve().parents[2] / "static"
BUDGET = 100 * 1024  # 100 KB (KiB), gzip level 9, as whitenoise would send it without brotli
FONT_BUDGET = 60 * 1024  # woff2 is compressed already: counted as sent
ENGLISH_PAGES = ("/", "/shop", "/product/kenya-gold", "/cart", "/checkout", "/contact", "/login", "/register")
# and each in Arabic: its i18next strings are other bytes (Arabic letters, escaped by esbuild), and /ar/checkout was
# the heaviest page of all while only the English ones were weighed
PAGES = ENGLISH_PAGES + tuple(f"/ar{path}" for path in ENGLISH_PAGES)


def _gzipped_size(url_path):
    relative = url_path.split("/static/", 1)[1].split("?")[0]
    return len(gzip.compress((STATIC / relative).read_bytes(), compresslevel=9))


def _font_size(url_path):
    return (STATIC / url_path.split("/static/", 1)[1].split("?")[0]).stat().st_size


def _is_font(url):
    return url.split("?")[0].endswith((".woff2", ".woff", ".ttf", ".otf"))


def _weight(page, path):
    """(JS+CSS gzip bytes, font bytes, assets, fonts) of one page's first view (nothing cached)."""
    assets, fonts = set(), set()

    def seen(response):
        if _is_font(response.url):
            fonts.add(response.url)
        elif "/static/dist/" in response.url and response.url.split("?")[0].endswith((".js", ".css")):
            assets.add(response.url)

    page.on("response", seen)
    page.goto(path)
    page.wait_for_load_state("networkidle")
    page.evaluate("() => document.fonts.ready.then(() => true)")
    page.remove_listener("response", seen)
    # the stylesheets inlined into the page (shop_tags.inline_styles) count as if they were fetched
    inline = page.evaluate("() => [...document.querySelectorAll('style')].map((s) => s.textContent).join('')")
    inline_size = len(gzip.compress(inline.encode(), compresslevel=9)) if inline else 0
    return (inline_size + sum(_gzipped_size(url) for url in assets),
            sum(_font_size(url) for url in fonts if "/static/" in url), sorted(assets), sorted(fonts))


@pytest.fixture
def tea(db):
    category = Category.objects.create(slug="black-tea", name="Black Tea", name_ar="شاي أسود")
    # three pictures, so the product page loads its gallery and lightbox too
    pictures = [f"/static/dist/art/{name}" for name in ("hero.svg", "estate-dawn.svg", "hero.svg?2")]
    return Product.objects.create(slug="kenya-gold", title="Kenya Gold", title_ar="كينيا جولد", price_amount="120.00",
                                  category=category, stock=5, images=pictures)


def _page_with_a_cart(new_page, live_server, tea, prefix=""):
    page = new_page()
    # every navigation fetches everything again, as a first visit would
    page.context.new_cdp_session(page).send("Network.setCacheDisabled", {"cacheDisabled": True})
    # a cart with a line, so the cart and checkout pages show their islands
    page.goto(f"{prefix}/")
    page.evaluate("""(id) => fetch('/api/cart/items', {method: 'POST', credentials: 'same-origin',
        headers: {'Content-Type': 'application/json',
          'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || ''},
        body: JSON.stringify({productId: id, quantity: 1})})""", tea.pk)
    assert Cart.objects.exists()
    return page


def test_every_storefront_page_stays_within_the_budget(new_page, live_server, tea):
    page = _page_with_a_cart(new_page, live_server, tea)
    report = {}
    for path in PAGES:
        weight, _fonts, assets, _ = _weight(page, path)
        report[path] = weight
        assert weight <= BUDGET, f"{path} loads {weight} bytes gzipped: {assets}"
    print("page weights (gzip bytes):", report)


@pytest.mark.parametrize("prefix", ["", "/ar"])
def test_the_brand_fonts_are_ours_preloaded_swapped_and_within_60_kb(new_page, live_server, tea, prefix):
    page = _page_with_a_cart(new_page, live_server, tea, prefix)
    report = {}
    for path in ENGLISH_PAGES:
        _weight_js_css, weight, _assets, fonts = _weight(page, f"{prefix}{path}")
        report[path] = weight
        # served by whitenoise from our own static files, nowhere else
        assert fonts, f"{prefix}{path} uses no brand font"
        assert all(urlparse(url).netloc == urlparse(live_server.url).netloc and "/static/dist/fonts/" in url
                   for url in fonts), fonts
        assert weight <= FONT_BUDGET, f"{prefix}{path} loads {weight} bytes of fonts: {fonts}"
        # every font the first view fetched was preloaded (no late discovery), and the preloads all get used
        preloaded = set(page.eval_on_selector_all("link[rel=preload][as=font]", "(links) => links.map((l) => l.href)"))
        assert preloaded == set(fonts), (preloaded, fonts)
        # text shows at once in the fallback face, then swaps
        displays = page.evaluate("() => [...document.fonts].map((f) => f.family + ' ' + f.weight + ' ' + f.display)")
        assert displays and all(d.endswith(" swap") for d in displays), displays
    print("font weights (bytes):", report)
