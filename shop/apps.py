from django.apps import AppConfig

from shop import converters  # noqa: F401  (registers <id:…> before any app's URLs load)
from shop.logs import connect_celery_signals, sentry_init


class ShopConfig(AppConfig):
    name = "shop"

    def ready(self):
        # DRF's fields import models: only possible once the app registry is ready
        from shop.api.fields import integer_fields_bound  # noqa: PLC0415

        integer_fields_bound()
        connect_celery_signals()  # the request id travels into jobs; one log line per job
        sentry_init()  # only when SENTRY_DSN is set
