"""``manage.py restore PATH``: a backup back into an empty database (companion/backups.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from companion import backups, limits


class Command(BaseCommand):
    help = (
        "Load a backup written by `manage.py backup` into this database, which must be "
        "migrated and empty; all of it or, on any error, nothing. The backup is checked "
        "like an uploaded file: it may not hold sessions, staff or superuser accounts "
        "(unless --allow-staff), rows pointing into another group or a history the group "
        "import would refuse."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="the backup file to read")
        parser.add_argument(
            "--allow-staff", action="store_true",
            help="keep staff and superuser accounts (who can log in to the admin)",
        )
        parser.add_argument(
            "--max-size", type=int, metavar="MB", default=limits.BACKUP_BYTES // limits.MB,
            help="read at most this many megabytes, unpacked (default: %(default)s)",
        )

    def handle(self, *args: Any, path: Path, allow_staff: bool, max_size: int,
               **options: Any) -> None:
        counts = backups.restore(path, allow_staff=allow_staff, max_size=max_size * limits.MB)
        self.stdout.write(f"Restored from {path}: {backups.summary(counts)}.")
