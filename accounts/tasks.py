from celery import shared_task

from accounts import emails
from accounts.models import User


@shared_task
def password_reset_email_send(*, user_id, base_url):
    """Send the reset link (a task, so the answer takes as long with or without an account)."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is not None:
        emails.password_reset_email(user=user, base_url=base_url)
