from celery import shared_task

from accounts.services import sign_ins_prune


@shared_task(ignore_result=True)
def sign_ins_prune_task():
    """Delete expired sessions and API tokens (beat, daily)."""
    return sign_ins_prune()
