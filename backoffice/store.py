"""Staff changes to the store settings, each recording what changed in one audit entry."""

from django.db import transaction

from accounts.models import User
from backoffice.audit import audit_changes, audit_record
from shop.models import StoreSettings
from shop.store_settings import store_settings_update

# settings that hold several keys (JSON objects): a change to some keys keeps the others
GROUPS = ("social_media", "seo", "seo_ar")


def store_settings_change(*, actor: User, fields: dict[str, object]) -> StoreSettings:
    """Save `fields` (model field names) through `shop.store_settings`, a group (`GROUPS`)
    merged over its stored keys; a save that changed something leaves one audit entry listing
    each field's old and new value.

    A Django ValidationError from the model's full_clean answers 400 naming its field.
    """
    with transaction.atomic():
        current = StoreSettings.objects.select_for_update().get_or_create(pk=1)[0]
        # a PUT sends only what changed, down to one key of a group: the group's other keys stay
        fields = {name: {**(getattr(current, name) or {}), **value} if name in GROUPS and isinstance(value, dict)
                  else value for name, value in fields.items()}
        before = {name: getattr(current, name) for name in fields}
        store = store_settings_update(**fields)
        changes = audit_changes(before=before, after={name: getattr(store, name) for name in fields})
        if changes:  # a Save that changed nothing is not activity
            audit_record(actor=actor, action="settings.update", changes=changes,
                         details=", ".join(c["field"] for c in changes))
    return store
