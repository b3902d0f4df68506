"""Every button keeps its label readable when hovered, pressed or focused (issue 12: the gold
calls-to-action turned gold-on-gold on hover and after a tap)."""

import pytest
from django.core.management import call_command

from catalog.models import Product
from tests.browser.conftest import DESKTOP, PHONE, islands_ready
from tests.browser.contrast import WORST_CONTRAST_JS

pytestmark = pytest.mark.django_db(transaction=True)

AA = 4.5


@pytest.fixture
def product(db):
    call_command("seed_demo", verbosity=0)
    return Product.objects.filter(is_active=True, stock__gt=0).order_by("pk").first()


def _put_in_cart(page, product):
    page.evaluate("""(id) => fetch('/api/cart/items', {method: 'POST', credentials: 'same-origin',
        headers: {'Content-Type': 'application/json',
          'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || ''},
        body: JSON.stringify({productId: id, quantity: 1})})""", product.pk)


_LAZY_ISLANDS_IN_VIEW_MOUNTED = """() => [...document.querySelectorAll('[data-island-lazy]')].every((e) => {
  const box = e.getBoundingClientRect();
  return e.dataset.mounted || box.top > innerHeight || box.bottom < 0 || !box.height;  // hidden: never mounts
})"""


def _unreadable_buttons(page):
    # (an on-demand island, the currency converter, keeps its server-rendered button, the same markup,
    # until it is clicked: lib/mount.jsx)
    failures = []
    # the phone's sticky add-to-cart bar hides as soon as the main button scrolls into view; it is
    # the same gold variant as that button, which is measured
    buttons = page.locator(".button:not(.sticky-atc__button)")
    for index in range(buttons.count()):
        button = buttons.nth(index)
        if not button.is_visible() or button.is_disabled():
            continue
        label = button.inner_text().strip()[:30]
        button.scroll_into_view_if_needed()
        # an island that mounts when it nears the screen (the footer newsletter) swaps its buttons
        page.wait_for_function(_LAZY_ISLANDS_IN_VIEW_MOUNTED)
        button = buttons.nth(index)
        if not button.is_visible():
            continue
        button.hover()
        hovered = button.evaluate(WORST_CONTRAST_JS)
        page.mouse.down()
        pressed = button.evaluate(WORST_CONTRAST_JS)
        page.mouse.move(0, 0)
        page.mouse.up()
        button.focus()
        focused = button.evaluate(WORST_CONTRAST_JS)
        for state, ratio in (("hover", hovered), ("active", pressed), ("focus", focused)):
            if ratio < AA:
                failures.append(f"{page.url} {label!r} {state}: {ratio:.2f}")
    return failures


@pytest.mark.parametrize("viewport, locale, prefix", [(PHONE, "en-US", ""), (PHONE, "ar-EG", "/ar"),
                                                      (DESKTOP, "en-US", ""), (DESKTOP, "ar-EG", "/ar")])
def test_every_button_keeps_a_readable_label_on_hover_press_and_focus(new_page, screenshot, product, viewport, locale,
                                                                      prefix):
    # given a shopper with a tea in the cart
    page = new_page(viewport=viewport, locale=locale)
    page.goto(f"{prefix}/")
    _put_in_cart(page, product)
    failures = []
    size = "phone" if viewport is PHONE else "desktop"
    lang = "ar" if prefix else "en"
    for name, path in (("home", "/"), ("shop", "/shop"), ("product", f"/product/{product.slug}"), ("cart", "/cart")):
        page.goto(prefix + path)
        page.wait_for_load_state("networkidle")
        islands_ready(page)  # the islands that mount at the first interaction swap their buttons then
        # when every button is hovered, pressed and focused in turn
        failures += _unreadable_buttons(page)
        if name == "home":
            page.locator(".hero .button--gold").first.hover()
            screenshot(page, f"buttons-{name}-hover-{lang}-{size}")
    # then every label keeps at least WCAG AA contrast
    assert not failures, "\n".join(failures)
