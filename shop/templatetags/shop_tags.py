"""Template helpers every page may use (registered as builtins)."""

from django import template
from django.templatetags.static import static
from django.urls import translate_url
from django.utils.translation import get_language

from shop.money import format_egp, format_kes
from shop.units import keep_units

register = template.Library()


@register.filter
def egp(amount):
    if amount is None or amount == "":
        return ""
    return format_egp(amount, get_language())


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
def asset(path):
    """The hashed URL of a built front-end file (static/dist/…)."""
    return static(f"dist/{path}")


@register.simple_tag
def lurl(path):
    """A site path in the current language: `/shop` or `/ar/shop`."""
    language = get_language()
    if language and language != "en":
        return f"/{language}{path}" if path != "/" else f"/{language}/"
    return path


@register.filter
def units(text):
    """A number and its unit never split across lines ("250 g" → "250\u00a0g")."""
    return keep_units(text)
