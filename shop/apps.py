from django.apps import AppConfig


class ShopConfig(AppConfig):
    name = "shop"

    def ready(self):
        from shop.api.fields import integer_fields_bound

        integer_fields_bound()
