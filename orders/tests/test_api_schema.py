import pytest

pytestmark = pytest.mark.django_db


def test_every_cart_checkout_and_payment_endpoint_is_in_the_openapi_schema(client):
    # when
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    # then
    paths = schema["paths"]
    for path, method in [
        ("/api/cart", "get"), ("/api/cart", "delete"), ("/api/cart/items", "post"),
        ("/api/cart/items/{product_id}", "patch"), ("/api/cart/items/{product_id}", "delete"),
        ("/api/payment/test", "post"), ("/api/payment/create-intention", "post"),
        ("/api/payment/verify/{payment_id}", "get"), ("/api/orders", "post"),
        ("/api/users/checkout-register", "post"),
    ]:
        assert method in paths[path], (path, method)
