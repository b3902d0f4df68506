"""Saved addresses (API and account page), the checkout prefill, and Reorder."""

import json
import re

import pytest
from rest_framework.test import APIClient

from accounts.addresses import AddressError, address_create
from accounts.models import Address
from catalog.products import product_update
from orders.models import CartLine
from tests.factories import make_order, make_product

HOME = {"label": "Home", "firstName": "Alice", "lastName": "Hassan", "phone": "01012345678",
        "street": "12 Nile St", "building": "4", "floor": "3", "city": "Zamalek", "state": "Cairo"}
WORK = {**HOME, "label": "Work", "street": "5 Tahrir Sq", "city": "Giza", "state": "الجيزة"}


@pytest.fixture
def api(alice):
    client = APIClient()
    client.force_authenticate(alice)
    return client


def test_first_address_becomes_default_and_another_can_take_over(api, alice):
    first = api.post("/api/account/addresses", HOME, format="json")
    assert first.status_code == 201 and first.json()["isDefault"] is True
    second = api.post("/api/account/addresses", {**WORK, "isDefault": True}, format="json")
    assert second.status_code == 201
    assert second.json()["state"] == "Giza"  # the Arabic governorate name is stored in English
    listed = api.get("/api/account/addresses").json()
    assert [a["label"] for a in listed] == ["Work", "Home"]  # the default first
    assert [a["isDefault"] for a in listed] == [True, False]
    assert Address.objects.filter(user=alice, is_default=True).count() == 1


def test_deleting_the_default_promotes_the_oldest(api, alice):
    home = api.post("/api/account/addresses", HOME, format="json").json()
    work = api.post("/api/account/addresses", WORK, format="json").json()
    assert api.delete(f"/api/account/addresses/{home['id']}").status_code == 204
    assert Address.objects.get(pk=work["id"]).is_default


def test_address_errors_name_every_field(api):
    answer = api.post("/api/account/addresses", {"street": "", "phone": "12", "state": "Atlantis"}, format="json")
    assert answer.status_code == 400
    body = answer.json()
    assert body["field"] == "firstName"
    assert {"firstName", "lastName", "phone", "street", "city", "state"} <= set(body["fields"])


def test_someone_elses_address_is_404_and_guests_401(api, bob):
    other = address_create(user=bob, fields={"first_name": "Bob", "last_name": "F", "phone": "01012345678",
                                             "street": "x", "city": "y", "state": "Cairo"})
    assert api.delete(f"/api/account/addresses/{other.pk}").status_code == 404
    assert api.put(f"/api/account/addresses/{other.pk}", HOME, format="json").status_code == 404
    assert APIClient().get("/api/account/addresses").status_code in (401, 403)


def test_at_most_ten_addresses(alice):
    fields = {"first_name": "A", "last_name": "H", "phone": "01012345678", "street": "s", "city": "c", "state": "Cairo"}
    for _ in range(10):
        address_create(user=alice, fields=fields)
    with pytest.raises(AddressError):
        address_create(user=alice, fields=fields)


def test_account_page_adds_lists_and_makes_default(client, alice):
    client.force_login(alice)
    posted = client.post("/account", {"action": "address_add", **{f"a_{k}": v for k, v in HOME.items()}})
    assert posted.status_code == 302
    client.post("/account", {"action": "address_add", **{f"a_{k}": v for k, v in WORK.items()}})
    work = Address.objects.get(label="Work")
    client.post("/account", {"action": "address_default", "address": str(work.pk)})
    work.refresh_from_db()
    assert work.is_default
    page = client.get("/ar/account").content.decode()
    assert "العناوين المحفوظة" in page and "5 Tahrir Sq" in page
    # the governorate in the page's language, after an Arabic comma; the list in Arabic alphabetical order
    assert "Giza، الجيزة" in page and "Zamalek، القاهرة" in page and ", Cairo" not in page
    # the street line's parts after Arabic commas too, and English commas on the English page
    assert "12 Nile St، مبنى 4، الطابق 3" in page
    assert "12 Nile St, Building 4, Floor 3" in client.get("/account").content.decode()
    listed = re.findall(r'<option value="([^"]+)"', page[page.index('id="id_a_state"'):])[:4]
    assert listed[:3] == ["Aswan", "Assiut", "Alexandria"]
    bad = client.post("/account", {"action": "address_add", "a_firstName": "A"})
    assert bad.status_code == 400 and "يرجى" not in bad.content.decode()  # English page, English message
    assert 'aria-invalid="true"' in bad.content.decode()


def _checkout_props(response):
    html = response.content.decode()
    match = re.search(r'<script id="checkout-props"[^>]*>(.*?)</script>', html, re.S)
    return json.loads(match.group(1))


@pytest.mark.parametrize("action", ["address_default", "address_delete"])
@pytest.mark.parametrize("address", ["²", "𝟏", "x", "", "1" * 19])
def test_an_address_number_that_is_not_one_is_not_found_on_the_account_page(client, alice, action, address):
    # given: "²" and "𝟏" pass str.isdigit(), which int() then refused with a 500
    saved = address_create(user=alice, fields={**HOME, "first_name": "Alice", "last_name": "Hassan"})
    client.force_login(alice)
    # when
    response = client.post("/account", {"action": action, "address": address})
    # then
    assert response.status_code == 400
    assert response.context["address_errors"] == {"form": "Address not found"}
    assert Address.objects.filter(pk=saved.pk, is_default=True).exists()


@pytest.mark.parametrize("address", ["²", "𝟏", "1" * 19])
def test_checkout_takes_an_address_number_that_is_not_one_as_none_chosen(client, alice, address):
    # given
    address_create(user=alice, fields={**HOME, "first_name": "Alice", "last_name": "Hassan"})
    client.force_login(alice)
    # when
    response = client.get("/checkout", {"address": address})
    # then: the default address, as with no choice
    assert response.status_code == 200
    assert "12 Nile St" in response.content.decode()


def test_checkout_is_prefilled_with_the_default_address_or_the_one_chosen(client, alice):
    address_create(user=alice, fields={"label": "Home", "first_name": "Alice", "last_name": "Hassan",
                                       "phone": "01012345678", "street": "12 Nile St", "city": "Zamalek",
                                       "state": "Cairo"})
    work = address_create(user=alice, fields={"label": "Work", "first_name": "Alice", "last_name": "Hassan",
                                              "phone": "01099999999", "street": "5 Tahrir Sq", "city": "Dokki",
                                              "state": "Giza"})
    client.force_login(alice)
    product = make_product()
    client.post("/api/cart/items", {"productId": product.pk, "quantity": 1}, content_type="application/json")
    prefill = _checkout_props(client.get("/checkout"))["prefill"]
    assert prefill["street"] == "12 Nile St" and prefill["state"] == "Cairo" and prefill["email"] == alice.email
    page = client.get(f"/checkout?address={work.pk}")
    assert _checkout_props(page)["prefill"]["street"] == "5 Tahrir Sq"
    assert b"data-saved-addresses" in page.content


def test_checkout_prefill_prefers_what_the_session_typed(client, alice):
    from orders.drafts import SESSION_KEY

    address_create(user=alice, fields={"first_name": "Alice", "last_name": "Hassan", "phone": "01012345678",
                                       "street": "12 Nile St", "city": "Zamalek", "state": "Cairo"})
    client.force_login(alice)
    session = client.session
    session[SESSION_KEY] = {"order": "NH-NONE", "fields": {"street": "99 Corniche", "email": "not-mine@example.com",
                                                            "evil": "x"}}
    session.save()
    prefill = _checkout_props(client.get("/checkout"))["prefill"]
    assert prefill["street"] == "99 Corniche" and prefill["city"] == "Zamalek"
    assert prefill["email"] == alice.email and "evil" not in prefill


def test_guest_checkout_has_no_saved_address(client, db):
    prefill = _checkout_props(client.get("/checkout"))["prefill"]
    assert set(prefill) == {"email", "firstName", "lastName", "phone", "street", "building", "apartment", "floor",
                            "city", "state", "postalCode", "country"}
    assert prefill["country"] == "EGY" and not any(v for k, v in prefill.items() if k != "country")


def test_reorder_puts_available_lines_back_and_names_the_rest(client, alice, bob):
    kept = make_product(title="Pure Black", stock=10)
    short = make_product(title="Green Mint", stock=10)
    gone = make_product(title="Old Blend", stock=5)
    empty = make_product(title="Sold Out Chai", stock=5)
    order = make_order(user=alice, lines=[(kept, 2), (short, 3), (gone, 1), (empty, 1)])
    # since then: one left of the mint, the blend withdrawn, the chai sold out
    product_update(product=short, stock=1)
    product_update(product=gone, is_active=False)
    product_update(product=empty, stock=0)
    api = APIClient()
    api.force_authenticate(alice)
    answer = api.post(f"/api/orders/{order.number}/reorder")
    assert answer.status_code == 200
    body = answer.json()
    assert body["added"] == ["Pure Black"] and body["reduced"] == ["Green Mint"]
    assert body["unavailable"] == ["Old Blend", "Sold Out Chai"]
    assert {(line.product.title, line.quantity) for line in CartLine.objects.filter(cart__user=alice)} == {
        ("Pure Black", 2), ("Green Mint", 1)}
    other = APIClient()
    other.force_authenticate(bob)
    assert other.post(f"/api/orders/{order.number}/reorder").status_code == 404


def test_reorder_button_on_the_account_page_lands_on_the_cart_with_messages(client, alice):
    gone = make_product(title="Old Blend", stock=5)
    kept = make_product(title="Pure Black", stock=10)
    order = make_order(user=alice, lines=[(kept, 1), (gone, 1)])
    product_update(product=gone, is_active=False)  # withdrawn since
    client.force_login(alice)
    account = client.get("/ar/account").content.decode()
    assert f"/ar/orders/{order.number}/reorder" in account and f"/ar/orders/{order.number}/invoice.pdf" in account
    answer = client.post(f"/ar/orders/{order.number}/reorder", follow=True)
    assert answer.redirect_chain[-1][0] == "/ar/cart"
    page = answer.content.decode()
    assert "أُضيف إلى سلتك: Pure Black" in page and "لم يعد متوفرًا: Old Blend" in page
    client.logout()
    assert client.post(f"/orders/{order.number}/reorder").status_code == 404
