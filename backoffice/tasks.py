"""Background jobs of the dashboard."""

from celery import shared_task

from backoffice.alerts import daily_summary_send


@shared_task(ignore_result=True)
def daily_summary_task():
    """Beat, every morning: the daily summary to staff who opted in (once per day however often it runs)."""
    return daily_summary_send()
