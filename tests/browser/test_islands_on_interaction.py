"""The shop's and the product page's islands wait for the shopper's first interaction (issue 14: on a slow
phone react-dom's start-up was most of these pages' Total Blocking Time). Until then the server's stand-ins
show what the islands will show; the first interaction mounts them; a tap that comes before they are ready
is replayed, and what the shopper entered first is kept. The rate badge follows the page's rate clock."""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from catalog.models import Category, Product
from shop.models import NewsletterSubscriber
from tests.browser.conftest import DESKTOP, PHONE, interaction_islands_mounted

pytestmark = pytest.mark.django_db(transaction=True)

WAITING = {"shop": ["shop-filters"], "product": ["add-to-cart", "product-tabs"]}


@pytest.fixture
def teas(db):
    black = Category.objects.create(slug="black-tea", name="Black Tea", name_ar="شاي أسود")
    green = Category.objects.create(slug="green-tea", name="Green Tea", name_ar="شاي أخضر")
    for n in range(3):
        Product.objects.create(slug=f"black-{n}", title=f"Black Tea {n}", title_ar=f"شاي أسود {n}",
                               price_amount=Decimal("200.00") + n, stock=5, category=black,
                               brewing_instructions="Steep for three minutes.")
    Product.objects.create(slug="green-0", title="Green Tea 0", title_ar="شاي أخضر 0",
                           price_amount=Decimal("150.00"), stock=5, category=green)
    return Product.objects.get(slug="black-0")


def _held(page, pattern):
    """Hold back the scripts matching `pattern` until the test lets them through (the list's items)."""
    held = []
    page.route(pattern, lambda route: held.append(route))
    return held


def _release(page, held):
    for _ in range(100):  # the request goes out once the interaction has started the island's load
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the island's code was never asked for"
    for route in held:
        route.continue_()


@pytest.mark.parametrize("prefix", ["", "/ar"], ids=["en", "ar"])
@pytest.mark.parametrize("name", ["shop", "product"])
def test_no_react_runs_until_the_first_interaction_mounts_the_islands(new_page, teas, name, prefix):
    # given: the page loaded on a phone, with nobody touching it
    page = new_page(viewport=PHONE, locale="ar-EG" if prefix else "en-US")
    scripts = []
    page.on("response", lambda response: scripts.append(response) if response.url.endswith(".js") else None)
    page.goto(f"{prefix}/shop" if name == "shop" else f"{prefix}/product/{teas.slug}")
    page.wait_for_load_state("networkidle")
    # then: no island has mounted, and no script that holds react-dom was loaded
    assert page.locator("[data-island][data-mounted]").count() == 0
    assert not any(b"hydrateRoot" in response.body() for response in scripts), [r.url for r in scripts]
    # when: the shopper first touches the page
    page.mouse.move(20, 300)
    # then: the islands that waited for it mount
    for island in WAITING[name]:
        page.locator(f'[data-island="{island}"][data-mounted="true"]').wait_for(state="attached")


@pytest.mark.parametrize("prefix", ["", "/ar"], ids=["en", "ar"])
def test_taps_on_the_stepper_and_add_to_cart_before_the_island_is_ready_are_replayed(new_page, teas, prefix):
    # given: the product page, with Add to cart's code held back by the network
    page = new_page(viewport=DESKTOP, locale="ar-EG" if prefix else "en-US")
    held = _held(page, "**/add-to-cart-*.js")
    page.goto(f"{prefix}/product/{teas.slug}")
    island = page.locator('[data-island="add-to-cart"]')
    # when: the shopper taps + on the server's stepper, which is the page's first interaction
    page.get_by_role("button", name=re.compile("Increase quantity|زيادة الكمية")).click()
    assert island.get_attribute("data-mounted") is None
    _release(page, held)
    # then: the tap is replayed on the island's own +
    expect(page.locator(".stepper input")).to_have_value("2")
    assert island.get_attribute("data-mounted") == "true"
    # and Add to cart adds the two
    page.locator(".add-to-cart__button").click()
    expect(page.locator(".site-header .badge").first).to_have_text("2")


@pytest.mark.parametrize("prefix", ["", "/ar"], ids=["en", "ar"])
def test_the_tabs_show_their_panel_before_and_after_they_mount(new_page, teas, prefix):
    page = new_page(viewport=PHONE, locale="ar-EG" if prefix else "en-US")
    tabs = page.locator('[data-island="product-tabs"]')
    # given: the tabs' code held back by the network (the browser's own scroll to an address's panel
    # counts as the first interaction)
    held = _held(page, "**/product-tabs-*.js")
    # then: the server's page shows Details only
    page.goto(f"{prefix}/product/{teas.slug}")
    assert page.locator("#details").is_visible()
    assert not page.locator("#care").is_visible() and not page.locator("#reviews").is_visible()
    # and with the address naming the reviews (the "N reviews" link): the reviews only, with the form's section
    page.goto(f"{prefix}/product/{teas.slug}#reviews")
    assert page.locator("#reviews").is_visible() and page.locator(".review-write").count() == 1
    assert not page.locator("#details").is_visible() and not page.locator("#care").is_visible()
    assert tabs.get_attribute("data-mounted") is None
    # when: the shopper taps Care Guide on the server's tab bar, then the code arrives
    page.locator(".tabs a", has_text=re.compile("Care Guide|دليل التحضير")).click()
    _release(page, held)
    page.locator('[data-island="product-tabs"][data-mounted="true"]').wait_for(state="attached")
    # then: the island shows Care Guide, selected
    expect(page.locator("#care")).to_be_visible()
    expect(page.get_by_role("tab", selected=True)).to_have_text(re.compile("Care Guide|دليل التحضير"))
    assert not page.locator("#details").is_visible() and not page.locator("#reviews").is_visible()


@pytest.mark.parametrize("prefix", ["", "/ar"], ids=["en", "ar"])
def test_a_filter_chosen_and_a_search_typed_before_the_filters_mount_are_kept(new_page, teas, prefix):
    # given: the shop on a desktop, with the filters' code held back by the network
    page = new_page(viewport=DESKTOP, locale="ar-EG" if prefix else "en-US")
    held = _held(page, "**/shop-filters-*.js")
    page.goto(f"{prefix}/shop")
    # when: the shopper picks Green Tea in the server's form, types in the search box, then the code arrives
    page.get_by_label(re.compile("Green Tea|شاي أخضر")).check()
    page.locator("#shop-search").fill("Green")
    _release(page, held)
    page.locator("#shop-search").blur()  # the island does not swap the box away while it is being typed in
    page.locator('[data-island="shop-filters"][data-mounted="true"]').wait_for(state="attached")
    # then: the island applied the category (the address and the results say so) and kept the typed text
    page.wait_for_url(re.compile(r"category=green-tea"))
    expect(page.locator("#shop-results .product-card")).to_have_count(1)
    expect(page.locator("#shop-search")).to_have_value("Green")
    assert page.get_by_label(re.compile("Green Tea|شاي أخضر")).is_checked()


def test_the_search_box_keeps_its_text_and_focus_when_the_filters_mount_under_it(new_page, teas):
    # given: a keyboard shopper typing in the server's search box before anything else
    page = new_page(viewport=DESKTOP)
    page.goto("/shop")
    page.locator("#shop-search").focus()
    page.keyboard.type("Black")
    # while the box is in use the island waits
    page.wait_for_timeout(300)
    assert page.locator('[data-island="shop-filters"]').get_attribute("data-mounted") is None
    # when: Tab moves on to Search
    page.keyboard.press("Tab")
    page.locator('[data-island="shop-filters"][data-mounted="true"]').wait_for(state="attached")
    # then: the island has the text and the focus is on its Search button, which searches
    expect(page.locator("#shop-search")).to_have_value("Black")
    # (the island moves the focus once mounted: waited for, not read at the instant it mounts)
    page.wait_for_function("() => document.activeElement?.type === 'submit'")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"search=Black"))
    expect(page.locator("#shop-results .product-card")).to_have_count(3)


@pytest.mark.parametrize("prefix", ["", "/ar"], ids=["en", "ar"])
def test_the_rate_badge_follows_the_rate_clock_every_30_minutes(new_page, teas, prefix):
    # given: the shop, whose page says 0.376, and a rate service that now says 0.5
    page = new_page(viewport=DESKTOP, locale="ar-EG" if prefix else "en-US")
    page.clock.install()
    answers = [{"status": 200, "body": '{"rate": "0.5"}'}, {"status": 503, "body": "{}"}]
    page.route("**/api/exchange-rate/kes-to-egp", lambda route: route.fulfill(content_type="application/json",
                                                                               **answers.pop(0)))
    page.goto(f"{prefix}/shop")
    page.wait_for_load_state("networkidle")  # the clock's code is in
    badge = page.locator(".rate-badge").first
    expect(badge).to_contain_text("0.376")
    # when: 30 minutes pass
    page.clock.run_for("30:00")
    # then: the badge shows the new rate, both ways
    expect(badge).to_contain_text(re.compile(r"0\.50"))
    expect(badge).to_contain_text("2.00")
    # and when the service fails at the next tick, it says the rate is unavailable
    page.clock.run_for("30:00")
    expect(badge).to_have_text(re.compile("Exchange rate unavailable|سعر الصرف غير متاح"))


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("prefix", ["", "/ar"], ids=["en", "ar"])
def test_the_islands_mount_over_their_stand_ins_without_a_change_in_word_or_place(new_page, teas, viewport, prefix):
    page = new_page(viewport=viewport, locale="ar-EG" if prefix else "en-US")
    for name, path in (("shop", "/shop"), ("product", f"/product/{teas.slug}")):
        # given: the page as the server wrote it, fonts in, with layout shifts counted from now
        page.goto(prefix + path)
        page.wait_for_load_state("networkidle")
        page.evaluate("() => document.fonts.ready.then(() => true)")
        page.evaluate("""() => { window.shifted = 0; new PerformanceObserver((list) => list.getEntries()
            .forEach((entry) => { window.shifted += entry.value; })).observe({type: "layout-shift"}); }""")
        seen = {island: _text_and_box(page, island) for island in WAITING[name]}
        # when: the shopper's first interaction mounts the islands
        page.mouse.move(5, 5)
        interaction_islands_mounted(page)
        page.wait_for_timeout(300)
        # then: each says the same words in the same box, and nothing on the page moved
        for island in WAITING[name]:
            assert _text_and_box(page, island) == seen[island], f"{path}: {island}"
        assert page.evaluate("window.shifted") == 0, path


def _text_and_box(page, island):
    return page.locator(f'[data-island="{island}"]').evaluate(
        "(el) => [el.innerText.replace(/\\s+/g, ' ').trim(), ...Object.values(el.getBoundingClientRect().toJSON())]")


@pytest.mark.parametrize("prefix", ["", "/ar"], ids=["en", "ar"])
def test_a_sort_chosen_first_on_a_phone_is_applied_without_another_tap(new_page, teas, prefix):
    # given: the shop on a phone, nothing touched yet
    page = new_page(viewport=PHONE, locale="ar-EG" if prefix else "en-US", has_touch=True, is_mobile=True)
    page.goto(f"{prefix}/shop")
    # when: the first thing the shopper does is pick "Price: High to Low" in the sort list (focus stays on it)
    sort = page.locator("#shop-sort")
    sort.tap()
    sort.select_option("price-desc")
    # then: the island mounts and applies it, with no tap elsewhere
    page.wait_for_url(re.compile(r"sort=price-desc"))
    expect(page.locator("#shop-results .product-card").first).to_contain_text(re.compile("Black Tea 2|شاي أسود 2"))
    expect(page.locator("#shop-sort")).to_have_value("price-desc")


@pytest.mark.parametrize("prefix", ["", "/ar"], ids=["en", "ar"])
def test_the_keyboard_keeps_its_place_when_the_footer_form_comes_in_under_it(new_page, teas, prefix):
    # given: a keyboard shopper reaching the footer's newsletter box before its island has come in
    page = new_page(viewport=PHONE, locale="ar-EG" if prefix else "en-US")
    page.goto(f"{prefix}/shop")
    box = page.locator('[data-island="newsletter-form"] input[type=email]')
    box.focus()  # scrolls it into view, which starts the island's load
    page.keyboard.type("mona@example.com")
    page.wait_for_timeout(1500)  # the island's code is here by now
    # then: focus and the typed address are still where the shopper left them
    assert page.evaluate("() => document.activeElement.type") == "email"
    expect(box).to_have_value("mona@example.com")
    # and once focus moves on past the form, the island comes in
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.locator('[data-island="newsletter-form"][data-mounted="true"]').wait_for(state="attached")


@pytest.mark.parametrize("prefix", ["", "/ar"], ids=["en", "ar"])
def test_an_address_typed_in_the_footer_form_before_it_comes_in_is_kept_once_focus_has_moved_on(new_page, teas,
                                                                                                 prefix):
    # given: the footer form's island code held back by the network (a slow phone connection)
    page = new_page(viewport=PHONE, locale="ar-EG" if prefix else "en-US")
    held = _held(page, "**/newsletter-form-*.js")
    page.goto(f"{prefix}/shop")
    box = page.locator('[data-island="newsletter-form"] input[type=email]')
    # when: the shopper types an address in the server's form and Tabs on, past its button, out of the form
    box.focus()  # scrolls it into view, which asks for the island's code
    page.keyboard.type("mona@example.com")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    away = page.evaluate("() => document.activeElement.outerHTML")
    assert not page.evaluate("() => document.activeElement.closest('[data-island]')"), away
    # and only then does the island's code arrive
    _release(page, held)
    page.locator('[data-island="newsletter-form"][data-mounted="true"]').wait_for(state="attached")
    # then: the island has the address, and the keyboard stays where the shopper took it
    expect(page.locator("#newsletter-email")).to_have_value("mona@example.com")
    page.wait_for_timeout(300)  # the carry-over's code (lib/refocus.js) is fetched once the island is in
    assert page.evaluate("() => document.activeElement.outerHTML") == away
    # and Subscribe sends that address: the island has it, not only its box
    page.locator(".newsletter-form button[type=submit]").click()
    page.locator(".newsletter-form .alert--success").wait_for()
    assert NewsletterSubscriber.objects.filter(email="mona@example.com").exists()


# React's scheduler runs its work through setImmediate when the page has one (a browser has none): this one
# acts just before each piece of it, i.e. between the start of an island's render and its commit. Once the
# footer form's island has begun rendering (React has made its box a root) and has not come in yet, it focuses
# the stand-in's e-mail box and types there, as a jump to the box and the shopper's first letters would.
FOCUS_THE_BOX_WHILE_THE_FORM_RENDERS = """
window.setImmediate = (work) => setTimeout(() => { window.beforeReactWork?.(); work(); });
window.beforeReactWork = () => {
  const island = document.querySelector('[data-island="newsletter-form"]');
  if (island.dataset.mounted || !Object.keys(island).some((key) => key.startsWith("__reactContainer$"))) return;
  window.beforeReactWork = null;
  const box = island.querySelector("#newsletter-email");
  box.focus();
  box.value = "late@example.com";
};
"""


@pytest.mark.parametrize("prefix", ["", "/ar"], ids=["en", "ar"])
def test_a_focus_given_while_the_footer_form_renders_moves_into_it(new_page, prefix):
    # given: a dead confirmation link's page on a phone, whose footer form has not come in
    page = new_page(viewport=PHONE, locale="ar-EG" if prefix else "en-US")
    # when: the jump to the form's e-mail box, and what is typed there, come after its island has begun its
    # first render and before React puts it in (seen in CI under load)
    page.add_init_script(FOCUS_THE_BOX_WHILE_THE_FORM_RENDERS)
    page.goto(f"{prefix}/newsletter/confirm/bogus")
    page.locator(".site-footer").scroll_into_view_if_needed()
    page.locator('[data-island="newsletter-form"][data-mounted="true"]').wait_for(state="attached")
    assert page.evaluate("() => window.beforeReactWork === null"), "the box was not focused in that window"
    # then: the island's e-mail box has the focus and the address
    expect(page.locator("#newsletter-email")).to_be_focused()
    expect(page.locator("#newsletter-email")).to_have_value("late@example.com")
    # and Enter subscribes that address: the island has it, not only its box
    page.keyboard.press("Enter")
    page.locator(".newsletter-form .alert--success").wait_for()
    assert NewsletterSubscriber.objects.filter(email="late@example.com").exists()
