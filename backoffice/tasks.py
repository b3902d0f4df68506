"""Background jobs of the dashboard."""

from celery import shared_task

from backoffice.alerts import daily_summary_send_due


@shared_task(ignore_result=True)
def daily_summary_task():
    """Beat, every hour: the daily summary to staff who opted in, from 07:00 in the store's time zone (once
    per day however often it runs)."""
    return daily_summary_send_due()
