from django.core.management.base import BaseCommand

from shop.mail import mail_retry
from shop.models import OutboundEmail, OutboundEmailStatus
from shop.outbox import outbox_send_due


class Command(BaseCommand):
    help = ("Send every e-mail in the outbox that is due now, without Celery "
            "(for cron while the broker is down; beat does the same every minute).")

    def add_arguments(self, parser):
        parser.add_argument("--retry-failed", action="store_true",
                            help="First give every failed e-mail a fresh set of attempts.")

    def handle(self, *args, **options):
        if options["retry_failed"]:
            for email in OutboundEmail.objects.filter(status=OutboundEmailStatus.FAILED):
                mail_retry(email=email)
        sent = outbox_send_due(limit=10_000, budget=None)
        waiting = OutboundEmail.objects.filter(status=OutboundEmailStatus.QUEUED).count()
        failed = OutboundEmail.objects.filter(status=OutboundEmailStatus.FAILED).count()
        self.stdout.write(f"{sent} sent, {waiting} waiting for a retry, {failed} given up")
