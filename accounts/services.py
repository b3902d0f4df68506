"""Customer account writes."""

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User


class AccountError(Exception):
    """A customer-facing problem with one field (message is the spec's text)."""

    def __init__(self, message, *, field=None):
        super().__init__(message)
        self.message = str(message)
        self.field = field


def customer_create(*, first_name, last_name, email, password, phone="", subscribe_newsletter=False,
                    language="en"):
    """Create a customer account; raise AccountError naming the field at fault."""
    email = (email or "").strip().lower()
    if not (first_name or "").strip():
        raise AccountError(_("First name is required"), field="firstName")
    if not (last_name or "").strip():
        raise AccountError(_("Last name is required"), field="lastName")
    if not email:
        raise AccountError(_("Email is required"), field="email")
    try:
        validate_email(email)
    except ValidationError:
        raise AccountError(_("Please enter a valid email address"), field="email") from None
    if not password:
        raise AccountError(_("Password is required"), field="password")
    candidate = User(username=email, email=email, first_name=first_name.strip(), last_name=last_name.strip())
    try:
        validate_password(password, candidate)
    except ValidationError as exc:
        raise AccountError(exc.messages[0], field="password") from None
    with transaction.atomic():
        if User.objects.filter(email__iexact=email).exists() or User.objects.filter(username=email).exists():
            raise AccountError(_("An account with this email already exists"), field="email")
        candidate.phone = (phone or "").strip()
        candidate.subscribe_newsletter = bool(subscribe_newsletter)
        candidate.language = language
        candidate.set_password(password)
        candidate.save()
    return candidate
