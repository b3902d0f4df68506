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
