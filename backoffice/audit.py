"""The audit log: who changed what, when. Every staff write records one entry."""

from collections.abc import Iterable, Mapping
from decimal import Decimal
from functools import reduce
from operator import or_
from typing import Any

from django.db.models import Model, Q

from accounts.roles import has_permission
from backoffice.audit_texts import audit_details_text
from backoffice.models import AuditEntry


def _plain(value: object) -> str | int | float | bool | None:
    """A JSON-safe form of a field value (Decimals as their exact text)."""
    if isinstance(value, Decimal):
        return str(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def audit_changes(*, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[dict[str, Any]]:
    """[{"field", "old", "new"}] for the keys of `after` whose value differs from `before`.

    Dict values (social links, SEO) are compared key by key as "field.key"; a
    key missing on one side reads as empty text.
    """
    changes = []
    for field, new in after.items():
        old = before.get(field)
        if isinstance(new, dict) or isinstance(old, dict):
            keys = dict.fromkeys([*(old or {}), *(new or {})], "")
            changes += [{**c, "field": f"{field}.{c['field']}"}
                        for c in audit_changes(before={**keys, **(old or {})}, after={**keys, **(new or {})})]
        elif old != new:
            changes.append({"field": field, "old": _plain(old), "new": _plain(new)})
    return changes


def audit_record(*, actor: Any, action: str, details: object = "", target: Model | None = None,
                 changes: Iterable[dict[str, Any]] = ()) -> AuditEntry:
    """Write one audit entry for `actor` doing `action` (optionally on `target`)."""
    return AuditEntry.objects.create(
        changes=list(changes),
        actor=actor if getattr(actor, "pk", None) else None,
        actor_name=getattr(actor, "username", "") or "",
        action=action[:60],
        details=str(details)[:500],
        target_type=target._meta.model_name if target is not None else "",
        target_id=str(target.pk) if target is not None and target.pk is not None else "",
    )


# the area of the role matrix (accounts.roles) each kind of entry belongs to, by the action's first word
# ("settings.update", "product_import"): an entry tells what changed, often with the old and new values, so
# a role sees it only where it may view that area. A kind not listed is shown to the Owner only ("system").
ACTION_AREAS = {
    "product": "products", "inventory": "products", "importer": "products",
    "order": "orders", "customer": "customers", "coupon": "coupons", "announcement": "coupons",
    "message": "messages", "review": "messages", "settings": "settings", "email": "settings",
}


def audit_recent(*, limit: int = 10, viewer: Any = None) -> list[AuditEntry]:
    """The latest entries, newest first, for the overview's recent activity; with `viewer`, only those of
    the areas their role may view (ACTION_AREAS)."""
    entries = AuditEntry.objects.order_by("-created_at", "-pk")
    if viewer is not None and not has_permission(viewer, "system", "view"):
        shown = [word for word, area in ACTION_AREAS.items() if has_permission(viewer, area, "view")]
        entries = entries.filter(reduce(or_, (Q(action__startswith=f"{word}.") | Q(action__startswith=f"{word}_")
                                              for word in shown), Q(pk__in=[])))
    return list(entries[:limit])


def audit_entry_data(entry):
    """An entry as the overview's recent activity reads it: the details a sentence the shop wrote in the
    active language (backoffice.audit_texts), data as written."""
    return {
        "id": entry.pk,
        "actor": entry.actor_name,
        "action": entry.action,
        "details": audit_details_text(entry.details, entry.action),
        "targetType": entry.target_type,
        "targetId": entry.target_id,
        "changes": entry.changes,
        "createdAt": entry.created_at.isoformat(),
    }
