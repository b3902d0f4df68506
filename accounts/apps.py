from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


def _user_saved(sender, instance, **kwargs):
    from accounts.user_cache import user_changed  # noqa: PLC0415

    user_changed([instance.pk])


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self):
        from accounts.models import User  # noqa: PLC0415

        # a change to a user's row drops every process's copy of it (accounts.user_cache)
        post_save.connect(_user_saved, sender=User, dispatch_uid="accounts-user-cache-save")
        post_delete.connect(_user_saved, sender=User, dispatch_uid="accounts-user-cache-delete")
        # a customer's tokens come with their session
        from accounts.user_cache import user_token_keys  # noqa: PLC0415
        from shop.sessions import SESSION_PREFETCHES  # noqa: PLC0415

        if user_token_keys not in SESSION_PREFETCHES:
            SESSION_PREFETCHES.append(user_token_keys)
