from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


class MinimumLengthValidator:
    """At least 8 characters, with the spec's exact message."""

    min_length = 8

    def validate(self, password, user=None):
        if len(password or "") < self.min_length:
            raise ValidationError(
                _("Password must be at least 8 characters long"), code="password_too_short"
            )

    def get_help_text(self):
        return _("Password must be at least 8 characters long")
