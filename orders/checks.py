"""`manage.py check --deploy` warnings about payments."""

from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register


@register(Tags.security, deploy=True)
def sandbox_in_production(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[CheckMessage]:
    """The local test payment page marks orders paid without money: warn when it is on in production."""
    if settings.PAYMENT_SANDBOX and not settings.DEBUG:
        return [Warning(
            "PAYMENT_SANDBOX is on with DEBUG off: the local test payment page can mark orders paid "
            "without money (unless PAYMENT_PROVIDER=paymob, which switches it off).",
            hint="Unset PAYMENT_SANDBOX in production.",
            id="orders.W001",
        )]
    return []
