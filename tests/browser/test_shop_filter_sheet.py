"""Shop on a phone (issue 12): the filters open in a sheet from the start side (not in the page
flow, where they pushed the results ~900 px down and applied out of sight), with a "Show N results"
button carrying the live count; search and sort stay in view above the grid. Desktop keeps the
sidebar."""

import re
from decimal import Decimal

import pytest

from catalog.models import Category, Product
from tests.browser.conftest import ARTIFACTS, DESKTOP, PHONE, islands_ready

pytestmark = pytest.mark.django_db(transaction=True)

SHOW = {"en": "Show {} results", "ar": "عرض النتائج ({})"}


@pytest.fixture
def teas(db):
    black = Category.objects.create(slug="black-tea", name="Black Tea", name_ar="شاي أسود")
    green = Category.objects.create(slug="green-tea", name="Green Tea", name_ar="شاي أخضر")
    for n in range(5):
        Product.objects.create(slug=f"black-{n}", title=f"Black Tea {n}", title_ar=f"شاي أسود {n}",
                               price_amount=Decimal("200.00") + n, stock=5, category=black)
    for n in range(2):
        Product.objects.create(slug=f"green-{n}", title=f"Green Tea {n}", title_ar=f"شاي أخضر {n}",
                               price_amount=Decimal("150.00") + n, stock=5, category=green)


def _ready(page):
    islands_ready(page, "shop-filters")


@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_phone_filters_open_in_a_sheet_with_the_live_count(new_page, screenshot, teas, locale, prefix, lang):
    # given the shop on a phone
    page = new_page(viewport=PHONE, locale=locale)
    page.goto(f"{prefix}/shop")
    _ready(page)
    # then search and sort are in view without opening anything, above the grid, and the
    # filter groups are not in the page flow
    search, sort = page.locator("#shop-search"), page.locator("#shop-sort")
    assert search.is_visible() and sort.is_visible()
    first_card = page.locator(".product-card").first.bounding_box()
    assert sort.bounding_box()["y"] + sort.bounding_box()["height"] <= first_card["y"] + 1  # sub-pixel rounding
    assert first_card["y"] < PHONE["height"], "the first product starts on the first screen"
    assert not page.locator("input[name=category]").first.is_visible()
    # when the filters are opened
    page.locator(".shop-filters__toggle").click()
    sheet = page.get_by_role("dialog")
    sheet.wait_for()
    # then they slide over the page from the start side (left in English, right in Arabic)
    box = sheet.bounding_box()
    if lang == "ar":
        assert abs(box["x"] + box["width"] - PHONE["width"]) <= 1
    else:
        assert box["x"] == 0
    assert box["width"] < PHONE["width"]
    show = page.get_by_test_id("show-results")
    assert show.inner_text() == SHOW[lang].format(7)
    # when a category is picked, the count follows at once
    sheet.locator('input[name="category"][value="green-tea"]').check()
    page.wait_for_url(re.compile(r"category=green-tea"))
    page.wait_for_function("() => document.querySelector('[data-testid=show-results]').textContent.includes('2')")
    assert show.inner_text() == SHOW[lang].format(2)
    page.screenshot(path=str(ARTIFACTS / f"shop-filters-open-{lang}-phone.png"))  # the screen as seen
    # and "Show 2 results" closes the sheet onto the filtered grid, focus back on Filters
    show.click()
    sheet.wait_for(state="hidden")
    assert page.locator(".product-card").count() == 2
    # (focus moves back in the task after the sheet closes)
    page.wait_for_function("() => document.activeElement.classList.contains('shop-filters__toggle')")
    assert "(1)" in page.locator(".shop-filters__toggle").inner_text()


def test_escape_closes_the_sheet_and_the_page_scrolls_again(new_page, teas):
    page = new_page(viewport=PHONE)
    page.goto("/shop")
    _ready(page)
    page.locator(".shop-filters__toggle").click()
    page.get_by_role("dialog").wait_for()
    assert page.evaluate("document.documentElement.classList.contains('has-sheet')")
    page.keyboard.press("Escape")
    page.get_by_role("dialog").wait_for(state="detached")
    assert not page.evaluate("document.documentElement.classList.contains('has-sheet')")


@pytest.mark.parametrize("locale, prefix, lang", [("en-US", "", "en"), ("ar-EG", "/ar", "ar")], ids=["en", "ar"])
def test_desktop_keeps_the_filters_in_the_sidebar(new_page, screenshot, teas, locale, prefix, lang):
    page = new_page(viewport=DESKTOP, locale=locale)
    page.goto(f"{prefix}/shop")
    _ready(page)
    assert not page.locator(".shop-filters__toggle").is_visible()
    assert page.locator('input[name="category"][value="green-tea"]').is_visible()
    assert page.get_by_role("dialog").count() == 0
    assert not page.get_by_test_id("show-results").is_visible()
    page.locator('input[name="category"][value="green-tea"]').check()
    page.wait_for_url(re.compile(r"category=green-tea"))
    page.locator("#shop-results:not([aria-busy]) .shop-results[data-total='2']").wait_for()
    screenshot(page, f"shop-filters-{lang}-desktop")


@pytest.mark.parametrize("width", [320, 360, 412])
@pytest.mark.parametrize("query", ["", "?category=black-tea"], ids=["no filter", "filtered"])
@pytest.mark.parametrize("prefix", ["", "/ar"], ids=["en", "ar"])
def test_the_sorts_line_does_not_depend_on_how_many_choices_were_read(new_page, teas, width, query, prefix):
    # given the shop on a phone, and the sort's line as the page ends up
    page = new_page(viewport={"width": width, "height": 780}, locale="ar-EG" if prefix else "en-US")
    page.route("**/*.js", lambda route: route.abort())  # the server's page alone, as first painted
    page.goto(f"{prefix}/shop{query}")
    line = page.evaluate("() => document.querySelector('.shop-filters__sort').getBoundingClientRect().y")
    # when the sort holds only its shortest choice, as on a page painted before its other <option>s were
    # read (a busy phone painted it so, then moved the sort: a layout shift)
    page.evaluate("""() => { const select = document.querySelector('#shop-sort');
      [...select.options].slice(1).forEach((option) => option.remove()); }""")
    # then the sort stays on the same line
    assert page.evaluate("() => document.querySelector('.shop-filters__sort').getBoundingClientRect().y") == line
