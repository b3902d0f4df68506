"""`|order_number`: an order's number on a page, one left-to-right word (main.css .nowrap)."""

from django.template import Context, Template
from django.utils import translation


def test_an_order_number_is_one_left_to_right_isolated_word_inside_an_arabic_sentence():
    template = Template('{% load i18n shop_tags %}{% blocktranslate with number=n|order_number %}Order {{ number }}'
                        '{% endblocktranslate %}')
    with translation.override("ar"):
        html = template.render(Context({"n": "NHT-261130-6C34B0"}))
    assert '<bdi dir="ltr" class="nowrap">NHT-261130-6C34B0</bdi>' in html


def test_a_number_is_escaped_and_none_is_nothing():
    template = Template("{% load shop_tags %}{{ n|order_number }}")
    assert template.render(Context({"n": "<b>"})) == '<bdi dir="ltr" class="nowrap">&lt;b&gt;</bdi>'
    assert template.render(Context({"n": None})) == ""
