"""Backups: everything the app keeps, in one JSON file (Django's fixture format).

``manage.py backup PATH`` writes it, ``manage.py restore PATH`` reads it back
into an empty database. A backup holds every account (with its password hash),
membership, group, roster, invite, game night, match, deal, score and the change
logs; it leaves out what Django or the app rebuilds by itself: content types and
permissions (recreated by ``migrate``, referenced by natural keys), sessions,
the login-throttling records of django-axes and the cache table.
"""

from __future__ import annotations

import bz2
import datetime as dt
import gzip
import itertools
import lzma
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from django.apps import apps
from django.core import serializers
from django.core.management import call_command
from django.core.management.base import CommandError
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Model

from companion.services.results import results_rebuild

LEFT_OUT = (
    "contenttypes", "auth.Permission", "sessions", "axes",
    # The statistics kept per finished match: computed afresh after a restore.
    "companion.SeatResult", "companion.PlayerRecord", "companion.PairRecord",
    "companion.GameRecord", "companion.GameCount",
)
"""App labels and models a backup leaves out (``dumpdata --exclude``)."""

OPENERS: dict[str, Any] = {".json": open, ".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}
"""How a backup is written, by the file name's ending (``loaddata`` reads all of these)."""
SUFFIXES = (".json", ".json.gz", ".json.bz2", ".json.xz")
"""File names a backup may have: JSON, optionally compressed."""


def backed_up_models() -> list[type[Model]]:
    """Every model whose rows a backup holds, referenced models first."""
    app_list = [
        (config, [
            model for model in config.get_models()
            if not model._meta.proxy and model._meta.label not in LEFT_OUT
        ])
        for config in apps.get_app_configs() if config.label not in LEFT_OUT
    ]
    return serializers.sort_dependencies(app_list, allow_cycles=True)  # type: ignore[no-any-return]


class _ExactJSONEncoder(DjangoJSONEncoder):
    """Django's JSON with times to the microsecond (its own cuts them to milliseconds)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, dt.datetime | dt.time):
            text = o.isoformat()
            return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text
        return super().default(o)


def _write(stream: IO[str]) -> None:
    models = backed_up_models()
    objects = itertools.chain.from_iterable(
        model._base_manager.order_by(model._meta.pk.name).iterator() for model in models
    )
    serializers.serialize(
        "json", objects, stream=stream, cls=_ExactJSONEncoder, use_natural_foreign_keys=True
    )


def check_name(path: Path) -> None:
    if not path.name.endswith(SUFFIXES):
        raise CommandError(
            f"{path}: a backup's file name ends with {', '.join(SUFFIXES)} "
            "(the ending says how it is compressed)."
        )


@contextmanager
def _snapshot() -> Iterator[None]:
    """One transaction that sees the database as it was at its start.

    On SQLite the transaction holds the write lock (``transaction_mode``
    IMMEDIATE), so phones wait the moment it takes; on PostgreSQL REPEATABLE
    READ gives the same picture to every query while the phones go on.
    """
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def backup(path: Path) -> dict[str, int]:
    """Write the backup to ``path`` whole or not at all; returns row counts per model label.

    The data goes to a temporary file beside ``path`` (readable by the owner
    only: it holds password hashes), which replaces ``path`` once complete.
    """
    check_name(path)
    if not path.parent.is_dir():
        raise CommandError(f"{path.parent}: no such directory.")
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix="-" + path.name)
    os.close(handle)
    try:
        with _snapshot(), OPENERS[path.suffix](temporary, "wt", encoding="utf-8") as stream:
            _write(stream)
            counts = {model._meta.label: model._base_manager.count()
                      for model in backed_up_models()}
        with open(temporary, "rb") as written:
            os.fsync(written.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return counts


def restore(path: Path) -> dict[str, int]:
    """Load the backup at ``path`` into this empty, migrated database, in one transaction."""
    check_name(path)
    if not path.is_file():
        raise CommandError(f"{path}: no such file.")
    executor = MigrationExecutor(connection)
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        raise CommandError(
            "The database is not migrated yet: run `manage.py migrate` first, then restore."
        )
    try:
        with transaction.atomic():
            held = {model._meta.label: model._base_manager.count()
                    for model in backed_up_models()}
            held = {label: count for label, count in held.items() if count}
            if held:
                listed = ", ".join(f"{count} × {label}" for label, count in sorted(held.items()))
                raise CommandError(
                    f"The database is not empty ({listed}). A restore only writes into an "
                    "empty database, so that nothing is mixed or overwritten: point "
                    "DATABASE_URL (or SQLITE_PATH) at a new database, run `manage.py migrate`, "
                    "then restore."
                )
            call_command("loaddata", str(path), verbosity=0)
            results_rebuild()
            return {model._meta.label: model._base_manager.count()
                    for model in backed_up_models()}
    except (DeserializationError, DatabaseError, ValueError, TypeError, LookupError,
            OSError, EOFError, lzma.LZMAError) as err:
        # A damaged or foreign file (or one whose rows contradict each other): one line
        # saying so instead of a traceback; the transaction has put nothing in.
        reason = " ".join(str(err).split())[:500] or type(err).__name__
        raise CommandError(
            f"{path} is not a backup this app can read, or it is damaged; nothing was "
            f"restored. ({reason})"
        ) from err


def summary(counts: dict[str, int]) -> str:
    """"accounts: 3, groups: 1, matches: 12, deals: 40": what a person checks after a backup."""
    return ", ".join(
        f"{name}: {counts.get(label, 0)}" for name, label in (
            ("accounts", "auth.User"), ("groups", "companion.Group"),
            ("matches", "companion.Match"), ("deals", "companion.Deal"),
        )
    )
