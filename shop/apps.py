import importlib
import re

from django.apps import AppConfig
from django.utils.functional import SimpleLazyObject

from shop import converters  # noqa: F401  (registers <id:…> before any app's URLs load)
from shop.logs import connect_celery_signals, sentry_init

# Regular expressions Django compiles lazily (django.utils.regex_helper._lazy_re_compile) that every
# request or response uses: the response's charset, Vary, the CSRF token's format, gzip, the host. Even
# once compiled, each use goes through LazyObject's attribute lookup, which raises and catches an
# AttributeError first: 2.4 % of a cart write's instructions (issue 14). Compiled at start-up, they are
# the plain patterns the lazy objects would give.
LAZY_PATTERNS = (
    ("django.http.response", "_charset_from_content_type_re"),
    ("django.utils.cache", "cc_delim_re"),
    ("django.middleware.csrf", "invalid_token_chars_re"),
    ("django.middleware.gzip", "re_accepts_gzip"),
    ("django.http.request", "host_validation_re"),
    ("django.core.handlers.wsgi", "_slashes_re"),
)


def compile_lazy_patterns() -> None:
    for module_name, name in LAZY_PATTERNS:
        module = importlib.import_module(module_name)
        pattern = getattr(module, name, None)
        if isinstance(pattern, SimpleLazyObject):
            setattr(module, name, re.compile(pattern.pattern, pattern.flags))


class ShopConfig(AppConfig):
    name = "shop"

    def ready(self):
        # DRF's fields import models: only possible once the app registry is ready
        from shop.api.fields import integer_fields_bound  # noqa: PLC0415
        from shop.sessions import SESSION_PREFETCHES  # noqa: PLC0415
        from shop.store_settings import store_settings_keys  # noqa: PLC0415

        integer_fields_bound()
        compile_lazy_patterns()
        if store_settings_keys not in SESSION_PREFETCHES:  # the settings come with the session
            SESSION_PREFETCHES.append(store_settings_keys)
        connect_celery_signals()  # the request id travels into jobs; one log line per job
        sentry_init()  # only when SENTRY_DSN is set
