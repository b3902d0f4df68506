"""Contact messages: stored for the dashboard and e-mailed to the store address."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from shop.errors import ShopError
from shop.mail import mail_queue
from shop.models import ContactMessage
from shop.store_settings import store_settings_get
from shop.validation import EMAIL_MAX, LINE_MAX, NAME_MAX, TEXT_MAX, clean_text

# the name and subject go into the e-mail's headers: single line
LIMITS = {"name": (NAME_MAX, False), "email": (EMAIL_MAX, False), "subject": (LINE_MAX, False),
          "message": (TEXT_MAX, True)}


class ContactError(ShopError):
    """A contact message the shop refuses."""


def contact_message_create(*, name, email, subject, message, language=None):
    """Validate, store and forward a visitor's message, written in `language` (default: the active one)."""
    values = {}
    for field, raw in (("name", name), ("email", email), ("subject", subject), ("message", message)):
        max_length, multiline = LIMITS[field]
        values[field] = clean_text(raw, field=field, max_length=max_length, multiline=multiline)
        if not values[field]:
            raise ContactError(_("Please fill in all fields"), field=field)
    try:
        validate_email(values["email"])
    except ValidationError:
        raise ContactError(_("Please enter a valid email address"), field="email") from None
    language = language or translation.get_language()
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    with transaction.atomic():
        saved = ContactMessage.objects.create(**values, language=language)
        _queue_store_notification(saved)
    return saved


def _queue_store_notification(message):
    store = store_settings_get()
    if not store.store_email:
        return
    mail_queue(
        to=store.store_email,
        subject=f"[{store.store_name}] {message.subject}",
        text=f"{message.name} <{message.email}>\n\n{message.message}",
        language=message.language,
        reply_to=message.email,  # staff answer the visitor straight from their mail program
    )
