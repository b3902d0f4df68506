"""Database initialisation and the read-only system information (Owner only)."""

from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from backoffice import audit_texts as texts
from backoffice.audit import audit_record
from backoffice.audit_texts import audit_text
from catalog.management.commands.demo_data import CATEGORIES
from catalog.models import Category
from shop.store_settings import store_settings_get


def _engine(db):
    """"sqlite3" or "postgresql", from Django's backend or the shop's (shop.sqlite, shop.postgresql)."""
    engine = db["ENGINE"].rsplit(".", 1)[-1]
    return "sqlite3" if engine == "sqlite" else engine


def _masked_url():
    db = settings.DATABASES["default"]
    engine = _engine(db)
    if engine == "sqlite3":
        return f"sqlite:///{db['NAME']}"
    host = db.get("HOST") or "localhost"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"{engine}://{db.get('USER') or ''}:***@{host}{port}/{db.get('NAME')}"


def system_info():
    """Spec 3 'System info': database type and persistence, e-mail settings (no secrets)."""
    db = settings.DATABASES["default"]
    engine = _engine(db)
    in_memory = engine == "sqlite3" and str(db["NAME"]) in (":memory:", "") or "mode=memory" in str(db["NAME"])
    from_email = settings.DEFAULT_FROM_EMAIL
    from_name, _sep, address = from_email.rpartition("<")
    return {
        "database": {
            "type": {"sqlite3": "SQLite", "postgresql": "PostgreSQL"}.get(engine, engine),
            "persistent": not in_memory,
            "database": {"url": _masked_url(), "enabled": True},
        },
        "email": {
            "enabled": bool(settings.EMAIL_HOST),
            "host": settings.EMAIL_HOST or "",
            "from_name": from_name.strip() if address else "",
            "from_email": address.rstrip(">").strip() if address else from_email,
        },
        "cache": "redis" if settings.REDIS_URL else "shared",
    }


def _pending_migrations():
    executor = MigrationExecutor(connection)
    return executor.migration_plan(executor.loader.graph.leaf_nodes())


def _default_data():
    """Create the rows the shop needs to run; leave existing ones alone."""

    store_settings_get()
    created = 0
    for position, (slug, name_en, name_ar, _colour) in enumerate(CATEGORIES):
        _obj, made = Category.objects.get_or_create(
            slug=slug, defaults={"name_en": name_en, "name_ar": name_ar, "position": position,
                                 "is_assignable": slug != "entire-range"})
        created += made
    return created


def database_init(*, actor):
    """Apply pending migrations, then the default data; idempotent.

    Report `success` when both steps worked, `partial` when the schema is up
    to date but the default data failed (manual setup needed), `error` when
    the migrations could not be applied.
    """
    steps = []
    try:
        plan = _pending_migrations()
        if plan:
            call_command("migrate", interactive=False, verbosity=0)
        steps.append({"step": "migrations", "ok": True, "applied": len(plan)})
    except Exception as exc:  # the database itself is unreachable or broken
        steps.append({"step": "migrations", "ok": False, "error": str(exc)[:300]})
        return {"success": False, "status": "error", "steps": steps, "csv_path": None}
    try:
        created = _default_data()
        steps.append({"step": "default_data", "ok": True, "created": created})
    except Exception as exc:
        steps.append({"step": "default_data", "ok": False, "error": str(exc)[:300]})
        audit_record(actor=actor, action="database.init", details=texts.DATABASE_INIT_PARTIAL)
        return {"success": False, "status": "partial", "steps": steps, "csv_path": None}
    audit_record(actor=actor, action="database.init",
                 details=audit_text(texts.DATABASE_INIT, applied=steps[0]["applied"], created=created))
    return {"success": True, "status": "success", "steps": steps, "csv_path": None}
