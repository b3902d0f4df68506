"""The e-mail backend of a shop in production with no mail server set (EMAIL_HOST empty).

Django's console backend would write each whole mail (names, addresses, password-reset links) to the
worker's output, which is its log. This one sends nothing and writes nothing: every attempt fails with
`MailServerMissing`, so the outbox (shop.outbox) keeps the mail queued, retries it as it would a mail
server that is down, and gives it up as failed after EMAIL_MAX_ATTEMPTS, with this reason as its last
error for the dashboard's list of failed mail and `manage.py doctor`. Once EMAIL_HOST is set, the mail
still waiting goes on the next sweep and staff send the failed ones again.
"""

from django.core.mail.backends.base import BaseEmailBackend

REASON = ("No mail server is set (EMAIL_HOST is empty), so this e-mail was kept in the outbox, not sent: "
          "set EMAIL_HOST and its account, then it goes out (send a failed one again from the dashboard).")


class MailServerMissing(Exception):
    """Nothing can be sent: the shop has no mail server."""


class NoMailServerBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        if self.fail_silently or not email_messages:  # Django's own error mail to ADMINS asks to fail quietly
            return 0
        raise MailServerMissing(REASON)
