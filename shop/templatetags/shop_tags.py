"""Template helpers every page may use (registered as builtins)."""

import functools
import posixpath
import re
import unicodedata

from django import template
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import translate_url
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from orders.places import country_name, governorate_name
from shop.mail import isolate as _isolate
from shop.mail import isolate_ltr as _isolate_ltr
from shop.money import format_egp, format_kes, quantize
from shop.store_time import store_zone
from shop.units import keep_units
from shop.validation import safe_url as _safe_url
from shop.whatsapp import chat_url

register = template.Library()
_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")


@register.filter
def egp(amount):
    if amount is None or amount == "":
        return ""
    return format_egp(amount, get_language())


@register.filter
def egp_minus(amount):
    """An amount taken off (a discount): "-E£50.00", "-50.00 ج.م" with the minus kept left of its digits."""
    if amount is None or amount == "":
        return ""
    return format_egp(-quantize(amount), get_language())


@register.filter
def safe_url(value: object) -> str:
    """A stored URL fit for href/src (http(s) or a site path), else "".

    Every stored URL reaches a page through this filter, so a value that
    slipped past the services (an old row, a data fix) still cannot become a
    javascript: link.
    """
    return _safe_url(value)


@register.filter
def css_colour(value):
    """A #rgb / #rrggbb / #rrggbbaa colour for a style sheet, else "" (nothing else may enter CSS)."""
    return value if isinstance(value, str) and _COLOUR.fullmatch(value) else ""


@register.filter
def kes(amount):
    if amount is None or amount == "":
        return ""
    return format_kes(amount, get_language())


@register.simple_tag(takes_context=True)
def url_in_language(context, language):
    """This page's URL in another language (for the toggle and hreflang)."""
    request = context["request"]
    return translate_url(request.get_full_path(), language)


@register.simple_tag(takes_context=True)
def absolute_url_in_language(context, language):
    request = context["request"]
    return request.build_absolute_uri(translate_url(request.path, language))


@register.simple_tag
def asset(path: str) -> str:
    """The hashed URL of a built front-end file (static/dist/…)."""
    return static(f"dist/{path}")


_SOCIAL_LABELS = {"facebook": "Facebook", "instagram": "Instagram", "twitter": "X (Twitter)"}


@register.simple_tag(takes_context=True)
def inline_styles(context, *names: str) -> str:
    """The built stylesheets `names` (static/dist/…) in one <style> with this response's nonce.

    A storefront page then paints without waiting for any other request: on a phone's slow
    line each render-blocking stylesheet cost about a round trip (0.2–0.3 s) before the first
    paint. Together they are about 5 KB gzipped, sent with every page instead of cached once.
    """
    nonce = getattr(context.get("request"), "csp_nonce", "")
    text = _built_css(names) if not settings.DEBUG else _built_css.__wrapped__(names)
    return format_html('<style nonce="{}">{}</style>', nonce, mark_safe(text))  # noqa: S308 (our own build)


_CSS_URL = re.compile(r"""url\((["']?)\./([^"')]+)\1\)""")


@functools.cache
def _built_css(names: tuple[str, ...]) -> str:
    """The files' text, their relative url()s (fonts) turned into the static URLs a <link> would load."""
    texts = []
    for name in names:
        path = finders.find(f"dist/{name}")
        if path is None:
            raise FileNotFoundError(f"static/dist/{name} is not built (npm run build)")
        with open(path, encoding="utf-8") as built:
            text = built.read()
        folder = posixpath.dirname(f"dist/{name}")
        texts.append(_CSS_URL.sub(lambda m: f'url("{static(posixpath.join(folder, m.group(2)))}")', text))
    # a stylesheet never holds "</style", but the HTML parser must not be able to end the element early
    return "".join(texts).replace("</", "<\\/")


@register.simple_tag
def social_links(store):
    """(label, href) of the store's social profiles that are set and safe to link to."""
    links = store.social_media if isinstance(store.social_media, dict) else {}
    pairs = ((label, _safe_url(links.get(name), allow_relative=False)) for name, label in _SOCIAL_LABELS.items())
    return [(label, href) for label, href in pairs if href]


@register.filter
def units(text):
    """A number and its unit never split across lines ("250 g" → "250\u00a0g")."""
    return keep_units(text)


@register.simple_tag
def comma() -> str:
    """The comma between a list's parts in the page's language: ", " in English, the Arabic "، " in Arabic."""
    return "، " if get_language() == "ar" else ", "


@register.filter
def list_join(items):
    """Words joined for the page's language: "a, b" in English, "أ، ب" with the Arabic comma."""
    return comma().join(str(item) for item in (items or []))


@register.filter
def governorate(value):
    """A stored governorate in the page's language ("Giza" → "الجيزة" on Arabic pages)."""
    return governorate_name(value, get_language())


@register.filter
def country(code):
    """A stored country code as its name in the page's language (never "EGY")."""
    return country_name(code, get_language())


@register.simple_tag
def store_zone_name() -> str:
    """The store's time zone (shop.store_time), named for the dashboard's islands (lib/digits.js)."""
    return store_zone().key


@register.filter
def isolate(text):
    """Plain-text isolation of typed text (e-mails): FSI … PDI."""
    return _isolate(str(text or ""))


@register.filter
def isolate_ltr(text):
    """Plain-text left-to-right isolation (order numbers, e-mails, phones): LRI … PDI."""
    return _isolate_ltr(str(text or ""))


@register.filter
def bdi(text):
    """Typed text isolated in its own direction on a page: <bdi>text</bdi> (escaped)."""
    return format_html("<bdi>{}</bdi>", text) if text not in (None, "") else ""


@register.filter
def order_number(number):
    """An order's number on a page ("NHT-261130-6C34B0"): one word, read left to right inside an Arabic
    sentence and never broken at its hyphens (main.css `.nowrap`; the dashboard's is OrderNumber.jsx)."""
    return format_html('<bdi dir="ltr" class="nowrap">{}</bdi>', number) if number not in (None, "") else ""


@register.filter
def bdi_dir(text):
    """`|bdi` with the direction written out (its first strong letter's, as a browser's dir="auto" finds it),
    for what WeasyPrint prints and mail programs show: they give a bare <bdi> the page's direction, which
    printed "12 Tahrir St" on an Arabic invoice as "Tahrir St 12"."""
    if text in (None, ""):
        return ""
    return format_html('<bdi dir="{}">{}</bdi>', text_direction(str(text)), text)


def text_direction(text: str) -> str:
    """"rtl" or "ltr": the direction of `text`'s first strong letter (Unicode's rule), "ltr" without one."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return "rtl"
        if kind == "L":
            return "ltr"
    return "ltr"
@register.simple_tag(takes_context=True)
def whatsapp_url(context, text=""):
    """The store's click-to-chat link (wa.me) with `text` prefilled, or "" without a store number."""
    store = context.get("store")
    return chat_url(getattr(store, "whatsapp_number", ""), str(text))
