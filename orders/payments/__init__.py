"""Payment providers behind one interface (see base.py)."""

from django.conf import settings

from orders.payments.base import Provider
from orders.payments.cod import CodProvider
from orders.payments.paymob import PaymobProvider
from orders.payments.sandbox import SandboxProvider, sandbox_enabled

__all__ = ["get_provider", "methods_available", "provider_for_method", "sandbox_enabled", "wants_sandbox"]

PROVIDERS: dict[str, type[Provider]] = {"paymob": PaymobProvider, "sandbox": SandboxProvider, "cod": CodProvider}


def get_provider(name: str) -> Provider:
    return PROVIDERS[name]()


def wants_sandbox(method: str, *, test_mode: bool = False) -> bool:
    """Whether the checkout body asks for the test payment page."""
    return method == "sandbox" or (test_mode and method != "cod")


def provider_for_method(method: str, *, test_mode: bool = False) -> str:
    """Which provider takes `method`: card goes to settings.PAYMENT_PROVIDER."""
    if method == "cod":
        return "cod"
    if wants_sandbox(method, test_mode=test_mode):
        return "sandbox"
    return str(settings.PAYMENT_PROVIDER)


def methods_available(*, cod_enabled: bool) -> list[str]:
    """The payment methods a shopper can complete right now, in the order the checkout offers them.

    Card only when its provider is configured (a default install has no keys: offering card
    there fails after the whole form), the test page only where it may be used, cash on
    delivery when the store takes it.
    """
    methods = []
    if get_provider(provider_for_method("card")).is_configured():
        methods.append("card")
    if cod_enabled:
        methods.append("cod")
    if sandbox_enabled():
        methods.append("sandbox")
    return methods
