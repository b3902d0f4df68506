"""Issue 13: e-mails in the recipient's language, right-to-left and isolated for Arabic."""

import pytest
from django.core import mail

from orders.emails import order_confirmation_send, order_status_send
from shop.models import OutboundEmail
from tests.factories import make_order, make_product
from tests.pages import without_random_parts

pytestmark = pytest.mark.django_db

LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"


def _order(language):
    tea = make_product(title="Kericho Gold 250 g", price="150.00")
    order = make_order(lines=[(tea, 2)], language=language, email="mona@example.com", first_name="Mona",
                       last_name="Adel", city="Dokki", state="Giza")
    OutboundEmail.objects.all().delete()  # the confirmation its payment queued: these tests send their own
    return order


def test_an_arabic_order_confirmation_is_arabic_rtl_and_isolates_typed_text(django_capture_on_commit_callbacks):
    order = _order("ar")
    with django_capture_on_commit_callbacks(execute=True):
        order_confirmation_send(order=order)
    email = OutboundEmail.objects.get()
    assert email.language == "ar" and 'dir="rtl"' in email.html and 'lang="ar"' in email.html
    assert f"{LRI}{order.number}{PDI}" in email.subject  # the number stays whole inside Arabic
    assert f"{FSI}Mona{PDI}" in email.text and f"{FSI}Kericho Gold 250 g{PDI}" in email.text
    assert "الجيزة" in email.text and "مصر" in email.text  # governorate and country by name
    text = without_random_parts(email.text)  # the signed tracking link could spell either
    assert "Giza" not in text and "EGY" not in text
    assert "شلن" not in email.text and "ج.م" in email.text


def test_an_english_order_confirmation_stays_english_and_ltr(django_capture_on_commit_callbacks):
    order = _order("en")
    with django_capture_on_commit_callbacks(execute=True):
        order_confirmation_send(order=order)
    email = OutboundEmail.objects.get()
    assert 'dir="ltr"' in email.html and "Giza" in email.text and "Egypt" in email.text
    assert email.subject.startswith(f"Your order {order.number}")


def test_a_status_change_goes_out_in_the_orders_language_not_the_staff_members(client, owner,
                                                                                django_capture_on_commit_callbacks):
    order = _order("ar")
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        order_status_send(order=order, status="shipped")
    sent = mail.outbox[-1]
    assert "طلبك" in sent.subject and sent.alternatives and 'dir="rtl"' in sent.alternatives[0][0]


@pytest.mark.parametrize(("language", "line"), [
    ("en", f"{FSI}1 Nile St{PDI}, Building {FSI}4{PDI}, Floor {FSI}3{PDI}, Apartment {FSI}12{PDI}"),
    ("ar", f"{FSI}1 Nile St{PDI}، مبنى {FSI}4{PDI}، الطابق {FSI}3{PDI}، شقة {FSI}12{PDI}"),
])
def test_the_confirmation_names_building_floor_and_apartment_as_the_invoice_does(
        django_capture_on_commit_callbacks, language, line):
    # given an order delivered to a flat: building 4, floor 3, apartment 12
    order = _order(language)
    order.floor, order.apartment = "3", "12"
    order.save(update_fields=["floor", "apartment"])
    # when its confirmation is sent
    with django_capture_on_commit_callbacks(execute=True):
        order_confirmation_send(order=order)
    # then the address line names each part in the order's language, joined by its comma
    email = OutboundEmail.objects.get()
    assert line in email.text.splitlines(), email.text


def test_the_confirmation_leaves_out_the_parts_of_an_address_that_were_not_given(django_capture_on_commit_callbacks):
    # given an order with a building but no floor or apartment
    order = _order("en")
    # when its confirmation is sent
    with django_capture_on_commit_callbacks(execute=True):
        order_confirmation_send(order=order)
    # then no empty "Floor" or "Apartment" is printed
    text = OutboundEmail.objects.get().text
    assert f"{FSI}1 Nile St{PDI}, Building {FSI}4{PDI}" in text.splitlines()
    assert "Floor" not in text and "Apartment" not in text


def test_a_customer_who_switched_the_shop_to_arabic_gets_the_later_emails_in_arabic(client, alice):
    # given alice signed in on the English shop, then chose Arabic with the language switch
    from accounts.emails import password_reset_email

    alice.language = "en"
    alice.save()
    client.force_login(alice)
    # when
    client.get("/lang/ar/?next=/account")
    alice.refresh_from_db()
    password_reset_email(user=alice, token="t0ken", base_url="https://shop.example")
    # then the mails of her account follow the shop she reads (the reset, a cart reminder, staff changes)
    assert alice.language == "ar"
    assert OutboundEmail.objects.get(to=alice.email).language == "ar"


def test_a_customer_who_orders_in_arabic_gets_the_later_emails_of_the_account_in_arabic(
        client, alice, checkout_body, make_product):
    # given alice, whose account says English, on the Arabic checkout (she came by an Arabic link)
    alice.language = "en"
    alice.save()
    client.force_login(alice)
    tea = make_product(price="100.00")
    client.post("/api/cart/items", {"productId": tea.pk}, content_type="application/json")
    # when
    response = client.post("/api/payment/create-intention", checkout_body(paymentMethod="cod"),
                           content_type="application/json", HTTP_ACCEPT_LANGUAGE="ar")
    # then
    assert response.status_code in (200, 201), response.content
    alice.refresh_from_db()
    assert alice.language == "ar"
