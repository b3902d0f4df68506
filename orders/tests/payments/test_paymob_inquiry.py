"""Asking Paymob about a payment: one auth token reused, each payment asked rarely, verify rate limited."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from orders.models import Order, Payment, PaymentStatus
from orders.payments import services as payment_services
from orders.tasks import orders_expire_unpaid
from orders.tests.payments.paymob_messages import paymob_callback, paymob_transaction

pytestmark = pytest.mark.django_db

SIGN_IN = "/api/auth/tokens"
INQUIRY = "/api/ecommerce/orders/transaction_inquiry"
MESSAGE_AR = "طلبات كثيرة جدًا. يُرجى الانتظار قليلًا ثم المحاولة مرة أخرى."


def _card_order(make_product, checkout_body):
    """A card order placed by a new shopper, its callback not yet arrived: their client and its Payment."""
    shopper = APIClient()
    tea = make_product()
    shopper.post("/api/cart/items", {"productId": tea.pk, "quantity": 1}, format="json")
    response = shopper.post("/api/payment/create-intention", checkout_body(paymentMethod="card"), format="json")
    assert response.status_code == 201, response.content
    return shopper, Payment.objects.get(payment_id=response.json()["paymentId"])


def _verify(shopper, payment):
    return shopper.get(f"/api/payment/verify/{payment.payment_id}")


def test_it_signs_in_to_paymob_once_for_the_inquiries_of_many_payments(make_product, checkout_body, fake_paymob):
    # given two card orders of two shoppers, neither callback arrived
    first = _card_order(make_product, checkout_body)
    second = _card_order(make_product, checkout_body)
    # when each return page asks
    answers = [_verify(*first).status_code, _verify(*second).status_code]
    # then Paymob was asked about each payment, with one sign-in for both
    assert answers == [200, 200]
    assert fake_paymob.calls(INQUIRY) == 2
    assert fake_paymob.calls(SIGN_IN) == 1


def test_a_token_paymob_no_longer_accepts_is_replaced_and_the_inquiry_made_again_once(
        make_product, checkout_body, fake_paymob):
    # given a token kept from an earlier inquiry, which Paymob has since let expire
    _verify(*_card_order(make_product, checkout_body))
    shopper, payment = _card_order(make_product, checkout_body)
    fake_paymob.inquiry = paymob_transaction(payment)
    fake_paymob.expire_tokens()
    # when the second shopper's return page asks
    response = _verify(shopper, payment)
    # then the refused inquiry was made again with a new token, and it answered
    assert response.json()["confirmed"] is True
    assert fake_paymob.calls(SIGN_IN) == 2
    assert fake_paymob.calls(INQUIRY) == 3  # the first order's, the refused one, the one made again


def test_a_new_token_paymob_refuses_is_not_asked_for_again(make_product, checkout_body, fake_paymob, caplog):
    # given a Paymob that refuses every token it gives
    shopper, payment = _card_order(make_product, checkout_body)
    fake_paymob.accept_tokens = False
    # when the return page asks
    response = _verify(shopper, payment)
    # then the payment waits, after one sign-in and one inquiry, and the refusal is logged
    assert (response.json()["confirmed"], response.json()["status"]) == (False, "awaiting")
    assert (fake_paymob.calls(SIGN_IN), fake_paymob.calls(INQUIRY)) == (1, 1)
    assert "401" in caplog.text


def test_a_changed_api_key_never_uses_the_token_of_the_old_one(make_product, checkout_body, fake_paymob, settings):
    # given a token kept for the old API key
    _verify(*_card_order(make_product, checkout_body))
    settings.PAYMOB_API_KEY = "the-new-api-key"
    # when another payment is asked about
    _verify(*_card_order(make_product, checkout_body))
    # then the shop signed in again with the new key
    assert fake_paymob.calls(SIGN_IN) == 2
    assert fake_paymob.requests[-2][3] == {"api_key": "the-new-api-key"}


def test_paymob_is_asked_about_one_payment_at_most_once_every_few_seconds(
        client, make_product, checkout_body, fake_paymob, monkeypatch):
    # given a card order whose callback has not arrived, and a return page asking again and again
    monkeypatch.setattr(payment_services, "INQUIRY_INTERVAL", 1)
    shopper, payment = _card_order(make_product, checkout_body)
    # when it asks five times at once
    statuses = [_verify(shopper, payment).json()["status"] for _ in range(5)]
    # then Paymob was asked once and the stored state answered the rest
    assert statuses == ["awaiting"] * 5
    assert fake_paymob.calls(INQUIRY) == 1
    # when the interval has passed and Paymob now knows the payment
    time.sleep(1.1)
    fake_paymob.inquiry = paymob_transaction(payment)
    # then the next question asks it again
    assert _verify(shopper, payment).json()["confirmed"] is True
    assert fake_paymob.calls(INQUIRY) == 2


def test_a_callback_arriving_between_inquiries_is_answered_at_once(client, make_product, checkout_body, fake_paymob):
    # given a return page that has just asked (Paymob did not know the payment yet)
    shopper, payment = _card_order(make_product, checkout_body)
    _verify(shopper, payment)
    # when Paymob's callback arrives and the page asks again within the interval
    obj = paymob_transaction(payment)
    paymob_callback(client, obj)
    response = _verify(shopper, payment)
    # then it is told from the stored state, without Paymob being asked again
    assert response.json()["confirmed"] is True
    assert Payment.objects.get().status == PaymentStatus.PAID
    assert fake_paymob.calls(INQUIRY) == 1


def test_many_verify_calls_make_few_paymob_calls(make_product, checkout_body, fake_paymob):
    # given a card order whose callback has not arrived
    shopper, payment = _card_order(make_product, checkout_body)
    before = len(fake_paymob.requests)
    # when a script asks about it 70 times
    answers = [_verify(shopper, payment).status_code for _ in range(70)]
    # then it is refused past the limit, and Paymob heard of it once (a sign-in and an inquiry)
    assert set(answers[:60]) == {200} and set(answers[60:]) == {429}
    assert len(fake_paymob.requests) - before == 2


def test_verify_over_its_limit_answers_429_json_translated(make_product, checkout_body, fake_paymob, settings):
    # given a low limit and a shopper who used it
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "payment_verify": "3/minute"}
    shopper, payment = _card_order(make_product, checkout_body)
    assert [_verify(shopper, payment).status_code for _ in range(3)] == [200] * 3
    # when they ask once more, in Arabic
    response = shopper.get(f"/api/payment/verify/{payment.payment_id}", HTTP_ACCEPT_LANGUAGE="ar")
    # then it is refused in the API's error shape, translated, with when to come back
    assert response.status_code == 429
    assert response.json() == {"error": MESSAGE_AR, "message": MESSAGE_AR}
    assert int(response["Retry-After"]) > 0


def test_post_orders_counts_against_the_same_limit(make_product, checkout_body, fake_paymob, settings):
    # given a low limit, used by verify
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "payment_verify": "3/minute"}
    shopper, payment = _card_order(make_product, checkout_body)
    for _ in range(3):
        _verify(shopper, payment)
    # when the shopper asks for the order by POST /api/orders
    response = shopper.post("/api/orders", {"paymentId": payment.payment_id}, format="json")
    # then it is refused too
    assert response.status_code == 429


def test_the_default_limit_leaves_the_return_pages_polling_alone(settings):
    from shop.ratelimit import parse_rate

    # the return page asks 6 times per payment (static_src/islands/payment-return.jsx): a shopper coming
    # back from several attempts within a minute is never refused
    count, seconds = parse_rate(settings.RATE_LIMITS["payment_verify"])
    assert count * 60 // seconds >= 6 * 5


def test_the_expiry_job_asks_paymob_even_just_after_a_return_page_did(make_product, checkout_body, fake_paymob):
    # given a card order left unpaid for 30 minutes, whose return page has just asked (Paymob knew nothing yet)
    shopper, payment = _card_order(make_product, checkout_body)
    _verify(shopper, payment)
    Order.objects.update(created_at=timezone.now() - timedelta(minutes=31))
    # when the payment lands in Paymob and the expiry job runs within the return page's interval
    fake_paymob.inquiry = paymob_transaction(payment)
    orders_expire_unpaid()
    # then the job asked Paymob itself and kept the paid order
    assert fake_paymob.calls(INQUIRY) == 2
    assert Order.objects.get().payment_status == PaymentStatus.PAID


def test_an_inquiry_answer_that_is_not_a_transaction_keeps_the_orders_until_paymob_can_say(make_product,
                                                                                          checkout_body, fake_paymob,
                                                                                          settings):
    # given two card orders left unpaid for 30 minutes, and Paymob answering its inquiry with a list
    _card_order(make_product, checkout_body)
    _card_order(make_product, checkout_body)
    Order.objects.update(created_at=timezone.now() - timedelta(minutes=31))
    fake_paymob.inquiry = [{"detail": "maintenance"}]
    # when the expiry job runs: an unusable answer is no answer, neither "paid" nor "not paid"
    assert orders_expire_unpaid() == 0
    # then both wait for the next run; and once Paymob has said nothing for as long as a pending payment is
    # waited for, both expire and put their stock back
    assert set(Order.objects.values_list("status", flat=True)) == {"pending"}
    Order.objects.update(created_at=timezone.now() - timedelta(hours=settings.PAYMOB_PENDING_HOURS, minutes=1))
    expired = orders_expire_unpaid()
    assert expired == 2
    assert set(Order.objects.values_list("status", flat=True)) == {"cancelled"}


def test_one_order_the_expiry_job_fails_on_does_not_keep_the_others_pending(make_product, checkout_body,
                                                                            fake_paymob, monkeypatch):
    # given three card orders left unpaid, one of which the job fails on (its row, its mail, a bug)
    import orders.tasks

    for _ in range(3):
        _card_order(make_product, checkout_body)
    Order.objects.update(created_at=timezone.now() - timedelta(minutes=31))
    broken = Order.objects.order_by("pk")[1]
    expire = orders.tasks.order_expire_unpaid

    def expire_or_fail(*, order, **kwargs):
        if order.pk == broken.pk:
            raise RuntimeError("the cancellation e-mail's template is broken")
        return expire(order=order, **kwargs)

    monkeypatch.setattr(orders.tasks, "order_expire_unpaid", expire_or_fail)
    # when the expiry job runs: it still ends in an error, for the failed jobs staff see
    with pytest.raises(RuntimeError):
        orders_expire_unpaid()
    # then the other two expired all the same
    assert list(Order.objects.order_by("pk").values_list("status", flat=True)) == [
        "cancelled", "pending", "cancelled"]


def test_a_paymob_order_id_that_is_not_ascii_digits_is_asked_about_by_our_order_number(
        make_product, checkout_body, fake_paymob):
    # given: "²" passes str.isdigit(), which int() then refused with a 500
    shopper, payment = _card_order(make_product, checkout_body)
    Payment.objects.filter(pk=payment.pk).update(provider_order_id="²")
    # when
    answer = _verify(shopper, payment)
    # then
    assert answer.status_code == 200 and fake_paymob.calls(INQUIRY) == 1
