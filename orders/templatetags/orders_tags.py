"""Order helpers for templates: delivery windows."""

from django import template
from django.utils.translation import get_language

register = template.Library()


@register.simple_tag
def delivery_window_text(order):
    """"Arrives Sun 29 Nov – Tue 1 Dec" for the window promised at checkout, or ""."""
    from orders.delivery import window_text

    if not order.delivery_min_date:
        return ""
    return window_text((order.delivery_min_date, order.delivery_max_date), get_language() or "en")


@register.simple_tag
def governorate_label(name):
    """A governorate's name in the page's language."""
    from orders.checkout import GOVERNORATES

    return dict(GOVERNORATES).get(name, name) if get_language() == "ar" else name
