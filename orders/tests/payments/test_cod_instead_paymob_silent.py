"""'Pay on delivery instead' while Paymob cannot say whether the card order of the same cart was paid:
the cash-on-delivery order is placed, the card order is kept (not cancelled) for the expiry job to ask
about again, its stock handed to the new order (never held twice), and a card payment that turns out to
have gone through is flagged for staff."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from backoffice.models import AuditEntry
from orders.models import Order, OrderStatus, Payment, PaymentMethod, PaymentStatus
from orders.tasks import orders_expire_unpaid
from orders.tests.payments.paymob_messages import paymob_callback, paymob_transaction
from shop.store_settings import store_settings_update

pytestmark = pytest.mark.django_db

INTENTION = "/api/payment/create-intention"


def _card_order(api, make_product, checkout_body, *, stock=10):
    tea = make_product(price="300.00", stock=stock)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, format="json")
    response = api.post(INTENTION, checkout_body(paymentMethod="card"), format="json")
    assert response.status_code == 201, response.content
    return tea, Payment.objects.get()


def _paymob_silent(fake, settings, how):
    fake.mode = how
    if how == "slow":
        settings.PAYMOB_TIMEOUT = 1
        fake.delay = 2


@pytest.mark.parametrize("how", ["error", "malformed", "slow"])
def test_the_card_order_paymob_cannot_answer_for_is_kept_and_the_cod_order_placed(
        api, make_product, checkout_body, fake_paymob, settings, how):
    # given a card order whose payment did not come back, and Paymob down, slow or answering garbage
    tea, payment = _card_order(api, make_product, checkout_body)
    _paymob_silent(fake_paymob, settings, how)
    # when its shopper pays on delivery instead
    response = api.post(INTENTION, checkout_body(paymentMethod="cod"), format="json")
    # then the cash-on-delivery order is placed, and the card order kept for the expiry job to ask about
    assert response.status_code == 201, response.content
    card = Order.objects.get(pk=payment.order_id)
    assert (card.status, card.payment_status) == (OrderStatus.PENDING, PaymentStatus.AWAITING)
    cod = Order.objects.get(payment_method=PaymentMethod.COD)
    assert cod.status == OrderStatus.PROCESSING
    # the stock is held once: the card order's went to the cash-on-delivery order
    tea.refresh_from_db()
    assert tea.stock == 8 and card.stock_reserved is False and cod.stock_reserved is True
    assert "Paymob could not say whether it was paid" in card.status_changes.last().note


def test_the_last_packs_a_kept_card_order_holds_go_to_the_cod_order(
        api, make_product, checkout_body, fake_paymob, settings):
    # given a card order holding the last two packs, kept (not cancelled) while Paymob cannot answer
    tea, payment = _card_order(api, make_product, checkout_body, stock=2)
    _paymob_silent(fake_paymob, settings, "error")
    # when its shopper pays on delivery instead, the packs go to the cash-on-delivery order, not refused
    response = api.post(INTENTION, checkout_body(paymentMethod="cod"), format="json")
    assert response.status_code == 201, response.content
    assert Order.objects.get(pk=payment.order_id).status == OrderStatus.PENDING
    tea.refresh_from_db()
    assert tea.stock == 0


def test_the_kept_card_order_expires_later_without_releasing_its_stock_twice(
        api, make_product, checkout_body, fake_paymob, settings):
    tea, payment = _card_order(api, make_product, checkout_body)
    _paymob_silent(fake_paymob, settings, "error")
    assert api.post(INTENTION, checkout_body(paymentMethod="cod"), format="json").status_code == 201
    # when Paymob is back and says it has nothing paid for the card order, once it is past its 30 minutes
    fake_paymob.mode = "ok"
    Order.objects.filter(pk=payment.order_id).update(created_at=timezone.now() - timedelta(minutes=31))
    assert orders_expire_unpaid() == 1
    # then it is cancelled, and the stock the cash-on-delivery order holds is not given back
    assert Order.objects.get(pk=payment.order_id).status == OrderStatus.CANCELLED
    tea.refresh_from_db()
    assert tea.stock == 8


def test_a_kept_card_order_found_paid_after_all_is_flagged_for_staff(
        client, api, make_product, checkout_body, fake_paymob, settings, django_capture_on_commit_callbacks):
    store_settings_update(store_email="orders@shop.example")
    tea, payment = _card_order(api, make_product, checkout_body)
    _paymob_silent(fake_paymob, settings, "error")
    assert api.post(INTENTION, checkout_body(paymentMethod="cod"), format="json").status_code == 201
    cod = Order.objects.get(payment_method=PaymentMethod.COD)
    # when the card payment's callback comes after all
    with django_capture_on_commit_callbacks(execute=True):
        assert paymob_callback(client, paymob_transaction(payment, tx_id=7)).status_code == 200
    # then both orders stand, the card one paid and flagged: staff ship one and cancel (refund) the other
    card = Order.objects.get(pk=payment.order_id)
    assert card.payment_status == PaymentStatus.PAID
    assert card.needs_attention is True and card.attention_reasons == ["paid_after_replaced"]
    entry = AuditEntry.objects.get(action="order.paid_after_replaced")
    assert card.number in entry.details and cod.number in entry.details
    store_mail = [m for m in mail.outbox if m.to == ["orders@shop.example"]]
    assert len(store_mail) == 1 and card.number in store_mail[0].subject and cod.number in store_mail[0].body
    assert "Then mark the card order as checked in the dashboard." in store_mail[0].body  # as the others
    # and the paid order holds its stock again (there was enough): cancelling either gives back only its own
    tea.refresh_from_db()
    assert tea.stock == 6 and card.stock_reserved is True



def test_the_kept_card_order_does_not_count_against_the_limit_of_unpaid_orders(
        api, make_product, checkout_body, fake_paymob, settings):
    # given a limit of one unpaid order, and the shopper's card order of the cart, Paymob down
    store_settings_update(max_unpaid_orders=1)
    _tea, payment = _card_order(api, make_product, checkout_body)
    _paymob_silent(fake_paymob, settings, "error")
    # when they pay on delivery instead, the card order replaced (kept only to be asked about) is not held against it
    response = api.post(INTENTION, checkout_body(paymentMethod="cod"), format="json")
    assert response.status_code == 201, response.content
    assert Order.objects.get(pk=payment.order_id).status == OrderStatus.PENDING


def test_the_expiry_job_finding_the_kept_card_order_paid_flags_it_and_says_it_holds_no_stock(
        api, make_product, checkout_body, fake_paymob, settings):
    # given the last two packs, gone to the cash-on-delivery order that replaced the card order Paymob could
    # not answer for
    tea, payment = _card_order(api, make_product, checkout_body, stock=2)
    _paymob_silent(fake_paymob, settings, "error")
    assert api.post(INTENTION, checkout_body(paymentMethod="cod"), format="json").status_code == 201
    # when Paymob is back and the expiry job learns from it that the card was charged after all
    fake_paymob.mode = "ok"
    fake_paymob.inquiry = paymob_transaction(payment, tx_id=7)
    Order.objects.filter(pk=payment.order_id).update(created_at=timezone.now() - timedelta(minutes=31))
    assert orders_expire_unpaid() == 0
    # then it is paid and flagged, its stock not taken below nothing, and staff are told it holds none
    card = Order.objects.get(pk=payment.order_id)
    assert (card.payment_status, card.attention_reasons) == (PaymentStatus.PAID, ["paid_after_replaced"])
    tea.refresh_from_db()
    assert tea.stock == 0 and card.stock_reserved is False
    assert "holds no stock" in AuditEntry.objects.get(action="order.paid_after_replaced").details


def test_the_no_stock_flag_keeps_its_whole_sentence_however_long_the_products_names(
        api, make_product, checkout_body, fake_paymob, settings):
    # given the last two packs of a tea with a long name (a title may take 200 characters), gone to the
    # cash-on-delivery order that replaced the card order Paymob could not answer for
    from django.utils import translation

    from backoffice.audit_texts import audit_details_text

    tea = make_product(price="300.00", stock=2, title="Kenya Highlands Single Estate " + "Premium Black Tea " * 9)
    api.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, format="json")
    assert api.post(INTENTION, checkout_body(paymentMethod="card"), format="json").status_code == 201
    payment = Payment.objects.get()
    _paymob_silent(fake_paymob, settings, "error")
    assert api.post(INTENTION, checkout_body(paymentMethod="cod"), format="json").status_code == 201
    # when the expiry job learns from Paymob that the card was charged after all
    fake_paymob.mode = "ok"
    fake_paymob.inquiry = paymob_transaction(payment, tx_id=7)
    Order.objects.filter(pk=payment.order_id).update(created_at=timezone.now() - timedelta(minutes=31))
    orders_expire_unpaid()
    # then its audit entry still says what to do (not cut at the column's 500 characters), and reads in Arabic
    details = AuditEntry.objects.get(action="order.paid_after_replaced").details
    assert "holds no stock" in details and details.endswith("(refund this payment in Paymob if you cancel this one).")
    with translation.override("ar"):
        assert audit_details_text(details, "order.paid_after_replaced") != details


CARD_KEPT = {
    "en": "We are still checking whether your earlier card payment for these items (order {number}) went "
          "through. If it did, we will contact you to refund it.",
    "ar": "ما زلنا نتحقق مما إذا كان دفعك السابق بالبطاقة لهذه المنتجات (الطلب {number}) قد تم. "
          "إن كان قد تم، فسنتواصل معك لرده إليك.",
}


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_thank_you_page_of_the_cod_order_tells_the_shopper_their_card_payment_is_being_checked(
        client, make_product, checkout_body, fake_paymob, settings, language):
    # given a shopper's card order whose payment did not come back, and Paymob down when they pay on delivery instead
    tea = make_product(price="300.00", stock=10)
    client.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, content_type="application/json")
    assert client.post(INTENTION, checkout_body(paymentMethod="card"), content_type="application/json"
                       ).status_code == 201
    card = Order.objects.get()
    _paymob_silent(fake_paymob, settings, "error")
    placed = client.post(INTENTION, checkout_body(paymentMethod="cod"), content_type="application/json")
    assert placed.status_code == 201, placed.content
    # when the thank-you page of the cash-on-delivery order is shown
    prefix = "/ar" if language == "ar" else ""
    page = client.get(f"{prefix}/thankyou")
    # then it says the earlier card payment is being checked and what happens if it went through
    text = page.content.decode()
    assert Order.objects.get(payment_method=PaymentMethod.COD).number in text
    assert CARD_KEPT[language].format(number=f'<bdi dir="ltr" class="nowrap">{card.number}</bdi>') in text
    # and once Paymob says the card was not paid (the card order expired), the page no longer says it
    fake_paymob.mode = "ok"
    Order.objects.filter(pk=card.pk).update(created_at=timezone.now() - timedelta(minutes=31))
    assert orders_expire_unpaid() == 1
    assert "earlier card payment" not in client.get("/thankyou").content.decode()


def test_a_cod_order_placed_without_a_card_order_left_open_says_nothing_of_one(
        client, make_product, checkout_body, fake_paymob):
    # given a card order Paymob answered for (not paid): replaced (cancelled) by the cash-on-delivery order
    tea = make_product(price="300.00", stock=10)
    client.post("/api/cart/items", {"productId": tea.pk, "quantity": 2}, content_type="application/json")
    client.post(INTENTION, checkout_body(paymentMethod="card"), content_type="application/json")
    assert client.post(INTENTION, checkout_body(paymentMethod="cod"), content_type="application/json"
                       ).status_code == 201
    assert Order.objects.get(payment_method=PaymentMethod.CARD).status == OrderStatus.CANCELLED
    # then its thank-you page says nothing of a card payment being checked
    page = client.get("/thankyou")
    assert page.status_code == 200 and "earlier card payment" not in page.content.decode()
