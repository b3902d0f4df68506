"""Migration tests: move the test database to a migration and back to the latest."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_to(targets):
    """Migrate the test database to `targets` ([(app, migration name)]); the apps as they were there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def migrate_to_latest():
    migrate_to(MigrationExecutor(connection).loader.graph.leaf_nodes())
