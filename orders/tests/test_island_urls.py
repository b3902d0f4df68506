import json
import re

import pytest

PROPS = re.compile(r'<script id="cart-props" type="application/json">(.*?)</script>', re.S)


@pytest.mark.django_db
@pytest.mark.parametrize(("prefix", "home"), [("", "/"), ("/ar", "/ar/")])
def test_the_cart_island_gets_its_links_in_the_pages_language(client, prefix, home):
    # when the cart page is opened in English or Arabic
    response = client.get(f"{prefix}/cart")
    # then the island's links come with its props, in that language, and its totals are camelCase money text
    props = json.loads(PROPS.search(response.content.decode()).group(1))
    assert props["urls"] == {
        "home": home, "shop": f"{prefix}/shop", "contact": f"{prefix}/contact", "cart": f"{prefix}/cart",
        "checkout": f"{prefix}/checkout", "product": f"{prefix}/product/__slug__",
    }
    assert props["cart"]["items"] == [] and props["cart"]["freeShippingRemaining"].endswith(".00")
