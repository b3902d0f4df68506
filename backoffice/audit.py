"""The audit log: who changed what, when. Every staff write records one entry."""

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from django.db.models import Model

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


def audit_recent(*, limit: int = 10) -> list[AuditEntry]:
    """The latest entries, newest first, for the overview's recent activity."""
    return list(AuditEntry.objects.order_by("-created_at", "-pk")[:limit])


def audit_entry_data(entry):
    return {
        "id": entry.pk,
        "actor": entry.actor_name,
        "action": entry.action,
        "details": entry.details,
        "targetType": entry.target_type,
        "targetId": entry.target_id,
        "changes": entry.changes,
        "createdAt": entry.created_at.isoformat(),
    }
