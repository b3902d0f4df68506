"""Payment providers behind one interface (see base.py)."""

from django.conf import settings

from orders.payments.cod import CodProvider
from orders.payments.paymob import PaymobProvider
from orders.payments.sandbox import SandboxProvider

PROVIDERS = {"paymob": PaymobProvider, "sandbox": SandboxProvider, "cod": CodProvider}


def get_provider(name):
    return PROVIDERS[name]()


def provider_for_method(method, *, test_mode=False):
    """Which provider takes `method`: card goes to settings.PAYMENT_PROVIDER."""
    if method == "cod":
        return "cod"
    if method == "sandbox" or test_mode:
        return "sandbox"
    return settings.PAYMENT_PROVIDER
