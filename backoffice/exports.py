"""CSV exports of the dashboard (newsletter subscribers, orders, analytics).

Every export starts with a UTF-8 byte-order mark, so a spreadsheet program
opening the file reads Arabic names as Arabic rather than guessing a code page.
"""

import csv
import io

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from orders.models import OrderStatus, attention_reason_text
from shop.money import money_text
from shop.store_time import store_localdate, store_localtime

BOM = "\ufeff"

SUBSCRIBER_COLUMNS = ["email", "status", "language", "subscribed_at"]
# a cell starting with one of these runs as a formula in spreadsheet programs
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    """A cell a spreadsheet shows as text: a leading formula character gets an apostrophe."""
    text = str(value)
    return f"'{text}" if text.startswith(FORMULA_START) else text


def _csv_rows(header, rows):
    """Yield CSV text: the header line, then one line per row (streamed)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def flush():
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    writer.writerow(header)
    yield BOM + flush()
    for row in rows:
        writer.writerow(row)
        yield flush()


def subscribers_csv(*, subscribers):
    """Yield the CSV text of `subscribers`, a header line first, row by row."""
    return _csv_rows(SUBSCRIBER_COLUMNS, (
        [
            safe_cell(subscriber.email),
            subscriber.status,
            subscriber.language,
            store_localtime(subscriber.created_at).isoformat(timespec="seconds"),
        ]
        for subscriber in subscribers.iterator()
    ))


ORDER_COLUMNS = ["number", "created_at", "customer", "email", "phone", "status", "payment_status",
                 "payment_method", "total", "refunded", "test", "needs_attention", "attention_reasons"]


def _attention_text(order):
    """Why `order` is flagged, every open reason oldest first, in the active language ("" when none)."""
    return pgettext("between listed reasons", "; ").join(attention_reason_text(r) for r in order.attention_reasons)


def orders_csv(*, orders):
    """Yield the CSV text of `orders`; `test` marks test-page orders (never revenue), `attention_reasons` says
    in the staff member's language why an order needs attention."""
    return _csv_rows(ORDER_COLUMNS, (
        [
            order.number,
            store_localtime(order.created_at).isoformat(timespec="seconds"),
            safe_cell(order.customer_name), safe_cell(order.email), safe_cell(order.phone),
            order.status, order.payment_status, order.payment_method, money_text(order.total_amount),
            money_text(order.refunded_amount), "yes" if order.is_test else "no",
            "yes" if order.needs_attention else "no", _attention_text(order),
        ]
        for order in orders.iterator()
    ))



def _change(value):
    return "" if value is None else f"{value:+}"


def analytics_csv(*, data):
    """Yield the CSV text of what the analytics section shows for one period (`analytics_get`):
    one block per panel, blank lines between, headings in the active language. Revenue is what
    customers paid less refunds; product and category sales are after each order's coupon discount."""
    orders, products, previous, change = data["orders"], data["products"], data["previous"], data["change"]
    day = lambda moment: store_localdate(moment).isoformat()  # noqa: E731
    revenue, sales = _("Revenue (paid, after discounts and refunds)"), _("Sales after coupon discounts")
    summary = [
        [revenue, money_text(orders["revenue_this_month"]), money_text(previous["revenue"]),
         _change(change["revenue"])],
        [_("Orders"), orders["orders_this_month"], previous["orders"], _change(change["orders"])],
        [_("Average order value (after discounts and refunds)"), money_text(orders["average_order_value"]),
         money_text(previous["average_order_value"]), _change(change["average_order_value"])],
        [_("Active products"), products["total_products"], "", ""],
    ]
    blocks = [
        ([_("Figure"),
          _("This period (%(since)s to %(until)s)") % {"since": day(data["since"]), "until": day(data["until"])},
          _("Previous period (%(since)s to %(until)s)") % {"since": day(previous["since"]),
                                                           "until": day(previous["until"])},
          _("Change %")], summary),
        ([_("Status"), _("Orders")], [
            [label, orders["status_breakdown"][value]]
            for value, label in _status_labels()
        ]),
        ([_("Day"), revenue, _("Orders")], [
            [row["date"], money_text(row["revenue"]), row["orders"]] for row in orders["daily_orders"]
        ]),
        ([_("Top sellers"), _("Category"), _("Units sold"), sales], [
            [safe_cell(row["title"]), safe_cell(row["category_name"]), row["total_sold"], money_text(row["revenue"])]
            for row in products["top_selling_products"]
        ]),
        ([_("Category"), _("Products"), _("Units sold"), sales], [
            [safe_cell(row["name"]), row["product_count"], row["units_sold"], money_text(row["revenue"])]
            for row in products["category_breakdown"]
        ]),
    ]
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for index, (header, rows) in enumerate(blocks):
        if index:
            writer.writerow([])
        writer.writerow(header)
        writer.writerows(rows)
    return BOM + buffer.getvalue()


def _status_labels():
    return [(value, str(label)) for value, label in OrderStatus.choices]
