"""The checkout offers only the payment methods that can be completed right now (issue 12: a
default install preselected Card, which failed with a 503 after the whole form)."""

from orders.payments import methods_available
from shop.store_settings import store_settings_get


def _offered(client):
    return client.get("/checkout").context["props"]["methods"]


def test_a_default_install_offers_only_cash_on_delivery(client, settings, db):
    # given: production defaults, no Paymob keys, no test page
    settings.PAYMENT_PROVIDER = "sandbox"
    settings.PAYMENT_SANDBOX = False
    # when / then
    assert _offered(client) == ["cod"]


def test_it_offers_card_only_when_paymob_is_configured(client, settings, db):
    # given
    settings.PAYMENT_PROVIDER = "paymob"
    settings.PAYMOB_SECRET_KEY = ""
    # then
    assert "card" not in _offered(client)
    # when the keys are set
    settings.PAYMOB_SECRET_KEY, settings.PAYMOB_PUBLIC_KEY = "egy_sk_test_x", "egy_pk_test_x"
    settings.PAYMOB_HMAC_SECRET, settings.PAYMOB_INTEGRATION_IDS = "h", [1]
    # then card comes first, so the checkout preselects it
    assert _offered(client) == ["card", "cod"]


def test_it_leaves_out_cash_on_delivery_when_the_store_turned_it_off(client, settings, db):
    # given
    settings.PAYMENT_SANDBOX = False
    store = store_settings_get()
    store.cod_enabled = False
    store.save()
    # when / then
    assert methods_available(cod_enabled=store_settings_get().cod_enabled) == []
    assert _offered(client) == []


import pytest  # noqa: E402


@pytest.mark.parametrize("method", ["card", "cod"])
@pytest.mark.parametrize("limit, offered", [("600.00", False), ("700.00", True)])
def test_the_checkout_summary_says_cash_on_delivery_is_not_available_over_the_cod_limit(
        api, make_product, limit, offered, method):
    # given a cart of E£600 (E£650 with shipping; more with the COD fee), under a COD limit it passes or not
    from decimal import Decimal

    from catalog.models import Product
    from orders.calculations import order_totals
    from orders.checkout import CheckoutError, checkout_validate, order_place
    from orders.tests.conftest import FORM
    from shop.store_settings import store_settings_update

    store_settings_update(cod_max_total=Decimal(limit))
    tea = make_product(stock=10)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, format="json")
    # when the checkout asks for its summary, with either method chosen
    summary = api.post("/api/cart/summary", {"paymentMethod": method, "governorate": "Cairo"}, format="json").json()
    # then it offers cash on delivery exactly when placing it would take it (its total with the COD fee)
    assert summary["codAvailable"] is offered
    cod_total = order_totals(lines=[(tea, 2)], payment_method="cod", governorate="Cairo").total
    assert (cod_total <= Decimal(limit)) is offered
    try:
        order_place(lines=[(Product.objects.get(pk=tea.pk), 2)], form=checkout_validate(FORM))
        placed = True
    except CheckoutError:
        placed = False
    assert placed is offered
