"""E-mail backends for tests: a mail server that hangs up, and one that turns a recipient away."""

import smtplib

from django.core.mail.backends.base import BaseEmailBackend


class RefusingBackend(BaseEmailBackend):
    """Every send fails the way a mail server that hangs up does (the server is the problem)."""

    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


class RecipientRefusingBackend(BaseEmailBackend):
    """Every send fails the way a refused recipient does (the message is the problem)."""

    def send_messages(self, email_messages):
        raise smtplib.SMTPRecipientsRefused({"x@example.com": (451, b"try again later")})
