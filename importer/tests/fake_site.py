"""A fake producer site and fake rate services, served on 127.0.0.1 by the tests.

Modelled on the producer's WooCommerce shop (reference note, part A): category
listings under /product-category/<slug>/, product pages under /product/<slug>/,
'KSh' and the customised 'KShs' symbol, del/ins sale markup with screen-reader
copies, a price range, cards with no price, JSON-LD in some product pages only.
"""

import json
import struct
import threading
import time
import zlib
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def png_bytes(width=2, height=2, rgb=(120, 60, 20)):
    """A tiny valid PNG."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


@dataclass
class Answer:
    status: int = 200
    body: bytes | str = b""
    headers: dict = field(default_factory=dict)
    content_type: str = "text/html; charset=utf-8"
    trickle: float = 0  # seconds between the body's bytes: a site that answers at a crawl


class FakeServer:
    """Serve `routes` (path+query -> Answer, list of Answers in turn, or callable)."""

    def __init__(self):
        self.routes = {}
        self.requests = []  # (monotonic time, path with query, user agent)
        self.host_headers = []  # the Host header of each request, in order
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body go out at once, as from a real server

            def do_GET(self):  # noqa: N802
                with server.lock:
                    server.requests.append((time.monotonic(), self.path, self.headers.get("User-Agent", "")))
                    server.host_headers.append(self.headers.get("Host", ""))
                answer = server.answer(self.path)
                body = answer.body.encode() if isinstance(answer.body, str) else answer.body
                self.send_response(answer.status)
                self.send_header("Content-Type", answer.content_type)
                if "Content-Length" not in answer.headers:  # a test may send its own, however wrong
                    self.send_header("Content-Length", str(len(body)))
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                if not answer.trickle:
                    self.wfile.write(body)
                for byte in body if answer.trickle else b"":
                    time.sleep(answer.trickle)
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.handle_error = lambda request, address: None  # clients hanging up are fine
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02},
                                       daemon=True)

    def answer(self, path):
        route = self.routes.get(path)
        if route is None:
            return Answer(404, "<html><body><h1>Not found</h1></body></html>")
        if callable(route):
            return route()
        if isinstance(route, list):
            with self.lock:
                return route.pop(0) if len(route) > 1 else route[0]
        return route

    def hits(self, path):
        return sum(1 for _t, p, _ua in self.requests if p == path)

    def times(self, path):
        return [t for t, p, _ua in self.requests if p == path]

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


# -- page builders -----------------------------------------------------------------


def page(body, *, body_class="", head="", charset_meta='<meta charset="utf-8">'):
    return f"""<!doctype html><html lang="en"><head>{charset_meta}<title>Kericho Gold</title>{head}</head>
<body class="{body_class}"><header><a href="/">Home</a> <a href="/shop/">Shop</a>
<a href="/cart/">Cart</a> <a href="/my-account/">My account</a></header>{body}</body></html>"""


def woo_price(amount, symbol="KSh"):
    return (f'<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">'
            f"{symbol}</span>&nbsp;{amount}</bdi></span>")


def card(name, link, *, price_html=None, image="", category="black-tea", add_to_cart=None):
    price = f'<span class="price">{price_html}</span>' if price_html else ""
    cta = (f'<a href="/shop/?add-to-cart={add_to_cart}" class="button add_to_cart_button">Add to cart</a>'
           if add_to_cart else f'<div class="kericho-view-product"><a href="{link}">View Product</a></div>')
    img = f'<img src="{image}" alt="" class="wp-post-image">' if image else ""
    return (f'<li class="product type-product product_cat-{category} instock">'
            f'<a href="{link}" class="woocommerce-LoopProduct-link">{img}'
            f'<h2 class="woocommerce-loop-product__title">{name}</h2></a>{price}{cta}</li>')


def listing(cards, *, next_url=None, extra=""):
    pager = (f'<nav class="woocommerce-pagination"><ul class="page-numbers"><li>'
             f'<a class="next page-numbers" href="{next_url}">Next</a></li></ul></nav>') if next_url else ""
    return page(f'<main><ul class="products columns-4">{"".join(cards)}</ul>{pager}{extra}</main>',
                body_class="archive woocommerce")


def product_page(name, *, price_html, image, description, jsonld=None):
    script = (f'<script type="application/ld+json">{json.dumps(jsonld)}</script>') if jsonld else ""
    return page(f"""<main><div class="product type-product">
<div class="woocommerce-product-gallery"><img src="{image}" data-large_image="{image}" alt="{name}"></div>
<div class="summary entry-summary"><h1 class="product_title entry-title">{name}</h1>
<p class="price">{price_html}</p>
<div class="woocommerce-product-details__short-description"><p>{description}</p></div>
<a href="?add-to-cart=99">Add to cart</a></div></div></main>{script}""", body_class="single-product woocommerce")


# -- the producer ---------------------------------------------------------------------

ROBOTS = "User-agent: *\nDisallow: /product-category/secret-teas/\n"
# (name, KES price, EGP at rate 0.40 and markup 100 %, category the importer should pick)
EXPECTED = {
    "Kericho Gold Pure Kenya Tea 100 Tea Bags": ("1250.00", "1000", "black-tea"),
    "Strawberry & Vanilla 20TB": ("380.00", "304", "speciality-teas"),
    "Luxury Pyramid Darjeeling": ("650.00", "520", "luxury-pyramid"),
    "Kericho Gold 100g Leaf Tea": ("73.00", "58", "black-tea"),
    "Ginger & Lemon": ("320.00", "256", "speciality-teas"),
    "Hangover Tea": ("350.00", "280", "attitude-teas"),
    "Love Tea": ("280.00", "224", "attitude-teas"),
    "Detox Tea": ("420.00", "336", "health-wellness"),
    "Kericho Gold Loose Leaf 500g": ("890.00", "712", "black-tea"),
}


def producer_routes(base):
    """The fake producer's pages, keyed by path (+ query)."""
    img = "/wp-content/uploads/2026/01"
    routes = {
        "/robots.txt": Answer(200, ROBOTS, content_type="text/plain"),
        "/": Answer(200, page("""<main><h1>Kericho Gold</h1>
<a href="/product-category/black-tea/">Black Tea</a>
<a href="/product-category/attitude-teas/">Attitude Teas</a>
<a href="/product-category/health-wellness/">Health &amp; Wellness</a>
<a href="/product-category/secret-teas/">Members only</a>
<a href="/shop/?add-to-cart=37">Quick buy</a></main>""")),
        "/shop/": Answer(200, listing([
            card("Kericho Gold Pure Kenya Tea 100 Tea Bags", "/product/pure-kenya-100/",
                 price_html=woo_price("1,250.00"), image=f"{img}/pure-kenya-100-300x300.png", add_to_cart=37),
            card("Strawberry &amp; Vanilla 20TB", "/product/strawberry-vanilla/", category="speciality-teas",
                 price_html=(f'<del aria-hidden="true">{woo_price("450.00")}</del>'
                             '<span class="screen-reader-text">Original price was: KSh450.00.</span>'
                             f'<ins aria-hidden="true">{woo_price("380.00")}</ins>'
                             '<span class="screen-reader-text">Current price is: KSh380.00.</span>'),
                 image=f"//{base.split('//')[1]}{img}/strawberry-300x300.png", add_to_cart=38),
            card("Luxury Pyramid Darjeeling", "/product/darjeeling-pyramid/", category="luxury-pyramid",
                 price_html=f"{woo_price('650.00')} &ndash; {woo_price('1,100.00')}",
                 image=f"{base}{img}/darjeeling-300x300.png"),
        ], next_url="/shop/page/2/")),
        # a flaky page: 503 twice, then the real one
        "/shop/page/2/": [
            Answer(503, "busy"), Answer(503, "busy"),
            Answer(200, listing([
                # the 2018 staging card, verbatim shape with the customised 'KShs'
                '<li class="product"><div class="shop-tea-wrapper"><a href="/product/kericho-gold-100g-leaf-tea/" '
                'class="woocommerce-LoopProduct-link"><img width="284" height="262" '
                f'src="{img}/tea1.png" alt=""><h2 class="woocommerce-loop-product__title">Kericho Gold 100g Leaf Tea'
                '</h2></a></div><div class="prod-description"><a href="/product/kericho-gold-100g-leaf-tea/">'
                '<span class="price prize"><span class="woocommerce-Price-amount amount"><span '
                'class="woocommerce-Price-currencySymbol">KShs</span>73.00</span></span></a></div></li>',
                card("Ginger &amp; Lemon", "/product/ginger-lemon/", category="speciality-teas",
                     price_html=woo_price("320", symbol="KES"), image=f"{img}/ginger-lemon.png"),
            ])),
        ],
        "/product-category/black-tea/": Answer(200, listing([
            card("Kericho Gold Pure Kenya Tea 100 Tea Bags", "/product/pure-kenya-100/",
                 price_html=woo_price("1,250.00"), image=f"{img}/pure-kenya-100-300x300.png"),
        ], next_url="/product-category/black-tea/?paged=2")),
        # rate-limited once: Retry-After 1 second
        "/product-category/black-tea/?paged=2": [
            Answer(429, "slow down", headers={"Retry-After": "1"}),
            Answer(200, listing([card("Kericho Gold Loose Leaf 500g", "/product/loose-leaf-500g/",
                                      price_html=woo_price("890.00"), image=f"{img}/loose-500.png")])),
        ],
        # the production theme: no price on category cards
        "/product-category/attitude-teas/": Answer(200, listing([
            card("Hangover Tea", "/product/hangover-tea/", category="attitude-teas", image=f"{img}/hangover.png"),
            card("Love Tea", "/product/love-tea/", category="attitude-teas", image=f"{img}/love.png"),
            card("Lazy Afternoon", "/product/lazy-afternoon/", category="attitude-teas"),  # its page is a 404
        ])),
        "/product-category/health-wellness/": Answer(200, listing([
            card("Hangover Tea", "/product/hangover-tea/", category="health-wellness",
                 price_html=woo_price("350.00"), image=f"{img}/hangover.png"),  # the duplicate
            card("Detox Tea", "/product/detox-tea/", category="health-wellness",
                 price_html=woo_price("420.00"), image=f"{img}/detox.png"),
        ])),
        "/product-category/secret-teas/": Answer(200, listing([
            card("Secret Blend", "/product/secret-blend/", price_html=woo_price("999.00"))])),
        "/product/hangover-tea/": Answer(200, product_page(
            "Hangover Tea", price_html=woo_price("350.00"), image=f"{img}/hangover.png",
            description="Green tea with ginger and mint: 25 individually wrapped tea bags, Fairtrade.",
            jsonld={"@context": "https://schema.org/", "@graph": [
                {"@type": "BreadcrumbList", "itemListElement": []},
                {"@type": "Product", "name": "Hangover Tea", "url": f"{base}/product/hangover-tea/",
                 "image": f"{base}{img}/hangover.png",
                 "description": "Green tea with ginger and mint: 25 individually wrapped tea bags, Fairtrade.",
                 "offers": [{"@type": "Offer", "price": "350.00", "priceCurrency": "KES"}]}]})),
        # on sale: the struck-through price only in the HTML, the JSON-LD has the current one
        "/product/love-tea/": Answer(200, product_page(
            "Love Tea", image=f"{img}/love.png", description="A rosy blend of black tea and hibiscus for two.",
            price_html=(f'<del aria-hidden="true">{woo_price("300.00")}</del>'
                        '<span class="screen-reader-text">Original price was: KSh300.00.</span>'
                        f'<ins aria-hidden="true">{woo_price("280.00")}</ins>'),
            jsonld={"@context": "https://schema.org/", "@type": "Product", "name": "Love Tea",
                    "url": f"{base}/product/love-tea/",
                    "offers": [{"@type": "Offer", "price": "280.00", "priceCurrency": "KES"}]})),
        "/product/pure-kenya-100/": Answer(200, product_page(
            "Kericho Gold Pure Kenya Tea 100 Tea Bags", price_html=woo_price("1,250.00"),
            image=f"{img}/pure-kenya-100.png", description="",
            jsonld={"@context": "https://schema.org/", "@type": "Product",
                    "name": "Kericho Gold Pure Kenya Tea 100 Tea Bags", "url": f"{base}/product/pure-kenya-100/",
                    "image": [f"{base}{img}/pure-kenya-100.png"],
                    "description": "Bright, brisk pure Kenya black tea in 100 string-free tea bags.",
                    "offers": {"@type": "AggregateOffer", "lowPrice": "1250.00", "highPrice": "1400.00",
                               "priceCurrency": "KES", "offerCount": 2}})),
    }
    for name in ("pure-kenya-100-300x300", "pure-kenya-100", "strawberry-300x300", "darjeeling-300x300",
                 "tea1", "ginger-lemon", "loose-500", "hangover", "love", "detox"):
        routes[f"{img}/{name}.png"] = Answer(200, png_bytes(), content_type="image/png")
    return routes


def producer_site():
    server = FakeServer()
    server.routes = producer_routes(server.url)
    return server


def many_pages_site(count):
    """A producer with `count` listing pages, each linked from the root, for the bench."""
    server = FakeServer()
    links = "".join(f'<a href="/product-category/range-{i}/">Range {i}</a>' for i in range(count))
    server.routes["/"] = Answer(200, page(f"<main>{links}</main>"))
    server.routes["/robots.txt"] = Answer(200, "User-agent: *\nAllow: /\n", content_type="text/plain")
    for i in range(count):
        cards = [card(f"Blend {i}-{j}", f"/product/blend-{i}-{j}/", price_html=woo_price(f"{200 + j}.00"),
                      image=f"/img/{i}-{j}.png") for j in range(12)]
        server.routes[f"/product-category/range-{i}/"] = Answer(200, listing(cards))
    return server


# (name, KES price) of the legacy site's products, and how each page declares its encoding
LEGACY_EXPECTED = {
    "Piña Colada Fruit Tea": "450.00",  # windows-1252, declared in the Content-Type header
    "Mama’s Crème Brûlée Rooibos": "520.00",  # windows-1252, declared by <meta charset>
    "Café Noir – Kenyan Breakfast": "380.00",  # windows-1252, declared nowhere
    "Chai Masala Spécial": "610.00",  # UTF-8 under a wrong ISO-8859-1 header (Apache's old default)
}


def legacy_site():
    """A producer whose pages are windows-1252, declared three ways, and one mislabelled UTF-8 page."""
    server = FakeServer()
    names = list(LEGACY_EXPECTED)

    def listing_of(name, *, charset_meta=""):
        card_html = card(name.replace("&", "&amp;"), "#", price_html=woo_price(LEGACY_EXPECTED[name]))
        return page(f'<main><ul class="products">{card_html}</ul></main>', charset_meta=charset_meta)

    server.routes = {
        "/robots.txt": Answer(200, "User-agent: *\nAllow: /\n", content_type="text/plain"),
        "/shop/": Answer(200, listing_of(names[0]).encode("cp1252"), content_type="text/html; charset=windows-1252"),
        "/product-category/herbal-tea/": Answer(
            200, listing_of(names[1], charset_meta='<meta charset="windows-1252">').encode("cp1252"),
            content_type="text/html"),
        "/product-category/black-tea/": Answer(200, listing_of(names[2]).encode("cp1252"), content_type="text/html"),
        "/teas/": Answer(200, listing_of(names[3], charset_meta='<meta charset="utf-8">').encode("utf-8"),
                         content_type="text/html; charset=ISO-8859-1"),
    }
    return server


def rate_services():
    """Three rate services: the first broken, the second keyless-style error, the third good."""
    server = FakeServer()
    server.routes = {
        "/v2/rate/KES/EGP": Answer(502, "<html>bad gateway</html>"),
        "/convert?from=KES&to=EGP": Answer(200, json.dumps(
            {"success": False, "error": {"code": 101, "type": "missing_access_key"}}),
            content_type="application/json"),
        "/v6/latest/KES": Answer(200, json.dumps({"result": "success", "base_code": "KES",
                                                  "rates": {"KES": 1, "EGP": 0.4}}),
                                 content_type="application/json"),
    }
    server.chain = [f"{server.url}/v2/rate/{{from}}/{{to}}#rate",
                    f"{server.url}/convert?from={{from}}&to={{to}}#result",
                    f"{server.url}/v6/latest/{{from}}#rates.{{to}}"]
    return server


# the shop categories the fake producer's products go to
SHOP_CATEGORIES = ("black-tea", "speciality-teas", "luxury-pyramid", "attitude-teas", "health-wellness")


def steady(site):
    """`site` without its flaky pages: each answers as its last answer at once (no real back-off waits)."""
    for path, route in list(site.routes.items()):
        if isinstance(route, list):
            site.routes[path] = route[-1]
    return site


def shop_point_at(site, rates, *, settings, media_root, delay):
    """Point the shop at the fake producer `site`: the fake rate chain `rates` (0.40), a crawl delay of `delay`
    seconds between requests, media stored under `media_root`, the store settings' producer address and a
    100 % markup, and the five shop categories its products go to. `settings` is pytest-django's fixture (put
    back after the test). Returns `site`."""
    from catalog.models import Category
    from shop.store_settings import store_settings_update

    settings.EXCHANGE_RATE_PROVIDERS = rates.chain
    settings.IMPORTER_DELAY_SECONDS = delay
    settings.MEDIA_ROOT = str(media_root)
    store_settings_update(external_base_url=site.url, importer_markup=100)
    for slug in SHOP_CATEGORIES:
        Category.objects.get_or_create(slug=slug, defaults={"name": slug.replace("-", " ").title()})
    return site
