"""``manage.py restore PATH``: a backup back into an empty database (companion/backups.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from companion import backups


class Command(BaseCommand):
    help = (
        "Load a backup written by `manage.py backup` into this database, which must be "
        "migrated and empty; all of it or, on any error, nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="the backup file to read")

    def handle(self, *args: Any, path: Path, **options: Any) -> None:
        counts = backups.restore(path)
        self.stdout.write(f"Restored from {path}: {backups.summary(counts)}.")
