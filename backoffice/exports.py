"""CSV exports of the dashboard (newsletter subscribers, orders)."""

import csv
import io

from django.utils import timezone

SUBSCRIBER_COLUMNS = ["email", "status", "language", "subscribed_at"]
# a cell starting with one of these runs as a formula in spreadsheet programs
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value):
    text = str(value)
    return f"'{text}" if text.startswith(_FORMULA_START) else text


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
    yield flush()
    for row in rows:
        writer.writerow(row)
        yield flush()


def subscribers_csv(*, subscribers):
    """Yield the CSV text of `subscribers`, a header line first, row by row."""
    return _csv_rows(SUBSCRIBER_COLUMNS, (
        [
            _cell(subscriber.email),
            "active" if subscriber.is_active else "unsubscribed",
            subscriber.language,
            timezone.localtime(subscriber.created_at).isoformat(timespec="seconds"),
        ]
        for subscriber in subscribers.iterator()
    ))


ORDER_COLUMNS = ["number", "created_at", "customer", "email", "phone", "status", "payment_status",
                 "payment_method", "total", "test", "needs_attention"]


def orders_csv(*, orders):
    """Yield the CSV text of `orders`; `test` marks test-page orders (never revenue)."""
    return _csv_rows(ORDER_COLUMNS, (
        [
            order.number,
            timezone.localtime(order.created_at).isoformat(timespec="seconds"),
            _cell(order.customer_name), _cell(order.email), _cell(order.phone),
            order.status, order.payment_status, order.payment_method, f"{order.total_amount:.2f}",
            "yes" if order.is_test else "no", "yes" if order.needs_attention else "no",
        ]
        for order in orders.iterator()
    ))
