"""manage.py restore ARCHIVE [--force]: put a backup into an empty install."""

import os

from django.core.management.base import BaseCommand, CommandError

from shop.backup import BackupError, restore_archive


class Command(BaseCommand):
    help = "Restore a `manage.py backup` archive (database and media) into an empty install."

    def add_arguments(self, parser):
        parser.add_argument("archive")
        parser.add_argument("--force", action="store_true",
                            help="overwrite an install that already has users, products or orders")

    def handle(self, *args, archive, force=False, **options):
        try:
            manifest = restore_archive(archive=archive, force=force)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Restored the {manifest['engine']} database of {manifest['created_at']} "
                          f"and {manifest['media_files']} media files.")
        if manifest.get("secret_key") and not os.environ.get("SECRET_KEY"):
            self.stdout.write("Restored the generated secret key too: restart the web and worker processes, so "
                              "that the links in customers' e-mails keep working.")
