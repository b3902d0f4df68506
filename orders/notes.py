"""The notes the shop writes itself in an order's status history, in one place.

Each is stored in English, as written (`note_write`), and read in the reader's language
(`orders.selectors.status_note_text`), which matches a stored note against these same texts: rewording one
here changes what is written and what is read together, and its Arabic text in orders/locale is looked up by
it (a reworded note needs its Arabic text again; orders/tests/test_notes.py fails until it has one). Rows
written before a note was reworded keep the old English, shown as written.

A value a note carries (the provider and its transaction id, a number of hours) is a named placeholder,
kept as written when read.
"""

from functools import cache

from django.utils.translation import gettext_noop

from shop.stored_texts import Patterns, stored_text_patterns, stored_text_placeholders, stored_text_write

ORDER_PLACED = gettext_noop("Order placed")
PAYMENT_RECEIVED = gettext_noop("Payment received")
PAYMENT_FAILED = gettext_noop("Payment failed")
CASH_ON_DELIVERY = gettext_noop("Cash on delivery")
NOTHING_TO_PAY = gettext_noop("Nothing to pay: the coupon covers the order")
PAYMENT_PAGE_UNMADE = gettext_noop("Its payment page could not be made; another order was placed")
REPLACED_BY_COD = gettext_noop("Replaced by a cash-on-delivery order of the same cart")
REPLACED_BY_COD_UNANSWERED = gettext_noop(
    "Replaced by a cash-on-delivery order of the same cart while Paymob could not say whether it was paid: kept "
    "for the expiry job to ask again; its stock went to the new order")
CANCELLED_FOR_ANOTHER_WAY = gettext_noop(
    "Cancelled by its customer at checkout, to pay another way than at the kiosk")
UNPAID_30_MINUTES = gettext_noop("Unpaid for 30 minutes")
UNPAID_KIOSK = gettext_noop("Unpaid for %(hours)s hours, its payment reported pending (kiosk)")
UNPAID_PROVIDER_SILENT = gettext_noop(
    "Unpaid for %(hours)s hours; %(provider)s could not be asked whether it was paid (%(reason)s)")
PAID = gettext_noop("Paid (%(reference)s)")
PAID_AFTER_DECLINE = gettext_noop("Paid after a decline (%(reference)s)")
PAYMENT_DECLINED = gettext_noop("Payment declined (%(reference)s)")
PAYMENT_DECLINED_KIOSK_OPEN = gettext_noop(
    "Payment declined (%(reference)s); its kiosk reference still awaits the cash")

SYSTEM_NOTES = (
    ORDER_PLACED, PAYMENT_RECEIVED, PAYMENT_FAILED, CASH_ON_DELIVERY, NOTHING_TO_PAY, PAYMENT_PAGE_UNMADE,
    REPLACED_BY_COD, REPLACED_BY_COD_UNANSWERED, CANCELLED_FOR_ANOTHER_WAY, UNPAID_30_MINUTES, UNPAID_KIOSK,
    UNPAID_PROVIDER_SILENT, PAID, PAID_AFTER_DECLINE, PAYMENT_DECLINED, PAYMENT_DECLINED_KIOSK_OPEN,
)



def note_placeholders(note: str) -> list[str]:
    """The names of the values `note` (one of SYSTEM_NOTES) carries."""
    return stored_text_placeholders(note)


def note_write(note: str, **values: object) -> str:
    """`note` (one of SYSTEM_NOTES) as stored: in English, with its `values`."""
    return stored_text_write(note, **values)


@cache
def note_patterns() -> Patterns:
    """(pattern matching a stored note, its note) for each of SYSTEM_NOTES (shop.stored_texts)."""
    return stored_text_patterns(SYSTEM_NOTES)
