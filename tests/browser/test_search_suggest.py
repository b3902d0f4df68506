"""Header search suggestions as the shopper types, in English and Arabic, on a phone and a desktop."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, DESKTOP, PHONE
from tests.factories import make_category, make_product

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def catalogue():
    herbal = make_category(slug="herbal-tea", name="Herbal Tea", name_ar="شاي أعشاب")
    gifts = make_category(slug="luxury-gifts", name="Luxury Gifts", name_ar="هدايا فاخرة")
    pyramids = make_category(slug="luxury-pyramid", name="Luxury Pyramid", name_ar="أكياس هرمية فاخرة")
    return {
        "peppermint": make_product(slug="peppermint", title_en="Peppermint Herbal Infusion", title_ar="منقوع النعناع",
                                   category=herbal, price_amount="95.00"),
        "box": make_product(slug="gift-box", title_en="Eight-Chamber Tea Gift Box",
                            title_ar="علبة هدايا الشاي بثماني خانات", category=gifts, tags=["gift"],
                            price_amount="1250.00"),
        "earl": make_product(slug="earl-grey-pyramids", title_en="Royal Earl Grey Pyramids",
                             title_ar="إيرل جراي ملكي هرمي", category=pyramids, tags=["luxury"]),
    }


def header_shot(page, name):
    """The header before the search is used (on phones the search is a round button)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("header.site-header").screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _search(page):
    box = page.get_by_role("combobox")
    box.click()
    return box


@pytest.mark.parametrize("viewport,size", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_suggestions_forgive_a_typo_and_open_the_product(new_page, live_server, catalogue, screenshot, viewport, size):
    # given
    page = new_page(viewport=viewport)
    page.goto("/")
    header_shot(page, f"search-closed-en-{size}")
    box = _search(page)
    # when one character is typed, nothing is suggested yet
    box.press_sequentially("p")
    page.wait_for_timeout(400)
    expect(page.get_by_role("listbox")).to_be_hidden()
    # when the shopper goes on, with a typo
    box.press_sequentially("epermint", delay=30)
    listbox = page.get_by_role("listbox")
    expect(listbox).to_be_visible()
    expect(listbox.get_by_role("option").first).to_contain_text("Peppermint Herbal Infusion")
    expect(listbox.get_by_role("option").first).to_contain_text("E£95.00")
    expect(listbox.get_by_role("option").last).to_contain_text("See all results for “pepermint”")
    assert box.get_attribute("aria-expanded") == "true"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    screenshot(page, f"search-suggest-en-{size}")
    # then the arrow keys pick it and Enter opens it
    box.press("ArrowDown")
    assert box.get_attribute("aria-activedescendant") == "site-search-option-0"
    box.press("Enter")
    page.wait_for_url("**/product/peppermint")
    # and Escape closes the list
    page.goto("/")
    box = _search(page)
    box.fill("lux")
    expect(page.get_by_role("listbox")).to_be_visible()
    box.press("Escape")
    expect(page.get_by_role("listbox")).to_be_hidden()


@pytest.mark.parametrize("viewport,size", [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_arabic_words_find_gift_sets_and_the_luxury_range(new_page, live_server, catalogue, screenshot, viewport, size):
    # given
    page = new_page(viewport=viewport, locale="ar-EG")
    page.goto("/ar/")
    assert page.locator("html").get_attribute("dir") == "rtl"
    header_shot(page, f"search-closed-ar-{size}")
    box = _search(page)
    # when a singular word is typed for a category named in the plural
    box.press_sequentially("هدية", delay=30)
    listbox = page.get_by_role("listbox")
    # then the gift category and the gift box are suggested, in Arabic
    expect(listbox.get_by_role("option", name="هدايا فاخرة")).to_be_visible()
    expect(listbox).to_contain_text("علبة هدايا الشاي بثماني خانات")
    expect(listbox).to_contain_text("1,250.00\u00a0ج.م")
    expect(listbox.get_by_role("option").last).to_contain_text("عرض كل النتائج لـ «هدية»")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    screenshot(page, f"search-suggest-ar-{size}")
    # and "فاخرة" finds the luxury range
    box.fill("فاخرة")
    expect(listbox.get_by_role("option", name="أكياس هرمية فاخرة")).to_be_visible()
    expect(listbox).to_contain_text("إيرل جراي ملكي هرمي")
    # and submitting the form searches the shop with the same forgiveness
    box.press("Enter")
    page.wait_for_url("**/ar/shop?search=*")
    expect(page.locator("main")).to_contain_text("إيرل جراي ملكي هرمي")
