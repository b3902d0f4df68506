"""Touch targets and the focus ring, measured in Chromium (issue 12).

* Every interactive control on the storefront at 360 px is at least 44×44 CSS px (WCAG 2.5.5,
  Apple HIG). Exemptions, as WCAG 2.5.5 lists them, and only these:
  - Inline: a link inside running text (a sentence in a paragraph, a form's legal note), whose
    size the line of text sets;
  - Equivalent: a checkbox or radio whose <label> wraps or names it is measured as the label,
    the target the shopper actually taps;
  - not a target: controls that are not rendered (closed drawers, the skip link until it is
    focused, visually-hidden text).
* The focus ring has at least 3:1 contrast (WCAG 1.4.11) against every background it appears
  on, at both widths: every focusable control of each page is focused in turn (after a Tab, so
  :focus-visible applies) and its outline is measured against what is behind it.
"""

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.contrast import FOCUS_RING_CONTRAST_JS
from tests.browser.storefront_pages import seed_catalogue, settle, shopper_pages

pytestmark = pytest.mark.django_db(transaction=True)

MIN_TARGET = 44
NON_TEXT_CONTRAST = 3.0

FOCUSABLE = ("a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab], "
             "[tabindex]:not([tabindex='-1'])")

SMALL_TARGETS_JS = """([selector, minimum, root]) => {
  const rendered = (el) => {
    if (!el.checkVisibility({checkOpacity: false, checkVisibilityCSS: true})) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;                      // visually hidden
    if (r.right <= 0 || r.left >= document.documentElement.clientWidth + 1) return false;  // parked off-screen
    return true;
  };
  const blockOf = (el) => { let n = el.parentElement;
    while (n && getComputedStyle(n).display.startsWith('inline')) n = n.parentElement; return n; };
  const inRunningText = (el) => {
    if (getComputedStyle(el).display !== 'inline') return false;
    const block = blockOf(el);
    if (!block || !['P', 'SPAN', 'SMALL', 'LI', 'DD', 'TD', 'LABEL', 'DIV'].includes(block.tagName)) return false;
    const own = el.textContent.trim().length;
    const all = block.textContent.replace(/\\s+/g, ' ').trim().length;
    return all - own >= 12;                                              // words around it: a sentence
  };
  const small = [], exempt = [];
  const seen = new Set();
  for (let el of document.querySelector(root).querySelectorAll(selector)) {
    if (el.matches('input[type=checkbox], input[type=radio]')) {
      const label = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`));
      if (label) { el = label; }
    }
    if (seen.has(el) || !rendered(el)) continue;
    seen.add(el);
    const r = el.getBoundingClientRect();
    const classes = el.className && typeof el.className === 'string'
      ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
    const text = (el.textContent || el.getAttribute('aria-label') || el.value || '').trim().replace(/\\s+/g, ' ');
    const name = `${el.tagName.toLowerCase()}${classes} "${text.slice(0, 30)}"`;
    if (r.width >= minimum - 0.5 && r.height >= minimum - 0.5) continue;
    if (inRunningText(el)) { exempt.push(name); continue; }
    small.push(`${name} ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return {small, exempt};
}"""

WEAK_RINGS_JS = """([selector, minimum]) => {
  const check = %s;
  const weak = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.checkVisibility({checkVisibilityCSS: true}) || el.disabled || el.tabIndex < 0) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    el.focus();
    if (document.activeElement !== el || !el.matches(':focus-visible')) continue;
    const {ratio, ring} = check(el);
    const label = `${el.tagName.toLowerCase()}.${String(el.className).trim().split(/\\s+/).join('.')}`;
    const text = (el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 24);
    if (ratio < minimum) weak.push(`${label} "${text}" ring ${ring}: ${ratio.toFixed(2)}`);
  }
  document.activeElement?.blur();
  return weak;
}""" % FOCUS_RING_CONTRAST_JS


def _pages(new_page, live_server, alice, lang, viewport):
    product = seed_catalogue()
    page = new_page(viewport=viewport, locale="ar-EG" if lang == "ar" else "en-US")
    prefix = "/ar" if lang == "ar" else ""
    for name, path in shopper_pages(page, live_server, product=product, customer=alice, prefix=prefix):
        page.goto(path)
        settle(page)
        yield page, name


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_every_storefront_control_is_at_least_44_px_at_360(new_page, live_server, alice, lang):
    small, exempt = [], set()
    for page, name in _pages(new_page, live_server, alice, lang, PHONE):
        result = page.evaluate(SMALL_TARGETS_JS, [FOCUSABLE, MIN_TARGET, "body"])
        small += [f"{name}: {item}" for item in result["small"]]
        exempt |= {f"{name}: {item}" for item in result["exempt"]}
        if name == "home":  # the menu drawer's links too
            page.get_by_role("button", name="Open menu" if lang == "en" else "فتح القائمة").click()
            result = page.evaluate(SMALL_TARGETS_JS, [FOCUSABLE, MIN_TARGET, "#drawer"])
            small += [f"{name} (menu): {item}" for item in result["small"]]
            page.keyboard.press("Escape")
    print("inline links exempted:", *sorted(exempt), sep="\n  ")
    assert not small, f"{len(small)} controls smaller than 44x44 at 360 px ({lang}):\n" + "\n".join(small)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_focus_ring_has_3_to_1_contrast_everywhere(new_page, live_server, alice, lang):
    weak = []
    for page, name in _pages(new_page, live_server, alice, lang, PHONE):
        for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size(viewport)
            page.keyboard.press("Tab")  # keyboard modality: focus() now shows :focus-visible
            weak += [f"{name} {size}: {item}" for item in
                     page.evaluate(WEAK_RINGS_JS, [FOCUSABLE, NON_TEXT_CONTRAST])]
    assert not weak, f"{len(weak)} focus rings under 3:1 ({lang}):\n" + "\n".join(weak)
