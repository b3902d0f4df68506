"""Staff actions on e-mail the outbox gave up on."""

from django.db import transaction

from backoffice.audit import audit_record
from shop.mail import mail_retry

# Who sees failed e-mails (recipients, subjects, server errors) and may resend them:
# the roles that run the store's settings, the Owner and the Manager.
MAIL_AREA = "settings"


def failed_email_retry(*, actor, email):
    """Send a failed e-mail again with a fresh set of attempts, and record who asked."""
    with transaction.atomic():
        mail_retry(email=email)
        audit_record(actor=actor, action="email.retry", details=f"{email.to}: {email.subject}", target=email)
    return email
