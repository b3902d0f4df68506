"""shop.validation.clean_url and the safe_url filter: the one gate for stored link and image addresses."""

import pytest
from django.template import Context, Template

from shop.errors import ShopError
from shop.validation import URL_MAX, clean_url, safe_url

REFUSED = [
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "\x01javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "//evil.example/path",
    "/\\evil.example",
    "https:\\\\evil.example",
    "http://evil.example\\@shop.example/",
    "https://shop.example@evil.example/",
    "https:///evil.example",
    "https://",
    "ftp://files.example/tea.png",
    "mailto:someone@example.com",
    "https://evil\u200b.example/",
    "https://shop.example:99999/",
    "shop.example/page",
    "#top",
]
ACCEPTED = [
    "https://shop.example/offers?x=1#now",
    "HTTP://shop.example",
    "http://127.0.0.1:8000/shop",
    "/shop?category=green-tea",
    "/media/demo/kenya-gold.svg",
]


@pytest.mark.parametrize("value", REFUSED)
def test_it_refuses_anything_that_is_not_http_or_a_site_path(value):
    # when / then
    with pytest.raises(ShopError) as error:
        clean_url(value, field="link")
    assert error.value.field == "link"
    assert safe_url(value) == ""


@pytest.mark.parametrize("value", ACCEPTED)
def test_it_accepts_http_addresses_and_site_paths(value):
    assert clean_url(f"  {value} ", field="link") == value
    assert safe_url(value) == value


def test_a_blank_address_is_stored_as_blank():
    assert clean_url("   ", field="link") == ""
    assert clean_url(None, field="link") == ""


def test_a_site_path_is_refused_where_only_full_addresses_make_sense():
    with pytest.raises(ShopError):
        clean_url("/about", field="social_media.facebook", allow_relative=False)


def test_it_refuses_an_address_over_the_limit():
    with pytest.raises(ShopError):
        clean_url("https://shop.example/" + "a" * URL_MAX, field="link")


@pytest.mark.parametrize("value", ["javascript:alert(1)", "java\tscript:alert(1)", "//evil.example"])
def test_the_template_filter_never_renders_a_dangerous_address(value):
    # given a template that links to a stored address
    template = Template('{% with href=url|safe_url %}{% if href %}<a href="{{ href }}">x</a>{% endif %}{% endwith %}')
    # when / then
    assert template.render(Context({"url": value})) == ""
    assert template.render(Context({"url": "/shop"})) == '<a href="/shop">x</a>'
