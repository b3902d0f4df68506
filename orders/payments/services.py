"""Payment writes: create and start a payment, apply what the provider reports (once)."""

import logging
import secrets
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from orders import notes
from orders.actions import (
    order_amount_to_check,
    order_attention_settle,
    order_mark_paid,
    order_paid_twice,
    order_partly_refunded,
    order_payment_failed,
    order_pending_after_cancel,
    order_refund_record,
    order_refund_to_check,
    order_set_status,
)
from orders.models import Order, OrderStatus, Payment, PaymentEvent, PaymentStatus
from orders.notes import note_write
from orders.payments import get_provider
from orders.payments.base import PaymentError, PaymentStart, TransactionResult
from orders.payments.paymob import hmac_verify, transaction_result
from orders.selectors import order_pending_report
from shop.models import Heartbeat
from shop.money import quantize, to_minor_units

logger = logging.getLogger("orders.payments")


def bad_hmac_mark(provider_name: str) -> str:
    """The Heartbeat row of the last callback whose HMAC did not verify although the provider itself sent
    it (its status query later reported the same transaction): it signs with another secret than ours
    (manage.py doctor reads it; a verified callback clears it)."""
    return f"{provider_name}-bad-hmac"


def _unverified_key(payment: Payment, transaction_id: str) -> str:
    return f"payment-unverified-callback:{payment.pk}:{transaction_id}"


def _unverified_callback_keep(payment: Payment, result: TransactionResult) -> None:
    """Remember for an hour that a callback about `payment` whose HMAC did not verify named this transaction.
    Anyone can send one about their own order, so it proves nothing yet (and is not recorded as an event);
    `_unverified_callback_confirm` tells. One key a transaction: a stranger's callbacks about the same payment
    (Paymob's order ids are sequential) cannot push the provider's own out."""
    cache.set(_unverified_key(payment, result.transaction_id), True, 3600)


def _unverified_callback_confirm(payment: Payment, result: TransactionResult) -> None:
    """The provider's status query reports the transaction an unverified callback named: the provider sent
    that callback, so the shop's secret is not the provider's. (A shopper whose own kiosk payment is still
    pending could stage this with its transaction id, from their return page's address: a false alarm on
    the doctor, no more.)"""
    if result.transaction_id and cache.get(_unverified_key(payment, result.transaction_id)):
        Heartbeat.objects.update_or_create(name=bad_hmac_mark(payment.provider), defaults={"seen_at": timezone.now()})


class CallbackRejected(Exception):
    """The callback cannot be applied; `status` is the HTTP answer (400 or 403)."""

    def __init__(self, reason: str, status: int = 400) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


def payment_create(*, order: Order, provider_name: str) -> Payment:
    """The order's payment, before its provider is asked: made in the transaction that places the order,
    so that a checkout submitted again finds it at once (orders.checkout)."""
    return Payment.objects.create(
        order=order, provider=provider_name, payment_id=f"pay_{secrets.token_urlsafe(12)}",
        amount=order.total_amount, currency="EGP",
        status=PaymentStatus.COD if provider_name == "cod" else PaymentStatus.AWAITING,
    )


def payment_nothing_due(*, payment: Payment) -> Payment:
    """Record a card payment of nothing as paid, no provider asked: a coupon covered the whole order."""
    payment.status = PaymentStatus.PAID
    payment.transaction_id = "nothing-due"
    payment.save(update_fields=["status", "transaction_id", "updated_at"])
    return payment


def payment_start(*, payment: Payment, return_url: str, notification_url: str) -> PaymentStart:
    """Ask the payment's provider where to send the browser, and keep its answer on the payment.

    A provider failure is logged with the order number and re-raised; the
    payment is marked failed (nobody was given its page), and the order
    stays pending with its stock reserved until it expires or its visitor
    places another order (orders.checkout).
    """
    order = payment.order
    try:
        start = get_provider(payment.provider).start(order=order, payment=payment, return_url=return_url,
                                                     notification_url=notification_url)
        with transaction.atomic():
            # kept, and given, only while its order still awaits it: a start slow enough for its visitor to
            # place another order meanwhile finds this one cancelled (orders.checkout)
            held = Order.objects.select_for_update().get(pk=order.pk)
            if payment.status == PaymentStatus.AWAITING and (held.status, held.payment_status) != (
                    OrderStatus.PENDING, PaymentStatus.AWAITING):
                raise PaymentError(f"order {order.number} is {held.status} now", permanent=True)
            payment.provider_order_id = start.provider_order_id
            payment.redirect_url = start.payment_url[:1000]
            payment.integration_ids = list(start.integration_ids)
            payment.save(update_fields=["provider_order_id", "redirect_url", "integration_ids", "updated_at"])
    except PaymentError as exc:
        logger.error("payment start failed for order %s (%s): %s", order.number, payment.provider, exc.message)
        payment.status = PaymentStatus.FAILED
        payment.save(update_fields=["status", "updated_at"])
        raise
    return start


def _apply(payment: Payment, result: TransactionResult, kind: str) -> Payment:
    """Record the event once per (kind, transaction id) and move the order."""
    paid_cents = to_minor_units(payment.amount)
    refund = result.returns == "refund"
    # a refund or void of its own returns part or all of the payment; anything else names its amount
    amount_ok = 0 < result.amount_cents <= paid_cents if refund else result.amount_cents == paid_cents
    if not amount_ok or result.currency != payment.currency:
        logger.warning("payment %s: amount/currency mismatch (%s %s) for order %s", payment.payment_id,
                       result.amount_cents, result.currency, payment.order.number)
        if result.success and not (result.pending or result.returns or result.captures):
            return _amount_to_check(payment, result, kind)  # money taken: never only a log line
        raise CallbackRejected("amount or currency mismatch")
    # One transaction for the event and its effect: a crash in between cannot
    # leave an event recorded but never applied (a replay would then be ignored).
    with transaction.atomic():
        try:
            with transaction.atomic():
                # a pending report (kiosk) must not block the final one for the same id
                event_kind = f"{kind}-pending" if result.pending else f"{kind}-refund" if refund else kind
                # the payment reported again is news each time a refund claims a new total
                transaction_id = {"refunded": f"{result.transaction_id}/refunded-{result.claimed_cents}",
                                  "voided": f"{result.transaction_id}/voided"}.get(result.returns,
                                                                                  result.transaction_id)
                PaymentEvent.objects.create(payment=payment, kind=event_kind, transaction_id=transaction_id,
                                            success=result.success, payload=result.raw)
        except IntegrityError:
            logger.info("payment %s: %s %s already applied", payment.payment_id, kind, transaction_id)
            return payment
        if result.pending:
            if payment.order.status == OrderStatus.CANCELLED:
                # a kiosk reference for an order already cancelled (its hosted page was still open): the cash paid
                # with it would land where Paymob cannot refund it, so staff hear of it before it is paid
                order_pending_after_cancel(order=payment.order, note=f"{payment.provider} {result.transaction_id}")
            return payment
        locked = Payment.objects.select_for_update().get(pk=payment.pk)
        if result.returns:
            _money_returned(locked, result)
        elif result.success and locked.status == PaymentStatus.AWAITING:
            locked.status = PaymentStatus.PAID
            locked.transaction_id = result.transaction_id
            locked.save(update_fields=["status", "transaction_id", "updated_at"])
            order_mark_paid(order=locked.order,
                            note=note_write(notes.PAID, reference=f"{locked.provider} {result.transaction_id}"))
            _returns_settle(locked)  # refunds reported before the payment (already flagged for staff)
        elif result.success and locked.status == PaymentStatus.FAILED:
            # a success after a decline (a second card on the same hosted page):
            # the money is captured, so it is recorded, and the cancelled order
            # is flagged for staff by order_mark_paid
            logger.warning("payment %s: success after a decline for order %s", locked.payment_id,
                           locked.order.number)
            locked.status = PaymentStatus.PAID
            locked.transaction_id = result.transaction_id
            locked.save(update_fields=["status", "transaction_id", "updated_at"])
            order_mark_paid(order=locked.order, note=note_write(
                notes.PAID_AFTER_DECLINE, reference=f"{locked.provider} {result.transaction_id}"))
            _returns_settle(locked)
        elif (result.success and not result.captures and locked.status in (PaymentStatus.PAID, PaymentStatus.REFUNDED)
              and result.transaction_id != locked.transaction_id):
            # another transaction captured the same amount (two tabs on one hosted page): paid twice
            order_paid_twice(order=locked.order, note=f"{locked.provider} {result.transaction_id}")
        elif not result.success and locked.status == PaymentStatus.AWAITING and _kiosk_still_open(locked, result):
            # another try on the hosted page that gave a kiosk reference (a card, declined): the reference can
            # still be paid at an outlet, and Paymob cannot refund cash paid on a cancelled order, so the order
            # keeps waiting for it (held PAYMOB_PENDING_HOURS), the decline noted in its history
            order = locked.order
            note = note_write(notes.PAYMENT_DECLINED_KIOSK_OPEN, reference=result.transaction_id)
            order_set_status(order=order, status=order.status, notify=False, note=note)
        elif not result.success and locked.status == PaymentStatus.AWAITING:
            locked.status = PaymentStatus.FAILED
            locked.transaction_id = result.transaction_id
            locked.save(update_fields=["status", "transaction_id", "updated_at"])
            order_payment_failed(order=locked.order,
                                 note=note_write(notes.PAYMENT_DECLINED, reference=result.transaction_id))
    payment.refresh_from_db()
    return payment


def _kiosk_still_open(payment: Payment, result: TransactionResult) -> bool:
    """Whether `payment` was reported pending (a kiosk reference) by a transaction other than `result`'s: that
    reference stays payable whatever became of another try on the same page."""
    report = order_pending_report(payment.order)
    return report is not None and report.payment_id == payment.pk and report.transaction_id != result.transaction_id


def _amount_to_check(payment: Payment, result: TransactionResult, kind: str) -> Payment:
    """A successful payment of another amount or currency than `payment`'s: recorded once (acknowledged, so
    the provider stops sending it) and flagged on the order for staff, who find the money in the provider's
    dashboard. The payment stays as it was: the order is not paid by what does not cover it."""
    with transaction.atomic():
        try:
            with transaction.atomic():
                PaymentEvent.objects.create(payment=payment, kind=f"{kind}-mismatch",
                                            transaction_id=result.transaction_id, success=True, payload=result.raw)
        except IntegrityError:
            return payment
        order_amount_to_check(order=payment.order, note=f"{payment.provider} {result.transaction_id}: "
                                                        f"{result.amount_cents} piasters in {result.currency or '?'}")
    return payment


def _money_returned(locked: Payment, result: TransactionResult) -> None:
    """A refund or void reported for `locked` (held): money returned, never money received.

    A refund transaction of the paid payment's transaction, or a void of one of those refunds, or that
    transaction reported voided, settles the payment from what the signature covers (_returns_settle).
    The payment's transaction reported refunded is recorded only: its total is unsigned, and the refund
    transactions it totals come on their own. Anything else is flagged on the order for staff to check
    in Paymob, and changes nothing else: a return for a payment not recorded as paid (its success
    callback missed: settled once it is), a refund of a transaction that is neither, a void of a refund
    another transaction voided already (whatever the payment's state: a void is told by its transaction id,
    and one reported again is ignored before this), or a void of a refund after the payment was refunded in
    full (that one also lowers what the order records as returned, the customer is told, and the payment is
    paid again: _full_refund_voided).
    """
    paid_by = locked.transaction_id if locked.status in (PaymentStatus.PAID, PaymentStatus.REFUNDED) else None
    if result.returns == "refund" and not result.success:
        return  # a refund that failed returned nothing
    if result.returns == "refunded" and paid_by is not None:
        logger.info("payment %s: reported refunded, %s piasters in all", locked.payment_id, result.claimed_cents)
        return
    if result.returns == "voided" and result.transaction_id == paid_by:
        _returns_settle(locked, voided=True)
        return
    voids_a_refund = paid_by is not None and result.returns_transaction in _refunds(locked, paid_by)
    if voids_a_refund and _voided_before(locked, result):
        # the refund was voided already, by another transaction: that money stayed with the shop once, and
        # cannot stay again, so nothing is recorded and nobody told; staff check it in Paymob, whatever the
        # payment's state (a replay of the same void is its transaction id again: ignored by _apply)
        order_refund_to_check(order=locked.order, note=f"void {result.transaction_id} of refund "
                                                       f"{result.returns_transaction}, voided already "
                                                       f"({result.amount_cents} piasters, payment {locked.status})")
        return
    if result.returns == "refund" and paid_by is not None and (
            result.returns_transaction == paid_by or (voids_a_refund and locked.status == PaymentStatus.PAID)):
        _returns_settle(locked)
        return
    order_refund_to_check(order=locked.order, note=f"{result.returns} {result.transaction_id} "
                                                   f"({result.amount_cents} piasters, payment {locked.status})")
    if voids_a_refund and paid_by is not None and locked.status == PaymentStatus.REFUNDED:
        _full_refund_voided(locked, paid_by)


def _full_refund_voided(payment: Payment, paid_by: str) -> None:
    """A refund of the refunded (held) `payment` voided afterwards: that money stays with the shop, which
    thought it returned. The payment is paid again when its refunds no longer return all of it, so that a
    refund made later is recorded as any other (_returns_settle settles paid payments only), and the order
    records what its refunds still return, which tells the customer, told of the refund, that its amount
    will not come back after all, audits it, and makes the order paid again (order_refund_record: once, a
    replayed void adds nothing). Staff check the void in the provider's dashboard (the caller flags it).
    Not when the payment's own transaction was voided: that returned it all."""
    if payment.events.filter(transaction_id=f"{paid_by}/voided").exists():
        return
    full = to_minor_units(payment.amount)
    returned = min(max(sum(_refunds(payment, paid_by).values()), 0), full)  # a refund voided twice returns nothing
    if returned < full:
        payment.status = PaymentStatus.PAID
        payment.save(update_fields=["status", "updated_at"])
    order_refund_record(order=payment.order, returned=quantize(Decimal(returned) / 100), paid_again=returned < full)


def _refund_children(payment: Payment) -> dict[str, TransactionResult]:
    """{transaction id: result} of `payment`'s recorded refund and void transactions, each once (by its id),
    whichever way (callback, redirect, inquiry) it came."""
    return {event.transaction_id: transaction_result(event.payload)
            for event in payment.events.filter(kind__endswith="-refund", success=True)}


def _refunds(payment: Payment, paid_by: str) -> dict[str, int]:
    """{transaction id: piasters} of the recorded refund transactions of `paid_by`, less the voids of each:
    never below nothing (a refund voided twice, which _money_returned flags, leaves the others as they are)."""
    children = _refund_children(payment)
    refunds = {tx: child.amount_cents for tx, child in children.items() if child.returns_transaction == paid_by}
    for child in children.values():
        if child.returns_transaction in refunds:  # a refund voided the same day: that money stayed
            refunds[child.returns_transaction] -= child.amount_cents
    return {tx: max(cents, 0) for tx, cents in refunds.items()}


def _voided_before(payment: Payment, result: TransactionResult) -> bool:
    """Whether the refund that `result` (a void) voids had been voided by another transaction before it."""
    return any(child.returns_transaction == result.returns_transaction
               for tx, child in _refund_children(payment).items() if tx != result.transaction_id)


def _returns_settle(payment: Payment, *, voided: bool = False) -> None:
    """Turn the paid (held) `payment` refunded once its recorded refunds add up to all of it, or once it
    is voided; a part returned is written to the audit log and the payment stays paid."""
    if payment.status != PaymentStatus.PAID:
        return  # all of it was returned already
    # its transaction may have been reported voided before it was reported paid (callbacks cross)
    voided = voided or payment.events.filter(transaction_id=f"{payment.transaction_id}/voided").exists()
    returned = sum(_refunds(payment, payment.transaction_id).values())
    if not voided and returned < to_minor_units(payment.amount):
        if returned > 0:
            order_partly_refunded(order=payment.order, returned=quantize(Decimal(returned) / 100))
        elif Order.objects.filter(pk=payment.order_id, refunded_amount__gt=0).exists():
            # every refund made was voided since: none of that money comes back after all
            order_refund_record(order=payment.order, returned=Decimal("0.00"))
        return
    payment.status = PaymentStatus.REFUNDED
    payment.save(update_fields=["status", "updated_at"])
    # the order, not shipped yet, is flagged for staff to cancel it rather than send it (one audit entry)
    order_refund_record(order=payment.order, returned=payment.amount, in_full=True)
    # a cancelled order's money owed back is settled; a flag staff settle by a check stays open
    order_attention_settle(order=payment.order)


def callback_process(*, provider_name: str, body: object, received_hmac: object,
                     kind: str = "callback") -> Payment | None:
    """Verify and apply a transaction callback body (already parsed JSON).

    403 when the HMAC is missing or wrong; 400 when the body is malformed,
    names no payment of ours, or its amount/currency differ from the order's.
    Repeats of a transaction change nothing.
    """
    if not isinstance(body, dict):
        raise CallbackRejected("body is not an object")
    if body.get("type") == "TOKEN":
        return None  # saved-card tokens: we do not store cards
    obj = body.get("obj") if "obj" in body else body
    if not isinstance(obj, dict):
        raise CallbackRejected("obj missing")
    provider = get_provider(provider_name)
    # only the providers that sign their callbacks (Paymob, the sandbox) have a secret
    verified = hmac_verify(obj, received_hmac, getattr(provider, "hmac_secret", ""))
    try:
        result = transaction_result(obj)
    except PaymentError as exc:
        if not verified:
            logger.warning("%s callback with a bad HMAC rejected", provider_name)
            raise CallbackRejected("bad hmac", status=403) from None
        raise CallbackRejected(exc.message) from None
    ours = Payment.objects.filter(provider=provider_name, provider_order_id=result.provider_order_id)
    if not verified:
        logger.warning("%s callback with a bad HMAC rejected", provider_name)
        payment = ours.first()
        if payment is not None:  # perhaps the provider itself, signing with a secret that is not ours
            _unverified_callback_keep(payment, result)
        raise CallbackRejected("bad hmac", status=403)
    Heartbeat.objects.filter(name=bad_hmac_mark(provider_name)).delete()
    payment = ours.select_related("order").first()
    if payment is None:
        logger.warning("%s callback for unknown order id %s", provider_name, result.provider_order_id)
        raise CallbackRejected("unknown order")
    if not _integration_ours(provider, result, payment):
        logger.warning("%s callback from integration %s, not one of ours, rejected", provider_name,
                       result.integration_id)
        raise CallbackRejected("integration not ours")
    return _apply(payment, result, kind)


def signed_redirect(*, payment: Payment, params: Mapping[str, Any] | None) -> TransactionResult | None:
    """The transaction that the provider's redirect parameters report for `payment`, if they carry
    its valid signature (the browser came back from paying it); else None."""
    secret = getattr(get_provider(payment.provider), "hmac_secret", "")
    if not (params and params.get("hmac") and secret):
        return None
    flat = {k: v for k, v in params.items() if k != "hmac"}
    if not hmac_verify(flat, params.get("hmac"), secret):
        return None
    try:
        result = transaction_result(flat)
    except PaymentError:
        return None
    if not _integration_ours(get_provider(payment.provider), result, payment):
        return None
    return result if result.provider_order_id == payment.provider_order_id else None


def _integration_ours(provider: object, result: TransactionResult, payment: Payment) -> bool:
    """Whether a signed report that anyone may send us (a callback, redirect parameters) comes from one of
    the provider's own integrations (PaymobProvider.integration_ours). Money going back is not asked:
    a payer's signed payment cannot be reshaped into one, and a refund made in the provider's dashboard is
    always recorded. An inquiry's answer comes from the provider itself and is not asked either: an order
    in flight while the integrations were changed is still recorded by it."""
    check = getattr(provider, "integration_ours", None)
    return check is None or bool(result.returns) or check(result, payment)


# seconds between two inquiries a visitor's page makes about one payment; meanwhile its stored state answers
# (the callback keeps it current), so however often a return page or a script asks, the provider hears rarely
INQUIRY_INTERVAL = 5


def _asked_recently(payment: Payment) -> bool:
    """True when the provider was asked about `payment` for a visitor less than INQUIRY_INTERVAL ago; else
    count this one. `add` is atomic, so of requests arriving together one asks. A cache that is down (add
    fails, get misses) never stops an inquiry, as rate limits are not applied then (shop/cache.py)."""
    key = f"payments:inquired:{payment.pk}"
    return not cache.add(key, True, INQUIRY_INTERVAL) and cache.get(key) is not None


def payment_verify(*, payment: Payment, params: Mapping[str, Any] | None = None, for_visitor: bool = False,
                   provider_must_answer: bool = False) -> Payment:
    """Bring `payment` up to date: signed redirect params first, else ask the provider.

    Return the payment. Never trusts unsigned query parameters. `for_visitor`: a page asking (the return
    page's polling, or anyone's script), for which the provider is asked at most once every
    INQUIRY_INTERVAL per payment; the expiry job always asks. A provider that cannot answer (down, slow,
    an answer that is no answer) leaves the payment as it is; with `provider_must_answer` (the expiry job,
    which must not take that for "not paid") its PaymentError is raised on, unless it is permanent (its
    credentials refused: asking again will not help).
    """
    if payment.status != PaymentStatus.AWAITING:
        return payment
    provider = get_provider(payment.provider)
    result = signed_redirect(payment=payment, params=params)
    if result is not None:
        try:
            return _apply(payment, result, "redirect")
        except CallbackRejected:
            return payment
    if for_visitor and _asked_recently(payment):
        return payment
    try:
        result = provider.inquire(payment=payment)
    except PaymentError as exc:
        logger.error("payment inquiry failed for order %s: %s", payment.order.number, exc.message)
        if provider_must_answer and not exc.permanent:
            raise
        return payment
    if result is not None and result.provider_order_id == payment.provider_order_id:
        _unverified_callback_confirm(payment, result)
        try:
            return _apply(payment, result, "inquiry")
        except CallbackRejected:
            return payment
    return payment
