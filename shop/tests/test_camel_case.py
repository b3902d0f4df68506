"""The API's camelCase keys (shop.api.money.camelize): the library's rule, with each key worked out once."""

from collections import OrderedDict
from decimal import Decimal

from django.utils.translation import gettext_lazy
from djangorestframework_camel_case.util import camelize as library_camelize

from shop.api.money import CamelCaseJSONRenderer, camelize

ANSWER = {
    "item_count": 2, "free_shipping_remaining": Decimal("12.50"), "cod_available": True, "tax_rate": None,
    "items": [{"product_id": 1, "sale_price": None, "title": gettext_lazy("Cart")},
              ("line_total", "unit_price_2x")],
    "nested": OrderedDict(delivery_window={"min_days": 1, "max_days": 3}),
    gettext_lazy("Cart"): "a lazy key", 7: "an int key", "already_camelCase": "", "_leading": "", "trailing_": "",
    "set_of": {"a_b"}, "bytes_value": b"ab", "v2_api": "",
}


def test_it_writes_every_key_as_the_library_does():
    assert camelize(ANSWER) == library_camelize(ANSWER)
    assert list(camelize(ANSWER)) == list(library_camelize(ANSWER))


def test_the_renderer_writes_camel_case_keys():
    body = CamelCaseJSONRenderer().render({"item_count": 1, "items": [{"line_total": "2.00"}]})
    assert body == b'{"itemCount":1,"items":[{"lineTotal":"2.00"}]}'
