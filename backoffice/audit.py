"""The audit log: who changed what, when. Every staff write records one entry."""

from backoffice.models import AuditEntry


def audit_record(*, actor, action, details="", target=None):
    """Write one audit entry for `actor` doing `action` (optionally on `target`)."""
    return AuditEntry.objects.create(
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
        "createdAt": entry.created_at.isoformat(),
    }
