"""The sentences the shop writes in the audit log's details, in one place (shop.stored_texts).

Each is stored in English, as written (`audit_text`), and read in the reader's language on the overview's
recent activity (`audit_details_text`), which matches a stored entry against these same texts: rewording
one here changes what is written and what is read together (a reworded one needs its Arabic text again in
backoffice/locale; backoffice/tests/test_audit_texts.py fails until it has one). Entries written before a
sentence was reworded, and details that are data (a product's title, an e-mail address), are shown as
written.

A value a sentence carries is a named placeholder: an order's number, an amount, a username, kept as
written; a status-history note inside one (`note`) is read as that note is (orders.selectors.status_note_text),
an order's status (`status`) by its name.
"""

from functools import cache

from django.utils.translation import gettext_noop

from orders.models import OrderStatus
from orders.selectors import status_note_text
from shop.models import ContactMessageStatus
from shop.stored_texts import Patterns, stored_text_patterns, stored_text_read, stored_text_write

# orders.actions: the flags raised for staff, and the changes of an order's refunded total
CAPTURED_ON_CANCELLED = gettext_noop(
    "%(number)s: %(amount)s EGP captured on a cancelled order (%(reason)s; %(note)s). Refund it or restore the "
    "order.")
PAID_AFTER_REPLACED_STOCK_HELD = gettext_noop(
    "%(number)s: paid by card (%(note)s), %(amount)s EGP, after its customer ordered the same cart on delivery "
    "as %(other)s while Paymob could not say whether it was paid. It holds its stock again. Ship one and cancel "
    "the other (refund this payment in Paymob if you cancel this one).")
PAID_AFTER_REPLACED_NO_STOCK = gettext_noop(
    "%(number)s: paid by card (%(note)s), %(amount)s EGP, after its customer ordered the same cart on delivery "
    "as %(other)s while Paymob could not say whether it was paid. It holds no stock (%(problem)s): count it by "
    "hand if you ship both. Ship one and cancel the other (refund this payment in Paymob if you cancel this "
    "one).")
REFUND_DUE = gettext_noop(
    "%(number)s: cancelled with %(amount)s EGP paid. Refund it in the payment provider's dashboard.")
REFUND_DUE_CASH = gettext_noop(
    "%(number)s: cancelled with %(amount)s EGP paid in cash on delivery. Give it back in cash, then record it "
    "(Record cash refund).")
PAID_TWICE = gettext_noop(
    "%(number)s: paid a second time (%(note)s), %(amount)s EGP more. Refund one of the two payments in Paymob.")
PENDING_AFTER_CANCEL = gettext_noop(
    "%(number)s: Paymob reports a kiosk payment pending (%(note)s) on this cancelled order. Restore it so the "
    "cash lands on it, or tell the customer not to pay.")
REFUNDED_UNSHIPPED = gettext_noop(
    "%(number)s: %(added)s EGP returned through the payment provider; all of its %(total)s EGP is refunded now, "
    "before it shipped. Cancel it, or ship it only if the customer pays again.")
REFUNDED_UNSHIPPED_CASH = gettext_noop(
    "%(number)s: %(added)s EGP returned in cash (recorded by %(username)s); all of its %(total)s EGP is refunded "
    "now, before it shipped. Cancel it, or ship it only if the customer pays again.")
REFUNDED_UNSHIPPED_BEFORE = gettext_noop(
    "%(number)s: all of its %(total)s EGP was refunded before it shipped. Cancel it, or ship it only if the "
    "customer pays again.")
REFUND_VOIDED = gettext_noop(
    "%(number)s: a refund of %(voided)s EGP was voided in the payment provider; %(returned)s of %(total)s EGP is "
    "returned now.")
REFUND_VOIDED_PAID_AGAIN = gettext_noop(
    "%(number)s: a refund of %(voided)s EGP was voided in the payment provider; %(returned)s of %(total)s EGP is "
    "returned now. The order is paid again.")
REFUNDED = gettext_noop(
    "%(number)s: %(added)s EGP returned through the payment provider; all of its %(total)s EGP is refunded now.")
REFUNDED_CASH = gettext_noop(
    "%(number)s: %(added)s EGP returned in cash (recorded by %(username)s); all of its %(total)s EGP is refunded "
    "now.")
PARTLY_REFUNDED = gettext_noop(
    "%(number)s: %(returned)s of %(total)s EGP returned through the payment provider; the rest stays paid.")
PARTLY_REFUNDED_CASH = gettext_noop(
    "%(number)s: %(returned)s of %(total)s EGP returned in cash (recorded by %(username)s); the rest stays paid.")
REFUND_TO_CHECK = gettext_noop(
    "%(number)s: the payment provider reports money returned that does not match this order's paid payment "
    "(%(note)s). Check it in the provider's dashboard.")
AMOUNT_TO_CHECK = gettext_noop(
    "%(number)s: the payment provider reports a payment of another amount or currency than its %(amount)s EGP "
    "(%(note)s). Check it in the provider's dashboard: refund it, or settle the difference with the customer.")

# backoffice.orders: a status set by staff (its statuses read by their names; the arrow points the reader's
# way), "Mark as checked"
ORDER_STATUS = gettext_noop("%(number)s: %(previous)s → %(status)s")
REFUND_CHECKED = gettext_noop(
    "%(number)s: money returned checked in the payment provider's dashboard (status %(status)s kept)")
PAID_TWICE_CHECKED = gettext_noop(
    "%(number)s: second payment checked in the payment provider's dashboard (status %(status)s kept)")
AMOUNT_CHECKED = gettext_noop(
    "%(number)s: payment of another amount checked in the payment provider's dashboard (status %(status)s kept)")
PAID_AFTER_REPLACED_CHECKED = gettext_noop(
    "%(number)s: card order and its cash-on-delivery replacement checked, one to ship and the other cancelled "
    "(status %(status)s kept)")

# backoffice.two_step
TWO_STEP_ON = gettext_noop("Two-step sign-in turned on for %(username)s")
TWO_STEP_OFF = gettext_noop("Two-step sign-in turned off by %(username)s")
TWO_STEP_RESET = gettext_noop("Two-step sign-in reset for %(username)s")

# importer.services: a crawl started that may accept fewer products than its pages
CRAWL_FEWER_ACCEPTED = gettext_noop("%(url)s (%(pages)s, fewer products accepted)")

# backoffice.database, backoffice.storage
DATABASE_INIT = gettext_noop("migrations applied: %(applied)s, categories created: %(created)s")
DATABASE_INIT_PARTIAL = gettext_noop("partial")
ALL_TABLES = gettext_noop("all tables")
STORAGE_ON = gettext_noop("enabled=True, interval=%(interval)s min")
STORAGE_OFF = gettext_noop("enabled=False, interval=%(interval)s min")

AUDIT_TEXTS = (
    CAPTURED_ON_CANCELLED, PAID_AFTER_REPLACED_STOCK_HELD, PAID_AFTER_REPLACED_NO_STOCK, REFUND_DUE, REFUND_DUE_CASH,
    PAID_TWICE,
    PENDING_AFTER_CANCEL, REFUNDED_UNSHIPPED, REFUNDED_UNSHIPPED_CASH, REFUNDED_UNSHIPPED_BEFORE, REFUND_VOIDED,
    REFUND_VOIDED_PAID_AGAIN, REFUNDED, REFUNDED_CASH, PARTLY_REFUNDED, PARTLY_REFUNDED_CASH, REFUND_TO_CHECK,
    AMOUNT_TO_CHECK, ORDER_STATUS, REFUND_CHECKED, PAID_TWICE_CHECKED, AMOUNT_CHECKED, PAID_AFTER_REPLACED_CHECKED,
    TWO_STEP_ON, TWO_STEP_OFF,
    TWO_STEP_RESET, DATABASE_INIT, DATABASE_INIT_PARTIAL, ALL_TABLES, STORAGE_ON, STORAGE_OFF,
    CRAWL_FEWER_ACCEPTED,
)

# Each action's own sentences: an entry is read only by the texts its action writes, so data another action
# stores ("Kenya Gold: 10 → 5", a stock count) is never read as a sentence it happens to look like.
ACTION_TEXTS: dict[str, tuple[str, ...]] = {
    "order.captured_on_cancelled": (CAPTURED_ON_CANCELLED,),
    "order.paid_after_replaced": (PAID_AFTER_REPLACED_STOCK_HELD, PAID_AFTER_REPLACED_NO_STOCK),
    "order.refund_due": (REFUND_DUE, REFUND_DUE_CASH),
    "order.paid_twice": (PAID_TWICE,),
    "order.pending_after_cancel": (PENDING_AFTER_CANCEL,),
    "order.refunded_unshipped": (REFUNDED_UNSHIPPED, REFUNDED_UNSHIPPED_CASH, REFUNDED_UNSHIPPED_BEFORE),
    "order.refund_voided": (REFUND_VOIDED, REFUND_VOIDED_PAID_AGAIN),
    "order.refunded": (REFUNDED, REFUNDED_CASH),
    "order.partly_refunded": (PARTLY_REFUNDED, PARTLY_REFUNDED_CASH),
    "order.refund_to_check": (REFUND_TO_CHECK,),
    "order.amount_to_check": (AMOUNT_TO_CHECK,),
    "order.status": (ORDER_STATUS,),
    # backoffice.inbox: a contact message's status, the same shape ("mona@example.com: new → replied")
    "message.status": (ORDER_STATUS,),
    "order.refund_checked": (REFUND_CHECKED,),
    "order.paid_twice_checked": (PAID_TWICE_CHECKED,),
    "order.amount_checked": (AMOUNT_CHECKED,),
    "order.paid_after_replaced_checked": (PAID_AFTER_REPLACED_CHECKED,),
    "staff.two_step_on": (TWO_STEP_ON,),
    "staff.two_step_off": (TWO_STEP_OFF,),
    "staff.two_step_reset": (TWO_STEP_RESET,),
    "importer.crawl_start": (CRAWL_FEWER_ACCEPTED,),
    "database.init": (DATABASE_INIT, DATABASE_INIT_PARTIAL),
    "storage.refresh": (ALL_TABLES,),
    "storage.clear": (ALL_TABLES,),
    "storage.config": (STORAGE_ON, STORAGE_OFF),
}


def audit_text(text: str, **values: object) -> str:
    """`text` (one of AUDIT_TEXTS) as an entry's details are stored: in English, with its `values`."""
    return stored_text_write(text, **values)


@cache
def _patterns(action: str) -> Patterns:
    return stored_text_patterns(ACTION_TEXTS.get(action, ()))


def _status_name(status: str) -> str:
    for statuses in (OrderStatus, ContactMessageStatus):  # an order's, a contact message's (backoffice.inbox)
        if status in statuses.values:
            return str(statuses(status).label)
    return status


def _note(note: str) -> str:
    return status_note_text(note, by_staff=False)


def audit_details_text(details: str, action: str) -> str:
    """An audit entry's details as the reader reads them: a sentence its `action` writes (ACTION_TEXTS) in
    the active language, anything else (data, an entry of a sentence no longer written) as written."""
    read = stored_text_read(details, _patterns(action), {"note": _note, "status": _status_name,
                                                   "previous": _status_name})
    return details if read is None else read
