"""Contact messages: stored for the dashboard and e-mailed to the store address."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _

from shop.models import ContactMessage
from shop.store_settings import store_settings_get
from shop.errors import ShopError
from shop.validation import EMAIL_MAX, LINE_MAX, NAME_MAX, TEXT_MAX, clean_text

# the name and subject go into the e-mail's headers: single line
LIMITS = {"name": (NAME_MAX, False), "email": (EMAIL_MAX, False), "subject": (LINE_MAX, False),
          "message": (TEXT_MAX, True)}


class ContactError(ShopError):
    """A contact message the shop refuses."""


def contact_message_create(*, name, email, subject, message):
    """Validate, store and forward a visitor's message."""
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
    with transaction.atomic():
        saved = ContactMessage.objects.create(**values)
        transaction.on_commit(lambda: _notify_store(saved))
    return saved


def _notify_store(message):
    store = store_settings_get()
    send_mail(
        subject=f"[{store.store_name}] {message.subject}",
        message=f"{message.name} <{message.email}>\n\n{message.message}",
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=[store.store_email],
        fail_silently=True,
    )
