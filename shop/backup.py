"""Backups an operator can restore: one dated archive with a consistent database snapshot and the media.

The archive (`nile-tea-YYYYmmdd-HHMMSSZ.tar.gz`, in UTC: Cairo's clock repeats an hour each autumn)
holds `manifest.json`, the database
(`db.sqlite3`, copied with SQLite's online backup API while the shop keeps running, or
`db.dump`, `pg_dump`'s custom format: one consistent snapshot) and `media/`, copied after
the database so every image the snapshot names is in the archive.

`restore_archive` puts such an archive into an empty install (no users, products or orders):
the same database engine, then the media, then `migrate` (an archive from an older release
is brought up to date).
"""

import datetime as dt
import io
import itertools
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection, connections
from django.utils import timezone

from shop.cache import cache_forget_all
from shop.config import write_private
from shop.models import Heartbeat

FORMAT = 1
PARTIAL = ".partial"  # an archive being written
BACKUP_MARK = "backup"  # Heartbeat row: when the last backup finished (manage.py doctor reads it)
# the tables that make an install "not empty"
DATA_TABLES = ("accounts_user", "catalog_product", "orders_order")
# the database's name in the archive, by engine
_DATABASE_FILE = {"sqlite": "db.sqlite3", "postgresql": "db.dump"}


class BackupError(Exception):
    """Something an operator must fix; the message says what."""


def _engine(conn=connection):
    vendor = conn.vendor
    if vendor not in ("sqlite", "postgresql"):
        raise BackupError(f"Backups support SQLite and PostgreSQL, not {vendor}.")
    return vendor


# --- PostgreSQL client tools, matched to the server's version ---------------------------------

def _tool_major(path):
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"(\d+)(?:\.\d+)?", out)
    return int(match.group(1)) if match else None


def _candidates(name):
    """Every `name` binary on this machine: the override, Debian's per-version ones, then PATH."""
    override = os.environ.get(f"{name.upper()}_PATH")
    candidates = [override] if override else []
    candidates += sorted((str(p) for p in Path("/usr/lib/postgresql").glob(f"*/bin/{name}")), reverse=True)
    on_path = shutil.which(name)
    if on_path:
        candidates.append(on_path)
    return candidates


def pg_tool(name, *, server_major):
    """The `pg_dump`/`pg_restore` to use for a server of `server_major`: Debian's binary of that exact
    version when installed (/usr/lib/postgresql/N/bin), else the newest one not older than the server
    (pg_dump refuses newer servers; an older pg_restore cannot read a newer dump)."""
    candidates = _candidates(name)
    found = [(path, _tool_major(path)) for path in candidates]
    found = [(path, major) for path, major in found if major]
    exact = [path for path, major in found if major == server_major]
    newer = sorted(((major, path) for path, major in found if major > server_major), reverse=True)
    if exact:
        return exact[0]
    if newer:
        return newer[0][1]
    versions = ", ".join(f"{path} ({major})" for path, major in found) or "none"
    raise BackupError(f"{name} for PostgreSQL {server_major} or newer is needed (found: {versions}). "
                      f"Install postgresql-client-{server_major}, or set {name.upper()}_PATH.")


def _pg_env(conn):
    params = conn.settings_dict
    env = {**os.environ, "PGDATABASE": params["NAME"], "PGUSER": params.get("USER") or "",
           "PGHOST": params.get("HOST") or "", "PGPORT": str(params.get("PORT") or "")}
    if params.get("PASSWORD"):
        env["PGPASSWORD"] = params["PASSWORD"]
    return {key: value for key, value in env.items() if value != ""}


def _server_major(conn):
    conn.ensure_connection()
    return conn.pg_version // 10000


def _run(command, env):
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode:
        raise BackupError(f"{Path(command[0]).name} failed: {result.stderr.strip()[-2000:]}")


# --- backup -----------------------------------------------------------------------------------

def _snapshot_sqlite(target):
    if connection.in_atomic_block:  # our own open transaction would keep the snapshot waiting
        raise BackupError("Run the backup outside a transaction.")
    connection.ensure_connection()
    destination = sqlite3.connect(target)
    try:
        with destination:
            connection.connection.backup(destination)  # online: readers and writers carry on
    finally:
        destination.close()


def _snapshot_postgresql(target):
    tool = pg_tool("pg_dump", server_major=_server_major(connection))
    _run([tool, "--format=custom", "--no-owner", "--no-acl", f"--file={target}"], _pg_env(connection))


def backup_create(*, output_dir=None, now=None):
    """Write a dated archive into `output_dir` (default DATA_DIR/backups); return its path."""
    engine = _engine()
    now = now or timezone.now()
    output_dir = Path(output_dir or settings.DATA_DIR / "backups")
    output_dir.mkdir(parents=True, exist_ok=True)
    _partials_prune(output_dir)
    media_root = Path(settings.MEDIA_ROOT)
    with tempfile.TemporaryDirectory(prefix="nile-tea-backup-") as work:
        database = Path(work) / _DATABASE_FILE[engine]
        (_snapshot_sqlite if engine == "sqlite" else _snapshot_postgresql)(database)
        media_files = [p for p in media_root.rglob("*") if p.is_file()] if media_root.is_dir() else []
        key_file = _generated_key_file()
        # written under a name of its own (two backups at once each have theirs), renamed when complete:
        # never a half-written archive under a final name
        handle, name = tempfile.mkstemp(dir=output_dir, prefix=".nile-tea-", suffix=PARTIAL)
        os.close(handle)
        partial = Path(name)
        try:
            with tarfile.open(partial, "w:gz") as tar:
                tar.add(database, arcname=database.name)
                if key_file is not None:
                    tar.add(key_file, arcname="secret_key")
                archived = 0
                for path in media_files:
                    try:
                        tar.add(path, arcname=f"media/{path.relative_to(media_root).as_posix()}")
                    except FileNotFoundError:  # deleted (a picture replaced) since the listing: not needed
                        continue
                    archived += 1
                manifest = {"format": FORMAT, "created_at": now.isoformat(), "engine": engine,
                            "database": database.name, "media_files": archived, "secret_key": key_file is not None}
                data = json.dumps(manifest, indent=2).encode()
                info = tarfile.TarInfo("manifest.json")
                info.size, info.mtime = len(data), int(now.timestamp())
                tar.addfile(info, fileobj=_bytes(data))
            archive = _archive_place(partial, output_dir, now)
        finally:
            partial.unlink(missing_ok=True)
    Heartbeat.objects.update_or_create(name=BACKUP_MARK, defaults={"seen_at": timezone.now()})
    return archive, manifest


def _archive_place(partial, output_dir, now):
    """Give the finished `partial` its final name, in UTC; a second backup within the same second gets
    `-2`, `-3`… rather than replacing the first (os.link fails on a name already taken)."""
    stamp = now.astimezone(dt.UTC).strftime("%Y%m%d-%H%M%SZ")
    for number in itertools.count(1):
        archive = output_dir / f"nile-tea-{stamp}{'' if number == 1 else f'-{number}'}.tar.gz"
        try:
            os.link(partial, archive)
        except FileExistsError:
            continue
        return archive


def _partials_prune(output_dir):
    """Delete what backups killed halfway left behind (a day old: no backup runs that long)."""
    day_ago = time.time() - 24 * 3600
    for path in output_dir.glob(f".nile-tea-*{PARTIAL}"):
        if path.stat().st_mtime < day_ago:
            path.unlink(missing_ok=True)


def _generated_key_file():
    """DATA_DIR/secret_key when the shop signs with it (no SECRET_KEY set): a restore without it would break
    every signed link in the e-mails customers already have."""
    path = Path(settings.DATA_DIR) / "secret_key"
    return path if not os.environ.get("SECRET_KEY") and path.is_file() else None


def _bytes(data):
    return io.BytesIO(data)


# --- restore ----------------------------------------------------------------------------------

def install_has_data(conn=connection):
    """Whether the database holds any user, product or order (an empty install holds none)."""
    try:
        tables = set(conn.introspection.table_names())
    except Exception:
        return False
    with conn.cursor() as cursor:
        for table in DATA_TABLES:
            if table in tables:
                cursor.execute(f"SELECT 1 FROM {conn.ops.quote_name(table)} LIMIT 1")
                if cursor.fetchone():
                    return True
    return False


def _safe_extract(tar, target):
    target = Path(target).resolve()
    for member in tar.getmembers():
        path = (target / member.name).resolve()
        if not path.is_relative_to(target) or not (member.isfile() or member.isdir()):
            raise BackupError(f"Refusing archive member {member.name!r}.")
    tar.extractall(target, filter="data")


def restore_archive(*, archive, force=False):
    """Restore `archive` into this install; refuse one that already holds data unless `force`."""
    archive = Path(archive)
    if not archive.is_file():
        raise BackupError(f"No archive at {archive}.")
    engine = _engine()
    if install_has_data() and not force:
        raise BackupError("This install already has users, products or orders. Restore into an empty "
                          "install (a new DATA_DIR or an empty database), or pass --force to overwrite.")
    with tempfile.TemporaryDirectory(prefix="nile-tea-restore-") as work:
        with tarfile.open(archive, "r:gz") as tar:
            _safe_extract(tar, work)
        manifest_path = Path(work) / "manifest.json"
        if not manifest_path.is_file():
            raise BackupError("Not a shop backup: manifest.json is missing.")
        manifest = json.loads(manifest_path.read_text())
        if manifest.get("format") != FORMAT:
            raise BackupError(f"Unknown backup format {manifest.get('format')!r}.")
        if manifest["engine"] != engine:
            raise BackupError(f"The archive holds a {manifest['engine']} database; this install uses {engine}. "
                              "Restore into an install of the same kind.")
        if manifest.get("database") != _DATABASE_FILE[engine]:
            raise BackupError(f"The manifest names {manifest.get('database')!r} as the database; a shop backup "
                              f"holds {_DATABASE_FILE[engine]}.")
        database = Path(work) / manifest["database"]
        connections.close_all()
        if engine == "sqlite":
            _restore_sqlite(database)
        else:
            _restore_postgresql(database)
        media = Path(work) / "media"
        if media.is_dir():
            shutil.copytree(media, settings.MEDIA_ROOT, dirs_exist_ok=True)
        key = Path(work) / "secret_key"
        if key.is_file() and not os.environ.get("SECRET_KEY"):
            # the key the links in customers' e-mails were signed with (tracking, unsubscribe);
            # the shop's processes read it when they start
            target = Path(settings.DATA_DIR) / "secret_key"
            draft = target.with_name(f".secret_key.restore.{os.getpid()}")
            draft.unlink(missing_ok=True)
            write_private(draft, key.read_text())
            os.replace(draft, target)
    connections.close_all()
    call_command("migrate", interactive=False, verbosity=0)
    # the install may have been running and caching its own settings, pages and counts
    cache_forget_all(caches["default"])
    return manifest


def _restore_sqlite(source):
    target = Path(connection.settings_dict["NAME"])
    target.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(source)
    dst = sqlite3.connect(target)
    try:
        with dst:
            src.backup(dst)  # replaces every page, WAL included
    finally:
        src.close()
        dst.close()


def _restore_postgresql(dump):
    tool = pg_tool("pg_restore", server_major=_server_major(connection))
    # from an empty schema: pg_restore --clean drops only what the dump holds, so a table a newer release's
    # `migrate` made before the restore (absent from an older archive) stayed and that migration failed
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f"DROP TABLE IF EXISTS {connection.ops.quote_name(table)} CASCADE")
    connections.close_all()
    env = _pg_env(connection)
    _run([tool, "--clean", "--if-exists", "--no-owner", "--no-acl", "--single-transaction",
          f"--dbname={env.get('PGDATABASE')}", str(dump)], env)
