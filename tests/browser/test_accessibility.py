"""axe-core on every storefront page and the dashboard overview, EN and AR, phone and desktop:
0 violations of any impact (issue 12)."""

from pathlib import Path

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.storefront_pages import seed_catalogue, settle, shopper_pages, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

AXE = (Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js").read_text()
# every rule axe runs by default (WCAG 2.x A/AA and best practices), nothing switched off
RUN_AXE = """() => axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: '
      + n.failureSummary.split('\\n').slice(0, 3).join(' '))})))"""


def axe_violations(page):
    # evaluated through the DevTools protocol, so the page's CSP (no inline scripts) lets it in
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE)
    return page.evaluate(RUN_AXE)


def _check(page, name, failures):
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(50)
        for violation in axe_violations(page):
            failures.append(f"{name} {size}: {violation['id']} ({violation['impact']}) {violation['help']}\n    "
                            + "\n    ".join(violation["nodes"]))


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_axe_finds_nothing_on_the_storefront_and_dashboard(new_page, live_server, alice, owner, lang):
    product = seed_catalogue()
    prefix = "/ar" if lang == "ar" else ""
    locale = "ar-EG" if lang == "ar" else "en-US"
    failures = []
    page = new_page(viewport=PHONE, locale=locale)
    for name, path in shopper_pages(page, live_server, product=product, customer=alice, prefix=prefix):
        page.goto(path)
        settle(page)
        _check(page, name, failures)
    staff = new_page(viewport=PHONE, locale=locale)
    sign_in(staff, live_server, owner)
    staff.goto(f"{prefix}/admindash")
    settle(staff)
    _check(staff, "dashboard", failures)
    assert not failures, f"{len(failures)} axe violations ({lang}):\n" + "\n".join(failures)
