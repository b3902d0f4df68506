"""The customer is told, by e-mail in their language, each time money of their card payment comes back: how
much, for which order, and that the bank takes some working days to show it; once per refund, however
often and in whichever order Paymob reports it."""

import pytest

from orders.models import Order
from orders.tests.payments.test_paid_after_cancel import _callback, _paid, _place, _refund, _reported_again
from shop.models import OutboundEmail, OutboundWhatsApp

pytestmark = pytest.mark.django_db

LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"


def _paid_order(client, api, make_product, checkout_body, language="en"):
    """A paid card order of E£650 in `language`, its confirmation queued and set aside."""
    payment = _paid(client, api, make_product, checkout_body)
    Order.objects.update(language=language)
    OutboundEmail.objects.all().delete()
    return payment, Order.objects.get()


def test_each_refund_made_in_paymob_queues_one_mail_naming_its_own_amount(
        client, api, make_product, checkout_body, fake_paymob):
    # given a paid order of E£650, placed in English
    payment, order = _paid_order(client, api, make_product, checkout_body)
    # when staff refund E£100 of it in Paymob: its refund transaction comes back
    _refund(client, payment, tx_id=2, cents=10000)
    # then the customer gets one e-mail, in the outbox, naming the amount, the order and the bank's delay
    first, = OutboundEmail.objects.all()
    assert (first.to, first.language) == (order.email, "en")
    assert first.subject == f"Refund for your order {order.number}"
    assert f"We have refunded E£100.00 to your card for your order {LRI}{order.number}{PDI}." in first.text
    assert "E£100.00 of your order's E£650.00 has now been refunded." in first.text
    assert "several working days" in first.text
    assert first.text.startswith(f"Hello {FSI}Mona{PDI},") and 'dir="ltr"' in first.html
    # when Paymob reports the same refund again (the payment sent again with its refunded total, and the
    # refund's own callback replayed)
    _reported_again(client, payment, claimed_cents=10000, is_refunded=True)
    _refund(client, payment, tx_id=2, cents=10000)
    # then nothing more is queued
    assert OutboundEmail.objects.count() == 1
    # when E£200 more is refunded, then a second mail names those E£200, and what came back in all
    _refund(client, payment, tx_id=3, cents=20000)
    _reported_again(client, payment, claimed_cents=30000, is_refunded=True)
    assert OutboundEmail.objects.count() == 2
    second = OutboundEmail.objects.order_by("pk").last()
    assert f"We have refunded E£200.00 to your card for your order {LRI}{order.number}{PDI}." in second.text
    assert "E£300.00 of your order's E£650.00 has now been refunded." in second.text
    # and the last E£350 names itself, and that all of the order's money is back
    _refund(client, payment, tx_id=4, cents=35000)
    assert OutboundEmail.objects.count() == 3
    last = OutboundEmail.objects.order_by("pk").last()
    assert f"We have refunded E£350.00 to your card for your order {LRI}{order.number}{PDI}." in last.text
    assert "All of your order's E£650.00 has now been refunded." in last.text
    assert Order.objects.get().refunded_amount == order.total_amount


def test_the_refund_mail_is_arabic_and_right_to_left_for_an_arabic_order(
        client, api, make_product, checkout_body, fake_paymob):
    # given a paid order placed in Arabic
    payment, order = _paid_order(client, api, make_product, checkout_body, language="ar")
    # when E£100 of it is refunded
    _refund(client, payment, tx_id=2, cents=10000)
    # then its mail is Arabic, right to left, the amounts in Arabic money and the number kept whole
    email, = OutboundEmail.objects.all()
    assert email.language == "ar" and 'dir="rtl"' in email.html and 'lang="ar"' in email.html
    assert email.subject == f"أعدنا إليك مبلغًا من طلبك رقم {LRI}{order.number}{PDI}"
    assert f"أعدنا مبلغ 100.00\u00a0ج.م إلى بطاقتك عن طلبك رقم {LRI}{order.number}{PDI}." in email.text
    assert "أُعيد حتى الآن 100.00\u00a0ج.م من إجمالي طلبك البالغ 650.00\u00a0ج.م." in email.text
    assert "أيام عمل" in email.text
    assert "E£" not in email.text and "refund" not in email.text.lower()


@pytest.mark.parametrize("reports", ["refund transaction", "both", "both, reversed", "void"])
def test_a_full_refund_queues_one_mail_however_paymob_reports_it(
        client, api, make_product, checkout_body, fake_paymob, reports):
    # given a paid order of E£650
    payment, order = _paid_order(client, api, make_product, checkout_body)
    full = int(payment.amount * 100)
    # when all of it comes back, reported one way or the other
    {
        "refund transaction": lambda: [_refund(client, payment, tx_id=2)],
        "both": lambda: [_refund(client, payment, tx_id=2),
                         _reported_again(client, payment, claimed_cents=full, is_refunded=True)],
        "both, reversed": lambda: [_reported_again(client, payment, claimed_cents=full, is_refunded=True),
                                   _refund(client, payment, tx_id=2)],
        "void": lambda: [_reported_again(client, payment, is_voided=True),
                         _reported_again(client, payment, is_voided=True)],
    }[reports]()
    # then the customer is told once, of the whole E£650
    email, = OutboundEmail.objects.all()
    assert f"We have refunded E£650.00 to your card for your order {LRI}{order.number}{PDI}." in email.text
    assert "has now been refunded" not in email.text  # one refund of all of it needs no sum


def test_a_refund_reported_before_the_payment_is_told_once_the_payment_counts_it(
        client, api, make_product, checkout_body, fake_paymob):
    # given a refund of E£100 reported before the payment's success (the callbacks crossed)
    _tea, payment = _place(api, make_product, checkout_body)
    _refund(client, payment, tx_id=2, cents=10000)
    assert not OutboundEmail.objects.filter(subject__contains="Refund").exists()  # not matched to a payment yet
    # when the success arrives, and is replayed
    _callback(client, payment, success=True, tx_id=1)
    _callback(client, payment, success=True, tx_id=1)
    # then the refund it now counts is told once
    email, = OutboundEmail.objects.filter(subject__contains="Refund")
    assert "We have refunded E£100.00 to your card" in email.text


def test_a_customer_who_asked_for_whatsapp_updates_hears_of_the_refund_there_too(
        client, api, make_product, checkout_body, fake_paymob):
    payment, order = _paid_order(client, api, make_product, checkout_body)
    Order.objects.update(whatsapp_opt_in=True)
    OutboundWhatsApp.objects.all().delete()
    _refund(client, payment, tx_id=2, cents=10000)
    message, = OutboundWhatsApp.objects.all()
    assert "We have refunded E£100.00 to your card for your order" in message.text
    assert "Thank you for your order" not in message.text


def _void_refund(client, payment, *, tx_id, of, cents):
    """Paymob's void of refund `of` (returning `cents`): its own transaction, a child of the refund, and the
    refund sent again flagged voided."""
    _refund(client, payment, tx_id=tx_id, cents=cents, of=of)
    _callback(client, payment, success=True, tx_id=of, amount_cents=cents, has_parent_transaction=True,
              is_voided=True, parent_transaction=1)


def _corrections():
    return list(OutboundEmail.objects.filter(subject__startswith="Correction").order_by("pk"))


def test_a_refund_voided_after_its_mail_queues_one_correction_naming_the_amount_not_coming_back(
        client, api, make_product, checkout_body, fake_paymob):
    # given a paid order of E£650, E£100 and then E£200 of it refunded, the customer told of each
    payment, order = _paid_order(client, api, make_product, checkout_body)
    _refund(client, payment, tx_id=2, cents=10000)
    _refund(client, payment, tx_id=3, cents=20000)
    assert OutboundEmail.objects.count() == 2
    # when the E£200 refund is voided in Paymob
    _void_refund(client, payment, tx_id=4, of=3, cents=20000)
    # then the customer gets one correction: those E£200 are not coming back, E£100 is
    correction, = _corrections()
    assert (correction.to, correction.language) == (order.email, "en")
    assert correction.subject == f"Correction: a refund for your order {order.number} was cancelled"
    assert (f"The refund of E£200.00 for your order {LRI}{order.number}{PDI} that we wrote to you about was "
            "cancelled: that E£200.00 will not be returned to your card after all.") in correction.text
    assert "E£100.00 of your order's E£650.00 has now been refunded." in correction.text
    assert "We have refunded" not in correction.text and OutboundEmail.objects.count() == 3
    assert Order.objects.get().refunded_amount == 100
    # when Paymob reports the void again (both its callbacks replayed)
    _void_refund(client, payment, tx_id=4, of=3, cents=20000)
    # then nothing more is queued
    assert OutboundEmail.objects.count() == 3


def test_the_only_refund_voided_corrects_it_to_nothing_returned_in_arabic(
        client, api, make_product, checkout_body, fake_paymob):
    # given a paid order placed in Arabic, E£325 of it refunded and the customer told
    payment, order = _paid_order(client, api, make_product, checkout_body, language="ar")
    Order.objects.update(whatsapp_opt_in=True)
    _refund(client, payment, tx_id=2, cents=32500)
    OutboundWhatsApp.objects.all().delete()
    # when that refund is voided, and the void replayed
    _void_refund(client, payment, tx_id=3, of=2, cents=32500)
    _void_refund(client, payment, tx_id=3, of=2, cents=32500)
    # then one Arabic correction, right to left, naming the E£325 that will not come back, and nothing returned
    correction = OutboundEmail.objects.order_by("pk").last()
    assert OutboundEmail.objects.count() == 2
    assert correction.language == "ar" and 'dir="rtl"' in correction.html
    assert correction.subject == f"تصحيح: أُلغي استرداد مبلغ من طلبك رقم {LRI}{order.number}{PDI}"
    assert (f"أُلغي استرداد مبلغ 325.00\u00a0ج.م عن طلبك رقم {LRI}{order.number}{PDI} الذي راسلناك بشأنه، "
            "فلن يُعاد مبلغ 325.00\u00a0ج.م هذا إلى بطاقتك.") in correction.text
    assert "نعتذر عن هذا الالتباس" in correction.text
    assert "أُعيد حتى الآن" not in correction.text and "E£" not in correction.text
    assert Order.objects.get().refunded_amount == 0
    # and the WhatsApp update the customer asked for says the same, once
    message, = OutboundWhatsApp.objects.all()
    assert "فلن يُعاد مبلغ 325.00\u00a0ج.م هذا إلى بطاقتك." in message.text


def test_a_full_refund_voided_afterwards_queues_one_correction_of_all_of_it(
        client, api, make_product, checkout_body, fake_paymob):
    # given a paid order of E£650 refunded in full, the customer (who asked for WhatsApp updates) told
    payment, order = _paid_order(client, api, make_product, checkout_body)
    Order.objects.update(whatsapp_opt_in=True)
    _refund(client, payment, tx_id=2)
    OutboundWhatsApp.objects.all().delete()
    # when that refund is voided in Paymob, and the void replayed
    _void_refund(client, payment, tx_id=3, of=2, cents=65000)
    _void_refund(client, payment, tx_id=3, of=2, cents=65000)
    # then the customer gets one correction: the E£650 will not come back after all, and nothing is returned
    correction, = _corrections()
    assert (correction.to, correction.language) == (order.email, "en")
    assert (f"The refund of E£650.00 for your order {LRI}{order.number}{PDI} that we wrote to you about was "
            "cancelled: that E£650.00 will not be returned to your card after all.") in correction.text
    assert "has now been refunded" not in correction.text and OutboundEmail.objects.count() == 2
    # and the WhatsApp update says the same, once
    message, = OutboundWhatsApp.objects.all()
    assert "that E£650.00 will not be returned to your card after all." in message.text
    # and the order records nothing returned, flagged for staff to check the payment in Paymob
    voided = Order.objects.get()
    assert voided.refunded_amount == 0 and "refund_to_check" in voided.attention_reasons


def test_the_refund_completing_a_full_refund_voided_corrects_it_to_the_rest_in_arabic(
        client, api, make_product, checkout_body, fake_paymob):
    # given a paid order of E£650 placed in Arabic, E£100 and then the other E£550 refunded, the customer told
    payment, order = _paid_order(client, api, make_product, checkout_body, language="ar")
    _refund(client, payment, tx_id=2, cents=10000)
    _refund(client, payment, tx_id=3, cents=55000)
    assert OutboundEmail.objects.count() == 2
    # when the E£550 refund is voided, and the void replayed
    _void_refund(client, payment, tx_id=4, of=3, cents=55000)
    _void_refund(client, payment, tx_id=4, of=3, cents=55000)
    # then one Arabic correction names the E£550 that will not come back, and the E£100 that did
    assert OutboundEmail.objects.count() == 3
    correction = OutboundEmail.objects.order_by("pk").last()
    assert correction.subject == f"تصحيح: أُلغي استرداد مبلغ من طلبك رقم {LRI}{order.number}{PDI}"
    assert (f"أُلغي استرداد مبلغ 550.00\u00a0ج.م عن طلبك رقم {LRI}{order.number}{PDI} الذي راسلناك بشأنه، "
            "فلن يُعاد مبلغ 550.00\u00a0ج.م هذا إلى بطاقتك.") in correction.text
    assert "أُعيد حتى الآن 100.00\u00a0ج.م من إجمالي طلبك البالغ 650.00\u00a0ج.م." in correction.text
    assert Order.objects.get().refunded_amount == 100


def test_a_refund_made_after_a_full_refund_was_voided_is_told_again(
        client, api, make_product, checkout_body, fake_paymob):
    # given a paid order of E£650 refunded in full, that refund voided since, the customer told of both
    payment, order = _paid_order(client, api, make_product, checkout_body)
    _refund(client, payment, tx_id=2)
    _void_refund(client, payment, tx_id=3, of=2, cents=65000)
    assert OutboundEmail.objects.count() == 2
    # when E£200 of it is refunded in Paymob, and that refund's callback replayed
    _refund(client, payment, tx_id=4, cents=20000)
    _refund(client, payment, tx_id=4, cents=20000)
    # then the customer gets one mail naming those E£200, and what came back in all
    assert OutboundEmail.objects.count() == 3
    mail = OutboundEmail.objects.order_by("pk").last()
    assert f"We have refunded E£200.00 to your card for your order {LRI}{order.number}{PDI}." in mail.text
    assert "E£200.00 of your order's E£650.00 has now been refunded." in mail.text
    assert Order.objects.get().refunded_amount == 200
