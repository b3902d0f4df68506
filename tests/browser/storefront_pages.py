"""The storefront pages the accessibility and tap-target checks walk, set up once per language.

One page per language and role, reused across both widths: the checks run in CI twice, so
each test opens every page once per viewport and no more.
"""

from django.conf import settings
from django.core.management import call_command
from django.test import Client

from catalog.models import Product

ADD_TO_CART = """(id) => fetch('/api/cart/items', {method: 'POST', credentials: 'same-origin',
    headers: {'Content-Type': 'application/json',
      'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || ''},
    body: JSON.stringify({productId: id, quantity: 1})}).then((r) => r.ok)"""

PLACE_COD_ORDER = """() => fetch('/api/payment/create-intention', {method: 'POST', credentials: 'same-origin',
    headers: {'Content-Type': 'application/json',
      'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || ''},
    body: JSON.stringify({paymentMethod: 'cod',
      customer: {firstName: 'Mona', lastName: 'Ali', email: 'alice@example.com', phone: '01012345678'},
      billingAddress: {street: '12 Nile St', city: 'Cairo', state: 'Cairo', country: 'EGY'}})}).then((r) => r.ok)"""


def seed_catalogue():
    """The demo catalogue (real pictures, featured teas, sale prices); the product to open."""
    call_command("seed_demo", verbosity=0)
    return Product.objects.filter(is_active=True, stock__gt=0, is_featured=True).order_by("pk").first()


def sign_in(page, live_server, user):
    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                               "value": client.cookies[settings.SESSION_COOKIE_NAME].value, "url": live_server.url}])


def shopper_pages(page, live_server, *, product, customer, prefix):
    """Yield (name, path) for every storefront page, preparing the session for each as it goes.

    Anonymous for home…register, then the customer's session places a cash-on-delivery order
    (thank-you) and has a tea in the cart again (cart, checkout) and opens the account.
    """
    page.goto(f"{prefix}/")
    for name, path in (("home", "/"), ("shop", "/shop"), ("product", f"/product/{product.slug}"),
                       ("login", "/login"), ("register", "/register")):
        yield name, f"{prefix}{path}"
    sign_in(page, live_server, customer)
    page.goto(f"{prefix}/")
    assert page.evaluate(ADD_TO_CART, product.pk)
    assert page.evaluate(PLACE_COD_ORDER)
    yield "thank-you", f"{prefix}/thankyou"
    assert page.evaluate(ADD_TO_CART, product.pk)
    for name, path in (("cart", "/cart"), ("checkout", "/checkout"), ("account", "/account")):
        yield name, f"{prefix}{path}"


def settle(page):
    """Wait until the islands mounted and the fonts are in, so what is measured is what shows."""
    page.wait_for_load_state("networkidle")
    page.keyboard.press("Shift")  # the first interaction mounts the islands that wait for one
    # every island that mounts without being reached or sent an event (those are left as the server wrote them)
    page.wait_for_function("() => [...document.querySelectorAll('[data-island]:not([data-island-lazy])"
                           ":not([data-island-on-demand]):not([data-island-on-event])')]"
                           ".every((el) => el.dataset.mounted)", timeout=10_000)
    page.evaluate("() => document.fonts.ready.then(() => true)")
