"""Background work for the catalogue: what follows a stock change (catalog.stock_events)."""

from celery import shared_task

from catalog.stock_alerts import stock_alerts_send, stock_alerts_sweep


@shared_task(ignore_result=True)
def stock_changed_task(product_ids: list[int]) -> int:
    """A product's stock changed: send its back-in-stock e-mails."""
    return stock_alerts_send(product_ids=product_ids)


@shared_task(ignore_result=True)
def stock_alerts_sweep_task() -> int:
    """Hourly: alerts a missed hook left behind (the broker was down when the stock came back)."""
    return stock_alerts_sweep()
