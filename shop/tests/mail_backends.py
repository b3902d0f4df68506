"""E-mail backends for tests: a mail server that refuses, and one that refuses until told not to."""

import smtplib

from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend


class RefusingBackend(BaseEmailBackend):
    """Every send fails the way a mail server that hangs up does."""

    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


class FlakyBackend(LocmemBackend):
    """Refuses while `FlakyBackend.refusing` is true, then delivers to django.core.mail.outbox."""

    refusing = True

    def send_messages(self, email_messages):
        if FlakyBackend.refusing:
            raise smtplib.SMTPRecipientsRefused({"x": (451, b"try again later")})
        return super().send_messages(email_messages)
