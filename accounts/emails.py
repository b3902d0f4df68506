"""Account e-mails, written in the customer's language."""

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from shop.mail import mail_queue
from shop.paths import localized_path
from shop.store_settings import store_settings_get


def _link(base_url, language, path):
    return f"{base_url.rstrip('/')}{localized_path(path, language)}"


def password_reset_email(*, user, token, base_url):
    """Queue for `user` the single-use link to /reset-password carrying `token`."""
    language = user.language if user.language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
    with translation.override(language):
        context = {
            "user": user,
            "store": store_settings_get(),
            "reset_url": _link(base_url, language, f"/reset-password?token={token}"),
            "LANG": language,
            "DIR": "rtl" if language == "ar" else "ltr",
        }
        subject = render_to_string("accounts/email/password_reset_subject.txt", context).strip()
        text = render_to_string("accounts/email/password_reset.txt", context)
        html = render_to_string("accounts/email/password_reset.html", context)
    mail_queue(to=user.email, subject=subject, text=text, html=html, language=language)


def email_changed_email(*, user, old_email):
    """Tell `old_email` that the account's e-mail address is now `user.email` (changed by the shop's staff):
    if the customer did not ask for it, they know to contact the shop before anyone uses the new address."""
    language = user.language if user.language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
    with translation.override(language):
        context = {"user": user, "store": store_settings_get(), "LANG": language}
        subject = render_to_string("accounts/email/email_changed_subject.txt", context).strip()
        text = render_to_string("accounts/email/email_changed.txt", context)
    mail_queue(to=old_email, subject=subject, text=text, language=language)
