"""Playwright for Python driving Debian's Chromium against pytest-django's live server."""

import os
from decimal import Decimal
from pathlib import Path

import pytest

from catalog.models import Category, Product
from tests.browser.settle import track_writes
from tests.live_requests import wait_until_idle

# Playwright's sync API runs an event loop in the test thread; the ORM calls
# the tests make there are still plain synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 860}


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make test`, which installs it")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-background-networking", "--disable-gpu",
                  "--disable-component-update", "--disable-sync", "--no-first-run"],
        )
        yield browser
        browser.close()


@pytest.fixture
def csp_violations():
    """Every Content-Security-Policy refusal Chromium reports on the pages a test opens."""
    return []


def _watch_csp(page, violations):
    def on_console(message):
        if "Content Security Policy" in message.text:
            violations.append(f"{page.url}: {message.text}")

    page.on("console", on_console)


@pytest.fixture
def new_page(browser, live_server, csp_violations):
    """Open pages at a viewport and language: new_page(viewport=PHONE, locale="ar").

    Any CSP violation on any page fails the test: the islands must work under
    the policy, not merely load. Give wait_for_function a function
    ("() => …"): Playwright evals a bare expression on every poll, and the
    CSP (no unsafe-eval) refuses that.
    """
    wait_until_idle()  # a request left over from the previous test must not share this one's writes
    contexts = []

    def make(*, viewport=DESKTOP, locale="en-US", **options):  # options: has_touch, is_mobile…
        context = browser.new_context(viewport=viewport, locale=locale, base_url=live_server.url, **options)
        context.set_default_timeout(10_000)
        context.on("page", lambda page: _watch_csp(track_writes(page), csp_violations))
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        # Let in-flight requests finish first: a request still inside its
        # transaction when the test database is flushed deadlocks PostgreSQL.
        for page in context.pages:
            try:
                page.wait_for_load_state("networkidle", timeout=5_000)
            except Exception:
                pass
        context.close()
    wait_until_idle()  # the server may still answer a request the closed page sent
    assert csp_violations == [], "\n".join(csp_violations)


def interaction_islands_mounted(page):
    """Wait until every island that waits for the first interaction (data-island-on-interaction) is in."""
    page.wait_for_function("() => [...document.querySelectorAll('[data-island-on-interaction]')]"
                           ".every((el) => el.dataset.mounted)")


def islands_ready(page, *names):
    """Interact with the page (a key press), which mounts the islands that wait for the shopper's first
    interaction (data-island-on-interaction: Add to cart, the shop's filters, the product tabs), then
    wait until those and the islands `names` are in."""
    page.keyboard.press("Shift")
    interaction_islands_mounted(page)
    for name in names:
        page.locator(f'[data-island="{name}"][data-mounted="true"]').first.wait_for(state="attached")


@pytest.fixture
def screenshot():
    """Save a screenshot under test-artifacts/ for people to look at."""

    def take(page, name):
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    return take


# two teas on sale in the shop (the checkout tests' cart)
@pytest.fixture
def teas(db):
    black = Category.objects.create(slug="black-tea", name="Black tea", name_ar="شاي أسود")
    return [
        Product.objects.create(slug="kericho-gold", title="Kericho Gold", title_ar="كريتشو جولد",
                               price_amount=Decimal("300.00"), stock=10, category=black),
        Product.objects.create(slug="green-leaf", title="Green Leaf", title_ar="ورقة خضراء",
                               price_amount=Decimal("250.00"), sale_price_amount=Decimal("200.00"), stock=10,
                               category=black),
    ]


@pytest.fixture
def fake_paymob(settings):
    """Paymob as a fake server on 127.0.0.1, with the card integration."""
    from orders.tests.payments.fake_paymob import fake_paymob_running

    # no inquiry: the callback and the signed redirect must do it, signed with the fake's own secret
    with fake_paymob_running(settings, api_key="") as fake:
        yield fake
