"""CSV exports of the dashboard (newsletter subscribers)."""

import csv
import io

from django.utils import timezone

SUBSCRIBER_COLUMNS = ["email", "status", "language", "subscribed_at"]
# a cell starting with one of these runs as a formula in spreadsheet programs
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value):
    text = str(value)
    return f"'{text}" if text.startswith(_FORMULA_START) else text


def subscribers_csv(*, subscribers):
    """Yield the CSV text of `subscribers`, a header line first, row by row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def flush():
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    writer.writerow(SUBSCRIBER_COLUMNS)
    yield flush()
    for subscriber in subscribers.iterator():
        writer.writerow([
            _cell(subscriber.email),
            "active" if subscriber.is_active else "unsubscribed",
            subscriber.language,
            timezone.localtime(subscriber.created_at).isoformat(timespec="seconds"),
        ])
        yield flush()
