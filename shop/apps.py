from django.apps import AppConfig

from shop import converters  # noqa: F401  (registers <id:…> before any app's URLs load)
from shop.logs import connect_celery_signals, sentry_init


class ShopConfig(AppConfig):
    name = "shop"

    def ready(self):
        # DRF's fields import models: only possible once the app registry is ready
        from shop.api.fields import integer_fields_bound  # noqa: PLC0415
        from shop.sessions import SESSION_PREFETCHES  # noqa: PLC0415
        from shop.store_settings import store_settings_keys  # noqa: PLC0415

        integer_fields_bound()
        if store_settings_keys not in SESSION_PREFETCHES:  # the settings come with the session
            SESSION_PREFETCHES.append(store_settings_keys)
        connect_celery_signals()  # the request id travels into jobs; one log line per job
        sentry_init()  # only when SENTRY_DSN is set
