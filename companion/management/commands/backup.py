"""``manage.py backup PATH``: everything the app keeps, in one JSON file (companion/backups.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from companion import backups


class Command(BaseCommand):
    help = (
        "Write every account (with its password hash), group, membership, roster, invite, "
        "game night, match and log to PATH (.json, .json.gz, .json.bz2 or .json.xz); "
        "`manage.py restore PATH` reads it back into an empty database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="the backup file to write (replaced whole)")

    def handle(self, *args: Any, path: Path, **options: Any) -> None:
        counts = backups.backup(path)
        self.stdout.write(f"Backup written to {path}: {backups.summary(counts)}.")
