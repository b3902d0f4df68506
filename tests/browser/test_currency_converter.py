"""The currency converter popover opens inside the screen on a 360 px phone, in English and Arabic
(issue 12: it opened off the left edge in English and off the right edge in Arabic)."""

import pytest
from django.core.management import call_command

from catalog.models import Product
from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def product(db):
    call_command("seed_demo", verbosity=0)
    return Product.objects.filter(is_active=True, stock__gt=0).order_by("pk").first()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale, prefix", [("en-US", ""), ("ar-EG", "/ar")], ids=["en", "ar"])
def test_the_converter_opens_within_the_viewport(new_page, screenshot, product, viewport, locale, prefix):
    page = new_page(viewport=viewport, locale=locale)
    lang = "ar" if prefix else "en"
    size = "phone" if viewport is PHONE else "desktop"
    for name, path in (("shop", "/shop"), ("product", f"/product/{product.slug}")):
        # given
        page.goto(prefix + path)
        island = page.locator('[data-island="currency-converter"]')
        assert island.get_attribute("data-mounted") is None  # its code loads when first reached for
        # when the shopper taps the server-rendered button (the tap waits for the code, then opens)
        page.locator(".converter > button").first.click()
        panel = page.locator(".converter__panel")
        panel.wait_for()
        assert island.get_attribute("data-mounted") == "true"
        # then the whole panel is on screen
        box = panel.bounding_box()
        assert box["x"] >= 0, f"{path}: starts {box['x']} px off the left edge"
        overflow = box["x"] + box["width"] - viewport["width"]
        assert overflow <= 0, f"{path}: ends {overflow} px past the right edge"
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"] + 1  # sub-pixel rounding
        page.screenshot(path=f"test-artifacts/converter-{name}-{lang}-{size}.png")
        # and it still closes with Escape
        page.keyboard.press("Escape")
        panel.wait_for(state="detached")


def test_reaching_for_the_converter_loads_it_but_swaps_the_button_only_on_the_tap(new_page, product):
    # given: a shopper whose pointer rests on the converter's button until its code has arrived
    page = new_page(viewport=PHONE)
    page.goto(f"/product/{product.slug}")
    island = page.locator('[data-island="currency-converter"]')
    page.evaluate("window.standIn = document.querySelector('.converter > button')")
    with page.expect_response(lambda response: "/currency-converter-" in response.url):
        page.locator(".converter > button").hover()
    page.wait_for_timeout(300)  # time in which the old code mounted the island under the pointer
    # then: the button under the pointer is still the page's own, so a press that starts now
    # and ends after the island is ready cannot lose its click between two buttons
    assert island.get_attribute("data-mounted") is None
    assert page.evaluate("document.querySelector('.converter > button') === window.standIn")
    # and the tap still opens the panel
    page.mouse.down()
    page.mouse.up()
    page.locator(".converter__panel").wait_for()
    assert island.get_attribute("data-mounted") == "true"


def test_a_double_tap_before_the_code_has_arrived_is_replayed_once(new_page, product):
    # given: the converter's code held back by the network
    page = new_page(viewport=PHONE)
    held = []
    page.route("**/currency-converter-*.js", lambda route: held.append(route))
    page.goto(f"/product/{product.slug}")
    page.evaluate("""() => { window.replayed = 0; document.addEventListener('click', (e) => {
        if (!e.isTrusted && e.target.closest('.converter')) window.replayed += 1; }, true); }""")
    # when: the shopper taps twice while it loads, then it arrives
    page.locator(".converter > button").dblclick()
    for _ in range(100):  # the request for the code went out on the first pointer over the button
        if held:
            break
        page.wait_for_timeout(50)
    held[0].continue_()
    # then: the panel opens, and only one tap was replayed on the island's button
    page.locator(".converter__panel").wait_for()
    page.wait_for_timeout(300)
    assert page.evaluate("window.replayed") == 1
    assert page.locator(".converter__panel").is_visible()
