"""The audit log: who changed what, when. Every staff write records one entry."""

from decimal import Decimal

from backoffice.models import AuditEntry


def _plain(value):
    """A JSON-safe form of a field value (Decimals as their exact text)."""
    if isinstance(value, Decimal):
        return str(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def audit_changes(*, before, after):
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


def audit_record(*, actor, action, details="", target=None, changes=()):
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


def audit_recent(*, limit=10):
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
