"""Track my order: lookup by number + phone or e-mail, signed links, one answer, rate limit, shipment."""

import re

import pytest
from django.core import mail

from orders.actions import order_set_status
from orders.models import Order
from orders.tracking import tracking_path
from shop.models import OutboundEmail
from shop.outbox import outbox_send_due

pytestmark = pytest.mark.django_db


@pytest.fixture
def order(api, make_product, checkout_body):
    tea = make_product(price="300.00", title="Kericho Gold Breakfast 250 g")
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, format="json")
    assert api.post("/api/payment/create-intention", checkout_body(paymentMethod="cod"),
                    format="json").status_code == 201
    return Order.objects.get()


def test_a_guest_finds_the_order_by_number_and_email_or_phone(order):
    from rest_framework.test import APIClient

    stranger = APIClient()  # another browser: no session, no account
    for contact in ("MONA@example.com", "+20 10 1234 5678", "٠١٠١٢٣٤٥٦٧٨"):
        response = stranger.post("/api/orders/track", {"orderNumber": order.number.lower(), "contact": contact},
                                 format="json")
        assert response.status_code == 200, (contact, response.content)
    body = response.json()
    assert body["number"] == order.number and body["status"] == "processing"
    assert [s["status"] for s in body["history"]] == ["pending", "processing"]
    assert body["items"] == [{"title": "Kericho Gold Breakfast 250 g", "quantity": 2, "unitPrice": "300.00",
                              "lineTotal": "600.00"}]
    assert body["total"] == "650.00" and body["delivery"]["text"].startswith("Arrives ")
    # the address is partly masked
    assert body["address"]["street"] == "12 •••••••" and body["address"]["name"] == "Mona A."
    assert body["address"]["phone"] == "••••••678" and "mona@" not in str(body)
    assert body["url"] == tracking_path(order, "en")


def test_every_wrong_pair_gets_the_same_answer(order, api):
    answers = set()
    for number, contact in ((order.number, "someone@example.com"), (order.number, "01099999999"),
                            ("NHT-000000-000000", "mona@example.com"), ("", ""), (order.number, "12")):
        response = api.post("/api/orders/track", {"orderNumber": number, "contact": contact}, format="json")
        answers.add((response.status_code, response.content))
    assert len(answers) == 1
    status, content = answers.pop()
    assert status == 404 and b"could not find an order" in content


def test_lookups_are_rate_limited(order, api, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "track": "3/hour"}
    for _ in range(3):
        api.post("/api/orders/track", {"orderNumber": order.number, "contact": "x@example.com"}, format="json")
    # even the right pair waits once the limit is reached: nothing to learn by guessing
    response = api.post("/api/orders/track", {"orderNumber": order.number, "contact": "mona@example.com"},
                        format="json")
    assert response.status_code == 429 and response["Retry-After"]
    page = api.post("/track", {"number": order.number, "contact": "mona@example.com"})
    assert page.status_code == 429


def test_the_page_form_redirects_to_the_signed_link_and_refuses_forgeries(order, client):
    response = client.post("/ar/track", {"number": order.number, "contact": "mona@example.com"})
    assert response.status_code == 302 and response["Location"] == tracking_path(order, "ar")
    page = client.get(response["Location"])
    html = page.content.decode()
    assert page.status_code == 200 and order.number in html and "قيد التجهيز" in html
    assert "no-store" in page["Cache-Control"]
    # a wrong pair on the page: the same generic message, no order
    wrong = client.post("/track", {"number": order.number, "contact": "nobody@example.com"})
    assert wrong.status_code == 404 and b"could not find an order" in wrong.content
    # a forged or edited link
    token = tracking_path(order, "en").rsplit("/", 1)[1]
    assert client.get(f"/track/{token[:-2]}xx").status_code == 404
    assert client.get("/track/NHT-261124-ABCDEF").status_code == 404


def test_the_thank_you_page_and_every_order_email_carry_the_link(order, api):
    thanks = api.get(f"/thankyou?order={order.number}").content.decode()
    assert f'href="{tracking_path(order, "en")}"' in thanks
    confirmation = OutboundEmail.objects.get(subject__contains="order")
    assert f"http://testserver{tracking_path(order, 'en')}" in confirmation.text
    assert re.search(r"Arrives \w{3} \d+\s\w{3}", confirmation.text)


def test_staff_add_courier_tracking_number_and_a_note_at_shipped(order, api, owner, client):
    api.force_authenticate(owner)
    response = api.put(f"/api/admin/orders/{order.pk}/status",
                       {"status": "shipped", "trackingNumber": "BOSTA-99812", "courier": "Bosta",
                        "customerNote": "Call before 5 pm"}, format="json")
    assert response.status_code == 200, response.content
    detail = api.get(f"/api/admin/orders/{order.pk}").json()
    assert detail["history"][-1]["courier"] == "Bosta" and detail["history"][-1]["customerNote"] == "Call before 5 pm"
    # the tracking page shows them
    page = client.get(tracking_path(order, "en")).content.decode()
    assert "Bosta" in page and "BOSTA-99812" in page and "Call before 5 pm" in page
    # and the shipping e-mail carries them with the link
    outbox_send_due()
    shipped = [m for m in mail.outbox if "on its way" in m.body][0]
    assert "Courier: \u2068Bosta\u2069" in shipped.body and "Tracking number: \u2066BOSTA-99812\u2069" in shipped.body
    assert "Call before 5 pm" in shipped.body and "/track/" in shipped.body
    # a courier with another status is refused
    response = api.put(f"/api/admin/orders/{order.pk}/status", {"status": "delivered", "courier": "Aramex"},
                       format="json")
    assert response.status_code == 400 and response.json()["field"] == "courier"


def test_the_link_opens_in_the_order_language_in_emails(order):
    order.language = "ar"
    order.save()
    order_set_status(order=order, status="shipped")
    email = OutboundEmail.objects.filter(language="ar").last()
    assert "/ar/track/" in email.text


def test_the_tracking_answer_keeps_its_wire_format(order, api):
    # when the order is tracked through the API
    body = api.post("/api/orders/track", {"orderNumber": order.number, "contact": "mona@example.com"},
                    format="json").json()
    # then every field the page's island and older clients read is there, camelCase, money as text
    assert set(body) == {"number", "status", "statusLabel", "paymentStatus", "paymentLabel", "placedAt", "history",
                         "items", "subtotal", "discount", "couponCode", "shipping", "codFee", "tax",
                         "pricesIncludeTax", "total", "address", "delivery", "shipment", "invoiceUrl",
                         "kioskReference", "url"}
    assert (body["subtotal"], body["discount"], body["shipping"], body["codFee"]) == ("600.00", "0.00", "50.00", "0.00")
    # times are Python's isoformat (UTC offset written out), dates plain ISO days
    assert body["placedAt"] == order.created_at.isoformat() and body["placedAt"].endswith("+00:00")
    assert body["history"][0]["at"].endswith("+00:00") and set(body["history"][0]) == {"status", "label", "at", "day"}
    assert body["delivery"]["earliest"] == order.delivery_min_date.isoformat()
    assert body["shipment"] is None and body["invoiceUrl"].startswith("/orders/")


# The tracking page shows a masked address (README, "Decisions"); the invoice carries the full one, so only
# the customer who owns the order gets it: signed in as its customer, or the session that placed it.

def _stranger():
    from rest_framework.test import APIClient

    return APIClient()  # another browser: no session, no account


def _old_signed_invoice_link(order):
    # the signed invoice link the tracking page used to carry (an HMAC of the number), kept in old browser tabs
    from django.utils.crypto import salted_hmac

    token = salted_hmac("orders.documents.invoice", order.number, algorithm="sha256").hexdigest()[:32]
    return f"/orders/{order.number}/invoice.pdf?t={token}"


def test_someone_holding_only_the_tracking_link_gets_no_invoice(order):
    # given: someone the customer forwarded the tracking link to (or who read it over their shoulder)
    stranger = _stranger()
    # when
    page = stranger.get(tracking_path(order, "en"))
    token = tracking_path(order, "en").rsplit("/", 1)[1]
    answer = stranger.get(f"/api/orders/track/{token}").json()
    # then: the page and its API show the masked address and no invoice link
    html = page.content.decode()
    assert page.status_code == 200 and "12 •••••••" in html
    assert "invoice.pdf" not in html and "data-invoice" not in html and "Nile St" not in html
    assert answer["invoiceUrl"] is None
    # and the PDF, with the full address and phone, does not open for them, not even by an old signed link
    assert stranger.get(f"/orders/{order.number}/invoice.pdf").status_code == 404
    assert stranger.get(_old_signed_invoice_link(order)).status_code == 404


def test_someone_knowing_the_number_and_phone_gets_no_invoice(order):
    # given
    stranger = _stranger()
    # when: they look the order up with its number and the checkout phone
    answer = stranger.post("/api/orders/track", {"orderNumber": order.number, "contact": "01012345678"},
                           format="json").json()
    page = stranger.get(stranger.post("/track", {"number": order.number, "contact": "01012345678"})["Location"])
    # then
    assert answer["invoiceUrl"] is None
    assert "invoice.pdf" not in page.content.decode()
    assert stranger.get(f"/orders/{order.number}/invoice.pdf").status_code == 404


def test_the_session_that_placed_the_order_gets_its_invoice_on_the_thank_you_and_tracking_pages(order, api):
    # given: the guest's own browser, which placed the order
    link = f"/ar/orders/{order.number}/invoice.pdf"
    # when / then: the thank-you page links it
    thanks = api.get("/ar/thankyou").content.decode()
    assert f'href="{link}"' in thanks
    # and so does the tracking page (and its API) in the same browser
    assert f'href="{link}"' in api.get(tracking_path(order, "ar")).content.decode()
    token = tracking_path(order, "en").rsplit("/", 1)[1]
    assert api.get(f"/api/orders/track/{token}").json()["invoiceUrl"] == f"/orders/{order.number}/invoice.pdf"
    # and the PDF opens
    pdf = api.get(link)
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"


def test_the_signed_in_customer_gets_the_invoice_on_any_device(order, alice, client):
    # given: alice's order, and alice signed in on another device (not the session that placed it)
    order.user = alice
    order.save()
    client.force_login(alice)
    # when
    page = client.get(tracking_path(order, "en")).content.decode()
    account = client.get("/account").content.decode()
    # then: the tracking page and her account's order history link the invoice, and it opens
    link = f"/orders/{order.number}/invoice.pdf"
    assert f'href="{link}"' in page and f'href="{link}"' in account
    assert client.get(link).status_code == 200


def test_another_customer_signed_in_gets_no_invoice(order, bob, client):
    client.force_login(bob)
    assert "invoice.pdf" not in client.get(tracking_path(order, "en")).content.decode()
    assert client.get(f"/orders/{order.number}/invoice.pdf").status_code == 404


@pytest.mark.parametrize("street, direction", [("12 شارع التحرير", "rtl"), ("12 Tahrir Street", "ltr")])
def test_the_masked_street_keeps_the_direction_it_was_typed_in(order, client, street, direction):
    # given an order to a street written in Arabic (or English), its words masked on the tracking page
    Order.objects.filter(pk=order.pk).update(street=street)
    # when the page shows it
    html = client.get(tracking_path(order, "ar")).content.decode()
    # then the masked street ("12 ••••••••": no letter left for dir="auto" to go by) reads in the street's own
    # direction: the house number at its start, on the right of an Arabic street, not flipped to the left
    address = re.search(r'data-testid="track-address">(.*?)</p>', html, re.S).group(1)
    assert f'<bdi dir="{direction}">12 ••••••••</bdi>' in address
