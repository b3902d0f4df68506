"""The street line of an address (street, then building, floor and apartment when given) is written one
way (orders_tags `address_line`) in the order e-mail, the invoice and packing slip, and the account's
saved addresses. These pin what each printed before it was one: the same text, EN and AR."""

import re

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from accounts.models import Address
from tests.factories import make_order

pytestmark = pytest.mark.django_db

FSI, PDI = "\u2068", "\u2069"
FULL = {"street": "12 Tahrir St", "building": "4B", "floor": "2", "apartment": "7"}
STREET_ONLY = {"street": "شارع التحرير ١٢", "building": "", "floor": "", "apartment": ""}
# typed text with HTML's characters: escaped on pages and in documents, as typed in e-mails
MARKUP = {"street": "Tom & Jerry <St>", "building": "", "floor": "3 \"A\"", "apartment": ""}


def _order(parts):
    order = make_order()
    for name, value in parts.items():
        setattr(order, name, value)
    return order


def _email_line(order, language):
    with translation.override(language):
        text = render_to_string("orders/email/confirmation.txt", {"order": order, "items": [], "store": None,
                                                                    "track_url": "https://x.example/t"})
    lines = text.splitlines()
    return lines[lines.index(next(line for line in lines if line.startswith(("Delivery address", "عنوان")))) + 1]


def _document_line(order, language):
    with translation.override(language):
        html = render_to_string("orders/documents/_address.html", {"order": order})
    return html.splitlines()[2]


def _street_paragraph(html):
    """The account card's third paragraph: its street line."""
    card = html[html.index('class="address-card"'):]
    return re.findall(r"<p>(.*?)</p>", card)[1]


@pytest.mark.parametrize(("parts", "language", "line"), [
    (FULL, "en", f"{FSI}12 Tahrir St{PDI}, Building {FSI}4B{PDI}, Floor {FSI}2{PDI}, Apartment {FSI}7{PDI}"),
    (FULL, "ar", f"{FSI}12 Tahrir St{PDI}، مبنى {FSI}4B{PDI}، الطابق {FSI}2{PDI}، شقة {FSI}7{PDI}"),
    (STREET_ONLY, "ar", f"{FSI}شارع التحرير ١٢{PDI}"),
    (MARKUP, "en", f'{FSI}Tom & Jerry <St>{PDI}, Floor {FSI}3 "A"{PDI}'),
])
def test_the_order_email_writes_the_street_line(parts, language, line):
    assert _email_line(_order(parts), language) == line


@pytest.mark.parametrize(("parts", "language", "line"), [
    (FULL, "en", '<p><bdi dir="ltr">12 Tahrir St</bdi>, Building <bdi dir="ltr">4B</bdi>, Floor <bdi dir="ltr">2</bdi>,'
                 ' Apartment <bdi dir="ltr">7</bdi></p>'),
    (FULL, "ar", '<p><bdi dir="ltr">12 Tahrir St</bdi>، مبنى <bdi dir="ltr">4B</bdi>، الطابق <bdi dir="ltr">2</bdi>،'
                 ' شقة <bdi dir="ltr">7</bdi></p>'),
    (STREET_ONLY, "ar", '<p><bdi dir="rtl">شارع التحرير ١٢</bdi></p>'),
    (MARKUP, "en", '<p><bdi dir="ltr">Tom &amp; Jerry &lt;St&gt;</bdi>,'
                   ' Floor <bdi dir="ltr">3 &quot;A&quot;</bdi></p>'),
])
def test_the_invoice_and_packing_slip_write_the_street_line(parts, language, line):
    assert _document_line(_order(parts), language) == line


@pytest.mark.parametrize(("parts", "language", "line"), [
    (FULL, "en", "12 Tahrir St, Building 4B, Floor 2, Apartment 7"),
    (FULL, "ar", "12 Tahrir St، مبنى 4B، الطابق 2، شقة 7"),
    (STREET_ONLY, "ar", "شارع التحرير ١٢"),
    (MARKUP, "en", "Tom &amp; Jerry &lt;St&gt;, Floor 3 &quot;A&quot;"),
])
def test_the_saved_addresses_write_the_street_line(alice, parts, language, line):
    # given
    address = Address(user=alice, first_name="Alice", last_name="Hassan", phone="01001234567", city="Cairo",
                      state="Cairo", **parts)
    # when
    with translation.override(language):
        html = render_to_string("accounts/_addresses.html", {"addresses": [address], "user": alice})
    # then
    assert _street_paragraph(html) == line


@pytest.mark.parametrize("template", ["orders/templates/orders/email/confirmation.txt",
                                      "orders/templates/orders/documents/_address.html",
                                      "accounts/templates/accounts/_addresses.html"])
def test_each_template_writes_the_line_with_the_one_tag(template):
    source = (settings.BASE_DIR / template).read_text()
    assert "{% address_line " in source
    assert not re.search(r"\b(order|address)\.(building|floor|apartment)\b", source)
