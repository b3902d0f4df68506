"""The store's name in the header from the narrowest phones to a desktop: whole, or ending in "…", never under the
search button."""

import pytest

from shop.store_settings import store_settings_update

pytestmark = pytest.mark.django_db(transaction=True)

_HEADER = """() => {
  const box = (s) => document.querySelector(s).getBoundingClientRect();
  const brand = document.querySelector('.brand');
  return {brand: [box('.brand').left, box('.brand').right],
          search: [box('.site-search').left, box('.site-search').right],
          whole: brand.scrollWidth <= brand.clientWidth, ellipsis: getComputedStyle(brand).textOverflow};
}"""


def _apart(a, b):
    return a[1] <= b[0] or b[1] <= a[0]


@pytest.mark.parametrize("width", [320, 360, 1280])
@pytest.mark.parametrize("prefix", ["", "/ar"], ids=["en", "ar"])
def test_the_store_name_shows_whole_beside_the_search_button(new_page, screenshot, teas, width, prefix):
    # given the shop's own name; at 320 px the English one used to run under the search button ("Nile Highlands Te")
    page = new_page(viewport={"width": width, "height": 640})
    # when
    page.goto(f"{prefix}/shop")
    page.evaluate("() => document.fonts.ready.then(() => true)")
    header = page.evaluate(_HEADER)
    # then
    assert header["whole"] and _apart(header["brand"], header["search"]), header
    screenshot(page, f"header-{width}{prefix.replace('/', '-') or '-en'}")


def test_a_store_name_too_long_for_a_phone_ends_in_an_ellipsis_beside_the_search_button(new_page, teas):
    store_settings_update(store_name="Nile Highlands Premium Kenyan Tea Company")
    page = new_page(viewport={"width": 360, "height": 640})
    page.goto("/shop")
    header = page.evaluate(_HEADER)
    assert not header["whole"] and header["ellipsis"] == "ellipsis", header
    assert _apart(header["brand"], header["search"]), header
