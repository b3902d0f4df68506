"""The reset e-mail leaves through real SMTP, and its link works."""

import re

import pytest
from django.test import override_settings

from shop.tests.smtp_server import SmtpServer

pytestmark = pytest.mark.django_db


def test_the_reset_e_mail_travels_over_smtp_and_its_link_resets_the_password(client, alice,
                                                                             django_capture_on_commit_callbacks):
    # given
    with SmtpServer() as server, override_settings(
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1", EMAIL_PORT=server.port, EMAIL_USE_TLS=False, EMAIL_USE_SSL=False,
        EMAIL_HOST_USER="", EMAIL_HOST_PASSWORD="", EMAIL_TIMEOUT=5,
    ):
        # when
        with django_capture_on_commit_callbacks(execute=True):
            client.post("/forgot-password", {"email": "alice@example.com"})

    # then
    assert len(server.messages) == 1
    received = server.messages[0]
    assert received["to"] == ["alice@example.com"]
    message = received["message"]
    assert message["To"] == "alice@example.com"
    assert "Reset your Nile Highlands Tea password" in message["Subject"]
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    path = re.search(r"http://testserver(/reset-password\?token=[\w.\-]+)", text).group(1)
    assert path in html

    page = client.get(path)
    assert "accounts/reset_password.html" in [t.name for t in page.templates]
    token = path.split("token=")[1]
    done = client.post("/reset-password", {"token": token, "password": "Over-the-wire-9",
                                           "confirmPassword": "Over-the-wire-9"})
    assert "Password Reset Complete" in done.content.decode()
    alice.refresh_from_db()
    assert alice.check_password("Over-the-wire-9")
