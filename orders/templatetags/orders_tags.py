"""Order helpers for templates: delivery windows, days and the address's street line."""

from datetime import date, datetime
from typing import Any

from django import template
from django.utils import timezone
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from orders.delivery import day_label, window_text
from orders.models import Order
from orders.places import governorate_name
from shop.templatetags.shop_tags import bdi_dir, comma, isolate

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


# how each kind of output sets a typed value apart (its own direction): plain text (e-mails) with FSI … PDI,
# printed documents with <bdi dir>, pages (the browser finds each value's direction) as it is
_ADDRESS_MARKS = {"text": isolate, "document": bdi_dir, "page": conditional_escape}


def address_line_parts(address: Any) -> list[tuple[str, str]]:
    """(label, value) for the street line of an order or a saved address: the street (no label), then the
    building, floor and apartment that were given, each labelled in the active language."""
    labels = {"building": _("Building"), "floor": _("Floor"), "apartment": _("Apartment")}
    return [("", address.street), *((labels[name], value) for name in ("building", "floor", "apartment")
                                    if (value := getattr(address, name)))]


@register.simple_tag
def address_line(address: Any, kind: str = "page") -> str:
    """The street line, one way everywhere: "12 Tahrir St, Building 4, Floor 2, Apartment 7" (the Arabic
    comma and labels on Arabic pages). `kind`: "text" for plain-text e-mails (typed values isolated, nothing
    escaped: the template decides), "document" for the invoice and packing slip (each value in a <bdi dir>),
    "page" for a web page (escaped)."""
    mark = _ADDRESS_MARKS[kind]
    label_text = str if kind == "text" else conditional_escape
    line = comma().join(f"{label_text(label)} {mark(value)}" if label else str(mark(value))
                        for label, value in address_line_parts(address))
    # the HTML kinds escaped every label and typed value: the line is safe as built
    return line if kind == "text" else mark_safe(line)  # noqa: S308
