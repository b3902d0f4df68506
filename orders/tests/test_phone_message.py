"""A phone number the checkout refuses is answered with an example of one it takes (an Egyptian mobile),
by the server and by the checkout page's own check before sending, in English and Arabic."""

import pytest

pytestmark = pytest.mark.django_db

INTENTION = "/api/payment/create-intention"
MESSAGES = {"en": "Please enter a valid phone number, for example 01012345678",
            "ar": "يرجى إدخال رقم هاتف صالح، مثل 01012345678"}


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_checkout_refuses_a_phone_with_an_example_of_the_format_it_takes(api, make_product, lang):
    api.post("/api/cart/items", {"productId": make_product().pk, "quantity": 1}, format="json")
    body = {"paymentMethod": "cod",
            "customer": {"firstName": "Mona", "lastName": "Ali", "email": "mona@example.com", "phone": "0101234"},
            "billingAddress": {"street": "12 Nile St", "city": "Cairo", "state": "Cairo", "country": "EGY"}}
    data = api.post(INTENTION, body, format="json", HTTP_ACCEPT_LANGUAGE=lang).json()
    assert (data["field"], data["message"]) == ("phone", MESSAGES[lang])
    # and the example is a number the checkout takes
    body["customer"]["phone"] = "01012345678"
    assert api.post(INTENTION, body, format="json", HTTP_ACCEPT_LANGUAGE=lang).status_code == 201


@pytest.mark.parametrize("prefix, lang", [("", "en"), ("/ar", "ar")])
def test_the_checkout_page_checks_the_phone_with_the_servers_words(client, make_product, prefix, lang):
    client.post("/api/cart/items", {"productId": make_product().pk}, content_type="application/json")
    props = client.get(f"{prefix}/checkout").context["props"]
    assert props["text"]["invalidPhone"] == MESSAGES[lang]
