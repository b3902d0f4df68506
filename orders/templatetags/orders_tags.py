"""Order helpers for templates: delivery windows."""

from django import template
from django.utils.translation import get_language

from orders.delivery import window_text
from orders.models import Order
from orders.places import governorate_name

register = template.Library()


@register.simple_tag
def delivery_window_text(order: Order) -> str:
    """"Arrives Sun 29 Nov – Tue 1 Dec" for the window promised at checkout, or ""."""
    if not order.delivery_min_date or not order.delivery_max_date:
        return ""
    return window_text((order.delivery_min_date, order.delivery_max_date), get_language() or "en")


@register.simple_tag
def governorate_label(name: str | None) -> str:
    """A governorate's name in the page's language."""
    return governorate_name(name, get_language())
