"""Order helpers for templates: delivery windows and days."""

from datetime import date, datetime

from django import template
from django.utils import timezone
from django.utils.translation import get_language

from orders.delivery import day_label, window_text
from orders.models import Order
from orders.places import governorate_name

register = template.Library()


@register.simple_tag
def delivery_window_text(order: Order) -> str:
    """"Arrives Sun 29 Nov – Tue 1 Dec" for the window promised at checkout, or ""."""
    if not order.delivery_min_date or not order.delivery_max_date:
        return ""
    return window_text((order.delivery_min_date, order.delivery_max_date), get_language() or "en")


@register.filter
def day(value: date | datetime | None) -> str:
    """A day as the rest of the shop writes it ("Sun 29 Nov", "الأحد 29 نوفمبر"), with its year when that
    is not this year ("Fri 29 Nov 2024"), so an order list that spans years stays unambiguous."""
    if not value:
        return ""
    text = day_label(value, get_language() or "en")
    shown = timezone.localtime(value) if isinstance(value, datetime) and timezone.is_aware(value) else value
    return text if shown.year == timezone.localdate().year else f"{text} {shown.year}"


@register.simple_tag
def governorate_label(name: str | None) -> str:
    """A governorate's name in the page's language."""
    return governorate_name(name, get_language())
