"""The staff dashboard on a shop owner's phone (360 px), in English and Arabic: what staff measured and saw."""

import pytest

from backoffice.sections import SECTIONS
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.staff_pages import open_island, signed_in
from tests.browser.test_touch_and_focus import FOCUSABLE, MIN_TARGET, SMALL_TARGETS_JS
from tests.factories import make_message, make_order, make_product, make_review

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = [("en-US", "", "en"), ("ar-EG", "/ar", "ar")]

# every stat card whose figure runs past its card's inner edge (or is cut by it)
OVERFLOWING_FIGURES_JS = """() => [...document.querySelectorAll('.admin-stat')].flatMap((card) => {
  const value = card.querySelector('.admin-stat__value');
  const box = card.getBoundingClientRect(), text = document.createRange();
  text.selectNodeContents(value);
  const r = text.getBoundingClientRect();
  return r.left < box.left - 0.5 || r.right > box.right + 0.5 || value.scrollWidth > value.clientWidth + 1
    ? [`${value.textContent} ${Math.round(r.left)}..${Math.round(r.right)} in card `
       + `${Math.round(box.left)}..${Math.round(box.right)}`]
    : [];
})"""


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES)
@pytest.mark.parametrize("viewport, tag", [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_money_figures_stay_inside_their_cards(new_page, live_server, owner, screenshot, locale, prefix, lang,
                                               viewport, tag):
    # given a good month: revenue in six figures
    tea = make_product(title="Kericho Gold", price="95000.00", stock=50)
    make_order(lines=[(tea, 2)], payment_status="cod", status="delivered")
    make_order(lines=[(tea, 1)])
    page = signed_in(new_page, live_server, owner, viewport=viewport, locale=locale)
    for section, island in (("", "admin-overview"), ("/analytics", "admin-analytics")):
        # when
        open_island(page, f"{prefix}/admindash{section}", island)
        page.locator(".admin-stat").first.wait_for()
        # then
        assert page.evaluate(OVERFLOWING_FIGURES_JS) == []
        screenshot(page, f"staff-stat-cards{section.replace('/', '-') or '-overview'}-{tag}-{lang}")


@pytest.mark.parametrize("locale, prefix, lang", LANGUAGES)
def test_every_dashboard_control_is_at_least_44_px_on_a_phone(new_page, live_server, owner, screenshot, locale,
                                                              prefix, lang):
    """Staff confirm a cash-on-delivery order at the door, or a stock count in the store room, on a phone: a
    control they tap is 44 × 44 px at least (the storefront's rule, tests/browser/test_touch_and_focus.py)."""
    # given a shop with something in each list
    tea = make_product(title="Kericho Gold", price="450.00", stock=7)
    make_order(lines=[(tea, 2)], payment_status="cod", status="processing")
    make_review(product=tea)
    make_message()
    page = signed_in(new_page, live_server, owner, viewport=PHONE, locale=locale)
    small = []
    for section in SECTIONS:
        # when
        open_island(page, f"{prefix}/admindash/{section.slug}", f"admin-{section.slug}")
        page.wait_for_load_state("networkidle")
        # then
        found = page.evaluate(SMALL_TARGETS_JS, [FOCUSABLE, MIN_TARGET, ".admin-layout"])
        small += [f"{section.slug}: {target}" for target in found["small"]]
        if section.slug in ("orders", "inventory", "settings"):
            screenshot(page, f"staff-phone-targets-{section.slug}-{lang}")
    assert not small, f"{len(small)} controls under 44 px at 360 ({lang}):\n" + "\n".join(small)
