"""Back-in-stock e-mails hear of stock changes through the catalogue's one hook.

`catalog.signals.stock_changed` is sent by every write that sets Product.stock
(`ProductQuerySet.update` and `Product.save`: sales, cancelled orders, staff
corrections, product saves, imports). This receiver queues one job after the
surrounding transaction commits (`catalog.tasks.stock_changed_task`), which
sends the confirmed alerts of products that have stock again
(`catalog.stock_alerts.stock_alerts_send`). A job the broker could not take is
caught by the hourly sweep.
"""

from collections.abc import Iterable
from functools import partial
from typing import Any

from django.db import transaction

from shop.queue import enqueue


def on_stock_changed(sender: object, product_ids: Iterable[int], **kwargs: Any) -> None:
    ids = sorted({int(pk) for pk in product_ids if pk})
    if ids:
        transaction.on_commit(partial(_queue, ids))


def _queue(ids: list[int]) -> None:
    # by path: catalog.tasks imports the services whose writes send the signal
    enqueue("catalog.tasks.stock_changed_task", ids)
