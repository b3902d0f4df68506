"""manage.py backup [--output DIR]: a dated archive of the database and the media."""

from django.core.management.base import BaseCommand, CommandError

from shop.backup import BackupError, backup_create


class Command(BaseCommand):
    help = "Write a consistent snapshot of the database plus the media into a dated .tar.gz archive."

    def add_arguments(self, parser):
        parser.add_argument("--output", help="folder for the archive (default: DATA_DIR/backups)")

    def handle(self, *args, output=None, **options):
        try:
            archive, manifest = backup_create(output_dir=output)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"{archive} ({manifest['engine']}, {manifest['media_files']} media files)")
