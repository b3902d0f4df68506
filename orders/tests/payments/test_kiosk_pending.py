"""Kiosk payments (Aman, Masary): Paymob first reports them pending with the reference the customer pays
cash with at an outlet, often hours later; their order is held longer than a card's 30 minutes, so the
cash never lands on a cancelled order (Paymob cannot refund a kiosk payment)."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from orders.checkout import KIOSK_ORDERS_HELD_MAX
from orders.models import Order, OrderStatusChange, Payment
from orders.payments.paymob import hmac_sign
from orders.tasks import orders_expire_unpaid
from orders.tests.payments.paymob_messages import paymob_callback, paymob_transaction
from orders.tracking import tracking_path
from shop.store_settings import store_settings_get, store_settings_update

pytestmark = pytest.mark.django_db

KIOSK = 4097560


@pytest.fixture(autouse=True)
def _kiosk_integration(settings, fake_paymob):
    settings.PAYMOB_INTEGRATION_IDS = ["4097558", str(KIOSK)]


def _card_order(make_product, checkout_body):
    """A card order of a new shopper, awaiting its payment: its Payment and product (2 taken of 10)."""
    shopper = APIClient()
    tea = make_product(stock=10)
    shopper.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, format="json")
    response = shopper.post("/api/payment/create-intention", checkout_body(paymentMethod="card"), format="json")
    assert response.status_code == 201, response.content
    return Payment.objects.get(payment_id=response.json()["paymentId"]), tea


def _kiosk_transaction(payment, *, tx_id=880001, pending=True, success=False):
    """Paymob's kiosk transaction for `payment`: pending with its bill reference, then paid."""
    return paymob_transaction(
        payment, tx_id=tx_id, pending=pending, success=success, is_3d_secure=False, integration_id=KIOSK,
        source_data={"pan": "", "type": "aggregator", "sub_type": "AGGREGATOR"},
        data={"bill_reference": 61203455, "message": "Pending"})


def _callback(obj):
    return paymob_callback(Client(), obj)


def _placed_ago(payment, age):
    Order.objects.filter(pk=payment.order_id).update(created_at=timezone.now() - age)


def _expiry_note(payment):
    return OrderStatusChange.objects.get(order_id=payment.order_id, to_status="cancelled").note


def test_an_order_whose_kiosk_payment_is_pending_outlives_the_30_minutes_and_expires_after_24_hours(
        make_product, checkout_body):
    # given two card orders unpaid for 31 minutes, one of them paid by kiosk: reported pending with its reference
    kiosk, kiosk_tea = _card_order(make_product, checkout_body)
    card, card_tea = _card_order(make_product, checkout_body)
    assert _callback(_kiosk_transaction(kiosk)).status_code == 200
    _placed_ago(kiosk, timedelta(minutes=31))
    _placed_ago(card, timedelta(minutes=31))
    # when the expiry job runs
    assert orders_expire_unpaid() == 1
    # then only the order without a pending report expired, its stock back; the kiosk order keeps its stock
    kiosk_tea.refresh_from_db()
    card_tea.refresh_from_db()
    assert Order.objects.get(pk=card.order_id).status == "cancelled" and card_tea.stock == 10
    assert _expiry_note(card) == "Unpaid for 30 minutes"
    assert Order.objects.get(pk=kiosk.order_id).status == "pending" and kiosk_tea.stock == 8
    # when it is still unpaid just under 24 hours after it was placed, it is kept
    _placed_ago(kiosk, timedelta(hours=23, minutes=59))
    assert orders_expire_unpaid() == 0
    kiosk_tea.refresh_from_db()
    assert kiosk_tea.stock == 8
    # when 24 hours have passed, it expires and its stock comes back, the note saying which lifetime applied
    _placed_ago(kiosk, timedelta(hours=24, minutes=1))
    assert orders_expire_unpaid() == 1
    kiosk_tea.refresh_from_db()
    assert Order.objects.get(pk=kiosk.order_id).status == "cancelled" and kiosk_tea.stock == 10
    assert _expiry_note(kiosk) == "Unpaid for 24 hours, its payment reported pending (kiosk)"


def test_the_cash_paid_hours_later_at_the_kiosk_lands_on_a_live_order(make_product, checkout_body):
    # given a kiosk payment reported pending, and the expiry job run five hours on
    payment, tea = _card_order(make_product, checkout_body)
    _callback(_kiosk_transaction(payment))
    _placed_ago(payment, timedelta(hours=5))
    assert orders_expire_unpaid() == 0
    # when the customer pays at the outlet
    assert _callback(_kiosk_transaction(payment, pending=False, success=True)).status_code == 200
    # then the order is paid and on its way, not cancelled and flagged
    order = Order.objects.get()
    assert (order.status, order.payment_status, order.needs_attention) == ("processing", "paid", False)
    tea.refresh_from_db()
    assert tea.stock == 8


def test_the_longer_lifetime_is_the_setting(make_product, checkout_body, settings):
    # given a shop that holds pending kiosk payments for 2 hours
    settings.PAYMOB_PENDING_HOURS = 2
    payment, tea = _card_order(make_product, checkout_body)
    _callback(_kiosk_transaction(payment))
    _placed_ago(payment, timedelta(hours=1, minutes=59))
    assert orders_expire_unpaid() == 0
    # when
    _placed_ago(payment, timedelta(hours=2, minutes=1))
    # then
    assert orders_expire_unpaid() == 1
    assert _expiry_note(payment) == "Unpaid for 2 hours, its payment reported pending (kiosk)"


def test_a_pending_payment_the_expiry_job_learns_of_from_paymob_holds_its_order(
        make_product, checkout_body, fake_paymob):
    # given a card order unpaid for 31 minutes whose pending callback was lost; Paymob's inquiry knows it
    payment, tea = _card_order(make_product, checkout_body)
    _placed_ago(payment, timedelta(minutes=31))
    fake_paymob.inquiry = _kiosk_transaction(payment)
    # when the expiry job runs (it asks Paymob first)
    assert orders_expire_unpaid() == 0
    # then the pending report is recorded and the order is held, its stock still taken
    assert Order.objects.get().status == "pending"
    assert Payment.objects.get().events.get().kind == "inquiry-pending"
    tea.refresh_from_db()
    assert tea.stock == 8



def test_the_order_page_shows_the_kiosk_reference_while_the_payment_is_pending(make_product, checkout_body):
    # given a card order, its tracking page and API before any report
    payment, _tea = _card_order(make_product, checkout_body)
    order = Order.objects.get()
    token = tracking_path(order, "en").rsplit("/", 1)[1]
    assert 'data-testid="track-kiosk"' not in Client().get(tracking_path(order, "en")).content.decode()
    # when Paymob reports its kiosk payment pending
    _callback(_kiosk_transaction(payment))
    # then the page says where and with what to pay, in English and Arabic, and the API names the reference
    english = Client().get(tracking_path(order, "en")).content.decode()
    arabic = Client().get(tracking_path(order, "ar")).content.decode()
    assert "Pay at any Aman or Masary outlet with reference 61203455" in english
    assert "ادفع في أي منفذ أمان أو مصاري بالرقم المرجعي 61203455" in arabic
    assert Client().get(f"/api/orders/track/{token}").json()["kioskReference"] == "61203455"
    # and once it is paid there is nothing left to pay
    _callback(_kiosk_transaction(payment, pending=False, success=True))
    assert 'data-testid="track-kiosk"' not in Client().get(tracking_path(order, "en")).content.decode()
    assert Client().get(f"/api/orders/track/{token}").json()["kioskReference"] == ""


def test_a_reference_that_is_not_a_number_is_not_shown(make_product, checkout_body):
    # given a pending report whose (unsigned) reference is not the number Paymob gives
    payment, _tea = _card_order(make_product, checkout_body)
    report = _kiosk_transaction(payment)
    report["data"]["bill_reference"] = "<b>call 0100</b>"
    _callback(report)
    # then the page shows no reference
    page = Client().get(tracking_path(Order.objects.get(), "en")).content.decode()
    assert 'data-testid="track-kiosk"' not in page and "call 0100" not in page


def _kiosk_redirect(payment, *, reference=True):
    """Paymob's signed redirect back to the return page for `payment`'s kiosk transaction, reported pending
    (flat parameters; the reference rides along unsigned)."""
    obj = _kiosk_transaction(payment)
    flat = {
        "id": str(obj["id"]), "pending": "true", "amount_cents": str(obj["amount_cents"]), "success": "false",
        "is_auth": "false", "is_capture": "false", "is_standalone_payment": "true", "is_voided": "false",
        "is_refunded": "false", "is_3d_secure": "false", "integration_id": str(KIOSK),
        "has_parent_transaction": "false", "order": str(obj["order"]["id"]), "created_at": obj["created_at"],
        "currency": "EGP", "source_data.pan": "", "source_data.type": "aggregator",
        "source_data.sub_type": "AGGREGATOR", "error_occured": "false", "owner": "302852",
        "merchant_order_id": payment.order.number,
    }
    flat["hmac"] = hmac_sign(flat, "test_hmac_secret")
    if reference:
        flat["data.bill_reference"] = "61203455"
    return flat


def _shopper_with_card_order(make_product, checkout_body):
    shopper = Client()
    tea = make_product(stock=10)
    shopper.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, content_type="application/json")
    shopper.post("/api/payment/create-intention", checkout_body(paymentMethod="card"), content_type="application/json")
    return shopper, Payment.objects.get()


@pytest.mark.parametrize("prefix, words", [
    ("", ("Waiting for your cash payment", "Pay at any Aman or Masary outlet with reference 61203455",
          "Your order is held for 24 hours from when you placed it; unpaid by then, it is cancelled.")),
    ("/ar", ("بانتظار دفعك النقدي", "ادفع في أي منفذ أمان أو مصاري بالرقم المرجعي 61203455",
             "نحتفظ بطلبك 24 ساعة من وقت تقديمه؛ وإن لم يُدفع خلالها يُلغى.")),
], ids=["en", "ar"])
def test_the_kiosk_payer_back_from_paymob_is_told_the_order_waits_for_their_cash(
        make_product, checkout_body, prefix, words):
    # given a card order whose payer chose Aman or Masary, and Paymob's signed redirect saying it is pending
    shopper, payment = _shopper_with_card_order(make_product, checkout_body)
    params = _kiosk_redirect(payment)
    language = "ar" if prefix else "en"
    # when the browser comes back to the return page and it asks the server
    page = shopper.get(f"{prefix}/payment/success", params)
    verify = shopper.get(f"/api/payment/verify/{payment.payment_id}", params, HTTP_ACCEPT_LANGUAGE=language)
    # then it is told the order waits for the cash: with what to pay, how long it is held, its own page
    assert page.status_code == 200 and payment.payment_id in page.content.decode()
    body = verify.json()
    assert (body["confirmed"], body["status"], body["orderCancelled"]) == (False, "awaiting", False)
    cash = body["awaitingCash"]
    assert (cash["title"], cash["text"], cash["hold"]) == words
    order = Order.objects.get()
    assert cash["track"] == tracking_path(order, language)
    # and nothing was cancelled or failed: the order and its payment still await the cash, its stock held
    assert (order.status, order.payment_status) == ("pending", "awaiting")
    assert Payment.objects.get().status == "awaiting" and Payment.objects.get().events.get().kind == "redirect-pending"
    # when the page asks again (it polls), the same answer, the report recorded once
    again = shopper.get(f"/api/payment/verify/{payment.payment_id}", params, HTTP_ACCEPT_LANGUAGE=language).json()
    assert again["awaitingCash"] == cash and Payment.objects.get().events.count() == 1


def test_the_kiosk_payer_in_another_browser_gets_the_tracking_form_and_a_reference_paymob_left_out_is_not_invented(
        make_product, checkout_body, settings):
    # given a shop holding kiosk orders 2 hours, and a redirect that carries no reference
    settings.PAYMOB_PENDING_HOURS = 2
    _shopper, payment = _shopper_with_card_order(make_product, checkout_body)
    # when the payer comes back in a browser without the shop's session
    body = Client().get(f"/api/payment/verify/{payment.payment_id}", _kiosk_redirect(payment, reference=False)).json()
    # then they are told to pay with the reference they were given, how long, and where to track it
    assert "order" not in body
    assert body["awaitingCash"] == {
        "title": "Waiting for your cash payment",
        "text": "Pay at any Aman or Masary outlet with the reference Paymob gave you.",
        "hold": "Your order is held for 2 hours from when you placed it; unpaid by then, it is cancelled.",
        "track": "/track"}


def test_a_kiosk_order_paid_at_the_outlet_is_not_said_to_wait(make_product, checkout_body):
    # given a kiosk payment reported pending, then paid at the outlet
    shopper, payment = _shopper_with_card_order(make_product, checkout_body)
    _callback(_kiosk_transaction(payment))
    assert "awaitingCash" in shopper.get(f"/api/payment/verify/{payment.payment_id}").json()
    _callback(_kiosk_transaction(payment, pending=False, success=True))
    # when the return page asks
    body = shopper.get(f"/api/payment/verify/{payment.payment_id}").json()
    # then it is confirmed, not waiting
    assert body["confirmed"] is True and "awaitingCash" not in body


INTENTION = "/api/payment/create-intention"


def _order_again(shopper, tea, checkout_body, *, language="en"):
    shopper.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, content_type="application/json")
    return shopper.post(INTENTION, checkout_body(paymentMethod="card"), content_type="application/json",
                        HTTP_ACCEPT_LANGUAGE=language)


def test_an_order_awaiting_cash_at_a_kiosk_does_not_hold_back_the_shoppers_next_order(make_product, checkout_body):
    # given a shop that allows one unpaid card order, and a shopper whose card order awaits their cash at an
    # Aman outlet (held 24 hours, not the 30 minutes of an abandoned card attempt)
    store_settings_update(max_unpaid_orders=1)
    shopper, payment = _shopper_with_card_order(make_product, checkout_body)
    assert _callback(_kiosk_transaction(payment)).status_code == 200
    # when they order again
    response = _order_again(shopper, make_product(stock=10), checkout_body)
    # then it is placed
    assert response.status_code == 201, response.content
    # and a second card attempt left unpaid still counts toward the card limit
    refused = _order_again(shopper, make_product(stock=10), checkout_body)
    assert refused.status_code == 429 and "30 minutes" in refused.json()["message"]


@pytest.mark.parametrize("language, words", [
    ("en", ("Aman or Masary", "24 hours")), ("ar", ("أمان أو مصاري", "24 ساعة"))])
def test_orders_awaiting_cash_at_a_kiosk_have_their_own_cap(make_product, checkout_body, language, words):
    # given a shopper with as many kiosk orders awaiting cash as one visitor may hold, each from a new session
    # on one address (a bot without cookies), under a card limit they do not reach
    for _ in range(KIOSK_ORDERS_HELD_MAX):
        payment, _tea = _card_order(make_product, checkout_body)
        assert _callback(_kiosk_transaction(payment, tx_id=880001 + payment.pk)).status_code == 200
    assert store_settings_get().max_unpaid_orders > 0
    # when one more order is placed from that address
    response = _order_again(Client(), make_product(stock=10), checkout_body, language=language)
    # then it is refused, saying why and what to do, in the shopper's language
    assert response.status_code == 429
    body = response.json()
    assert all(word in body["message"] for word in words) and "30" not in body["message"]
    assert Order.objects.count() == KIOSK_ORDERS_HELD_MAX
    # and once one of them is paid at the outlet, the next order is placed
    paid = Payment.objects.order_by("pk").first()
    assert _callback(_kiosk_transaction(paid, tx_id=880001 + paid.pk, pending=False, success=True)).status_code == 200
    assert _order_again(Client(), make_product(stock=10), checkout_body).status_code == 201


def _kiosk_shopper(make_product, checkout_body, fake_paymob):
    """A shopper whose card order of their cart (2 of 10 packs) awaits their cash at an Aman outlet, Paymob
    answering that it is still pending when asked."""
    shopper, payment = _shopper_with_card_order(make_product, checkout_body)
    assert _callback(_kiosk_transaction(payment)).status_code == 200
    fake_paymob.inquiry = _kiosk_transaction(payment)
    return shopper, payment


def _pay_on_delivery(shopper, checkout_body, *, language="en"):
    return shopper.post(INTENTION, checkout_body(paymentMethod="cod"), content_type="application/json",
                        HTTP_ACCEPT_LANGUAGE=language)


@pytest.mark.parametrize("method", ["cod", "card"])
@pytest.mark.parametrize("language, words", [
    ("en", "is waiting for your cash at an Aman or Masary outlet (reference 61203455)"),
    ("ar", "بانتظار دفعك النقدي في منفذ أمان أو مصاري (الرقم المرجعي 61203455)")])
def test_another_order_of_the_cart_does_not_cancel_the_order_awaiting_cash_at_a_kiosk(
        make_product, checkout_body, fake_paymob, language, words, method):
    # given a shopper whose card order awaits their cash at a kiosk, its reference in their hands (placed an
    # hour ago: past the minutes in which the same card checkout gets its own Paymob page back)
    shopper, payment = _kiosk_shopper(make_product, checkout_body, fake_paymob)
    _placed_ago(payment, timedelta(hours=1))
    # when they choose to pay the same cart on delivery instead ("Pay on delivery instead"), or by card again
    response = shopper.post(INTENTION, checkout_body(paymentMethod=method), content_type="application/json",
                            HTTP_ACCEPT_LANGUAGE=language)
    # then nothing is placed and nothing cancelled: they are told which order awaits their cash, with what
    assert response.status_code == 409, response.content
    body = response.json()
    assert body["field"] == "paymentMethod" and words in body["message"] and payment.order.number in body["message"]
    order = Order.objects.get()
    assert (order.status, order.payment_status) == ("pending", "awaiting")
    order.items.get().product.refresh_from_db()
    assert order.items.get().product.stock == 8
    # and the cash paid at the outlet later lands on a live order
    assert _callback(_kiosk_transaction(payment, pending=False, success=True)).status_code == 200
    order.refresh_from_db()
    assert (order.status, order.payment_status, order.needs_attention) == ("processing", "paid", False)


@pytest.mark.parametrize("prefix, words", [
    ("", ("is waiting for your cash payment.", "Pay at any Aman or Masary outlet with reference 61203455",
          "Cancel this order")),
    ("/ar", ("بانتظار دفعك النقدي.", "ادفع في أي منفذ أمان أو مصاري بالرقم المرجعي 61203455", "ألغِ هذا الطلب")),
], ids=["en", "ar"])
def test_the_checkout_names_the_order_awaiting_cash_and_the_shopper_may_cancel_it_to_pay_on_delivery(
        make_product, checkout_body, fake_paymob, prefix, words):
    # given a shopper whose card order awaits their cash at a kiosk
    from shop.models import OutboundEmail

    shopper, payment = _kiosk_shopper(make_product, checkout_body, fake_paymob)
    order = payment.order
    # when they open "Pay on delivery instead"
    page = shopper.get(f"{prefix}/checkout?pay=cod").content.decode()
    # then the page names that order, its reference and its page, and offers to cancel it
    assert 'data-testid="checkout-kiosk"' in page and order.number in page
    assert all(word in page for word in words)
    assert tracking_path(order, "ar" if prefix else "en") in page
    # when they cancel it
    assert '<input type="hidden" name="pay" value="cod">' in page
    response = shopper.post(f"{prefix}/checkout/kiosk-cancel", {"order": order.number, "pay": "cod"})
    # then it is cancelled at their word, its stock back at once, without an e-mail, and they are back at
    # the checkout to pay on delivery, told not to pay the reference now
    assert response.status_code == 302 and response["Location"] == f"{prefix}/checkout?pay=cod"
    order.refresh_from_db()
    assert order.status == "cancelled"
    assert order.status_changes.filter(to_status="cancelled").get().note == (
        "Cancelled by its customer at checkout, to pay another way than at the kiosk")
    tea = order.items.get().product
    tea.refresh_from_db()
    assert tea.stock == 10
    assert not OutboundEmail.objects.filter(subject__contains=order.number).exists()
    after = shopper.get(response["Location"]).content.decode()
    assert 'data-testid="checkout-kiosk"' not in after and order.number in after
    # and the cash-on-delivery order of the same cart is placed
    placed = _pay_on_delivery(shopper, checkout_body)
    assert placed.status_code == 201, placed.content
    tea.refresh_from_db()
    assert tea.stock == 8


def test_nobody_else_can_cancel_an_order_awaiting_cash_at_a_kiosk(make_product, checkout_body, fake_paymob):
    # given a shopper's order awaiting their cash at a kiosk
    _shopper, payment = _kiosk_shopper(make_product, checkout_body, fake_paymob)
    # when another visitor, holding its number, asks to cancel it
    response = Client().post("/checkout/kiosk-cancel", {"order": payment.order.number})
    # then it is not found, and the order still awaits the cash
    assert response.status_code == 404
    assert Order.objects.get().status == "pending"


def test_a_kiosk_order_paid_at_the_outlet_before_its_cancel_is_kept(make_product, checkout_body, fake_paymob):
    # given a shopper's order awaiting their cash at a kiosk, paid there, its callback not yet arrived
    shopper, payment = _kiosk_shopper(make_product, checkout_body, fake_paymob)
    fake_paymob.inquiry = _kiosk_transaction(payment, pending=False, success=True)
    # when they ask to cancel it
    response = shopper.post("/checkout/kiosk-cancel", {"order": payment.order.number})
    # then Paymob was asked first: the order is paid and on its way, not cancelled and flagged
    assert response.status_code == 302
    order = Order.objects.get()
    assert (order.status, order.payment_status, order.needs_attention) == ("processing", "paid", False)
    assert "has been paid, so it was not cancelled" in shopper.get(response["Location"]).content.decode()


@pytest.mark.parametrize("cancelled_by", ["expiry", "shopper"])
def test_a_kiosk_reference_taken_after_its_order_was_cancelled_is_flagged_for_staff_before_it_is_paid(
        make_product, checkout_body, fake_paymob, manager, client, cancelled_by):
    # given a card order cancelled unpaid (expired after 30 minutes, or cancelled by its shopper to pay on
    # delivery), its Paymob page still open in a tab
    from backoffice.models import AuditEntry
    from shop.models import OutboundEmail

    shopper, payment = _shopper_with_card_order(make_product, checkout_body)
    if cancelled_by == "expiry":
        _placed_ago(payment, timedelta(minutes=31))
        assert orders_expire_unpaid() == 1
    else:
        _callback(_kiosk_transaction(payment, tx_id=880000))
        fake_paymob.inquiry = _kiosk_transaction(payment, tx_id=880000)
        assert shopper.post("/checkout/kiosk-cancel", {"order": payment.order.number}).status_code == 302
    order = Order.objects.get()
    assert order.status == "cancelled" and not order.needs_attention
    # when the shopper takes a kiosk reference on that page: Paymob reports it pending
    assert _callback(_kiosk_transaction(payment)).status_code == 200
    # then staff are told while there is time to restore the order or warn the customer: flagged, audited, e-mailed
    order.refresh_from_db()
    assert (order.needs_attention, order.attention_reasons) == (True, ["pending_after_cancel"])
    assert AuditEntry.objects.filter(action="order.pending_after_cancel").count() == 1
    mails = OutboundEmail.objects.filter(subject__contains=f"order {order.number} got a kiosk reference")
    assert mails.count() == 1 and "Paymob cannot refund it" in mails.get().text
    # and the same report again changes nothing
    assert _callback(_kiosk_transaction(payment)).status_code == 200
    assert AuditEntry.objects.filter(action="order.pending_after_cancel").count() == 1
    # when staff restore it from its page, the flag is settled and the order awaits the cash again, its stock taken
    client.force_login(manager)
    moved = client.put(f"/api/admin/orders/{order.pk}/status", {"status": "pending"}, content_type="application/json")
    assert moved.status_code == 200, moved.content
    order.refresh_from_db()
    assert (order.status, order.needs_attention) == ("pending", False)
    tea = order.items.get().product
    tea.refresh_from_db()
    assert tea.stock == 8


def _declined_card(payment, *, tx_id):
    """Paymob's report of a card declined on `payment`'s hosted page."""
    return {**_kiosk_transaction(payment, tx_id=tx_id, pending=False, success=False),
            "integration_id": 4097558, "source_data": {"pan": "2346", "type": "card", "sub_type": "MasterCard"},
            "data": {"message": "Do not honour"}}


def test_a_card_declined_on_the_page_that_gave_a_kiosk_reference_does_not_cancel_the_order(
        make_product, checkout_body):
    # given a card order awaiting the shopper's cash at a kiosk, its reference in their hands
    payment, tea = _card_order(make_product, checkout_body)
    assert _callback(_kiosk_transaction(payment)).status_code == 200
    # when, on the same Paymob page, they try a card as well and it is declined
    assert _callback(_declined_card(payment, tx_id=880002)).status_code == 200
    # then the order still awaits the cash of that reference, its stock held, the decline in its history
    order = Order.objects.get()
    assert (order.status, order.payment_status) == ("pending", "awaiting")
    assert Payment.objects.get().status == "awaiting"
    tea.refresh_from_db()
    assert tea.stock == 8
    assert "Payment declined (880002)" in order.status_changes.last().note
    # and the cash paid at the outlet lands on a live order
    assert _callback(_kiosk_transaction(payment, pending=False, success=True)).status_code == 200
    order.refresh_from_db()
    assert (order.status, order.payment_status, order.needs_attention) == ("processing", "paid", False)


def test_the_kiosk_transaction_itself_failing_cancels_the_order(make_product, checkout_body):
    # given a card order awaiting the shopper's cash at a kiosk
    payment, tea = _card_order(make_product, checkout_body)
    assert _callback(_kiosk_transaction(payment)).status_code == 200
    # when Paymob reports that kiosk transaction failed (its reference expired unpaid)
    assert _callback(_kiosk_transaction(payment, pending=False, success=False)).status_code == 200
    # then the order is cancelled and its stock comes back
    order = Order.objects.get()
    assert (order.status, order.payment_status) == ("cancelled", "failed")
    tea.refresh_from_db()
    assert tea.stock == 10


@pytest.mark.parametrize("language, words, not_words", [
    ("en", "it was not paid at an Aman or Masary outlet in time. Please do not pay its reference now.",
     "If you paid by card"),
    ("ar", "لم يُدفع في منفذ أمان أو مصاري في الوقت المحدد. يُرجى عدم الدفع برقمه المرجعي الآن.", "بطاقة")])
def test_a_kiosk_order_cancelled_unpaid_tells_its_customer_not_to_pay_the_reference(
        make_product, checkout_body, language, words, not_words):
    # given an order awaiting its customer's cash at a kiosk, placed in their language
    from shop.models import OutboundEmail

    payment, _tea = _card_order(make_product, checkout_body)
    Order.objects.filter(pk=payment.order_id).update(language=language)
    _callback(_kiosk_transaction(payment))
    # when it expires unpaid after 24 hours
    _placed_ago(payment, timedelta(hours=24, minutes=1))
    assert orders_expire_unpaid() == 1
    # then the cancellation e-mail says not to pay its reference now (Paymob cannot refund it), not a card refund
    mail = OutboundEmail.objects.filter(to="mona@example.com").order_by("-pk").first()
    assert words in mail.text and not_words not in mail.text


@pytest.mark.parametrize("prefix, words", [
    ("", ("is waiting for your cash payment.", "Pay at any Aman or Masary outlet with reference 61203455",
          "It is for other items than your cart now holds. Ordering your cart does not cancel it: pay its "
          "reference only if you still want those items, or cancel it.", "Cancel this order")),
    ("/ar", ("بانتظار دفعك النقدي.", "ادفع في أي منفذ أمان أو مصاري بالرقم المرجعي 61203455",
             "هذا الطلب لمنتجات غير التي في سلتك الآن، وطلب سلتك لا يلغيه: ادفع رقمه المرجعي فقط إن كنت لا تزال "
             "تريد تلك المنتجات، أو ألغِه.", "ألغِ هذا الطلب")),
], ids=["en", "ar"])
def test_the_checkout_names_an_order_awaiting_cash_for_another_cart_so_it_is_not_paid_twice_unawares(
        make_product, checkout_body, fake_paymob, prefix, words):
    # given a shopper whose card order awaits their cash at a kiosk, who then changed their cart
    shopper, payment = _kiosk_shopper(make_product, checkout_body, fake_paymob)
    order = payment.order
    green = make_product(stock=10)
    shopper.post("/api/cart/items", {"productId": green.pk, "quantity": 1}, content_type="application/json")
    # when they open the checkout of that other cart
    page = shopper.get(f"{prefix}/checkout").content.decode()
    # then the page names the order awaiting their cash, its reference and its page, says ordering this cart
    # leaves it open (not the same cart's "cancel it first"), and offers to cancel it
    assert 'data-testid="checkout-kiosk"' in page and order.number in page
    assert all(word in page for word in words), page
    assert tracking_path(order, "ar" if prefix else "en") in page
    assert "To pay another way, cancel it first" not in page and "لتدفع بطريقة أخرى" not in page
    # and ordering the other cart is not refused, nor does it cancel the order awaiting the cash
    placed = shopper.post(INTENTION, checkout_body(paymentMethod="card"), content_type="application/json")
    assert placed.status_code == 201, placed.content
    order.refresh_from_db()
    assert (order.status, order.payment_status) == ("pending", "awaiting")
    # and they may still cancel it from the checkout, at their word
    response = shopper.post(f"{prefix}/checkout/kiosk-cancel", {"order": order.number})
    assert response.status_code == 302
    order.refresh_from_db()
    assert order.status == "cancelled"


def test_a_kiosk_order_staff_restore_a_day_after_it_was_placed_is_held_afresh_from_the_restore(
        make_product, checkout_body, fake_paymob, manager, client):
    import time_machine

    # given a card order expired unpaid after 30 minutes, then a kiosk reference taken on its Paymob page
    # (flagged for staff), Paymob answering that the cash is still to be paid
    placed = timezone.now()
    _shopper, payment = _shopper_with_card_order(make_product, checkout_body)
    with time_machine.travel(placed + timedelta(minutes=31)):
        assert orders_expire_unpaid() == 1
        assert _callback(_kiosk_transaction(payment)).status_code == 200
    fake_paymob.inquiry = _kiosk_transaction(payment)
    order = Order.objects.get()
    assert (order.status, order.attention_reasons) == ("cancelled", ["pending_after_cancel"])
    # when staff restore it the next day, more than 24 hours after it was placed
    with time_machine.travel(placed + timedelta(hours=30)):
        client.force_login(manager)  # signed in that day (a staff session does not last a day idle)
        moved = client.put(f"/api/admin/orders/{order.pk}/status", {"status": "pending"},
                           content_type="application/json")
        assert moved.status_code == 200, moved.content
        # then the next expiry run keeps it: its customer has the day from the restore to pay the reference
        assert orders_expire_unpaid() == 0
    with time_machine.travel(placed + timedelta(hours=30 + 23)):
        assert orders_expire_unpaid() == 0
    order.refresh_from_db()
    assert (order.status, order.payment_status) == ("pending", "awaiting")
    # and unpaid 24 hours after the restore, it expires like any kiosk order
    with time_machine.travel(placed + timedelta(hours=30 + 24, minutes=1)):
        assert orders_expire_unpaid() == 1
    last = OrderStatusChange.objects.filter(order=order, to_status="cancelled").order_by("-pk").first()
    assert last is not None and last.note == "Unpaid for 24 hours, its payment reported pending (kiosk)"


@pytest.mark.parametrize("language, hold", [
    ("en", "Your order was restored and is held until Wed 2\u00a0Dec, 18:00; unpaid by then, it is cancelled."),
    ("ar", "أُعيد طلبك ونحتفظ به حتى الأربعاء 2\u00a0ديسمبر، 18:00؛ وإن لم يُدفع بحلول ذلك يُلغى."),
])
def test_the_kiosk_payer_of_an_order_staff_restored_is_told_until_when_it_is_held_in_the_stores_time(
        make_product, checkout_body, fake_paymob, manager, client, language, hold):
    import time_machine

    # given a shop in Cairo (UTC+2), and a card order placed Mon 30 Nov 10:00 UTC that expired unpaid, a kiosk
    # reference then taken on its Paymob page, and staff restoring it on Tue 1 Dec 16:00 UTC (30 hours later)
    store_settings_update(timezone="Africa/Cairo")
    placed = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
    with time_machine.travel(placed, tick=False):
        shopper, payment = _shopper_with_card_order(make_product, checkout_body)
    with time_machine.travel(placed + timedelta(minutes=31), tick=False):
        assert orders_expire_unpaid() == 1
        assert _callback(_kiosk_transaction(payment)).status_code == 200
    fake_paymob.inquiry = _kiosk_transaction(payment)
    order = Order.objects.get()
    with time_machine.travel(placed + timedelta(hours=30), tick=False):
        client.force_login(manager)
        moved = client.put(f"/api/admin/orders/{order.pk}/status", {"status": "pending"},
                           content_type="application/json")
        assert moved.status_code == 200, moved.content
    # when the payer comes back to the return page an hour after the restore
    with time_machine.travel(placed + timedelta(hours=31), tick=False):
        body = shopper.get(f"/api/payment/verify/{payment.payment_id}", _kiosk_redirect(payment),
                           HTTP_ACCEPT_LANGUAGE=language).json()
    # then they are told it is held until a day after the restore (not from when they placed it), in Cairo's time
    assert body["awaitingCash"]["hold"] == hold
