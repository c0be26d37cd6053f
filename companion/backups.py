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
import contextlib
import datetime as dt
import gzip
import itertools
import json
import lzma
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import F, Model, TextField
from django.db.models.functions import Cast, Length
from django.utils import translation

from companion import limits
from companion.models import (
    ChangeReceipt,
    DealScore,
    Group,
    GroupChange,
    Match,
    Rating,
    RatingStep,
    Seat,
    TablePass,
)
from companion.services.results import results_rebuild
from companion.services.transfer import TransferError
from companion.services.transfer.validate import MAX_DEPTH, check_history

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


def restore(
    path: Path, *, allow_staff: bool = False, max_size: int = limits.BACKUP_BYTES
) -> dict[str, int]:
    """Load the backup at ``path`` into this empty, migrated database, in one transaction.

    The backup is checked as a hostile file would need: at most ``max_size`` bytes
    unpacked (read no further), rows only of the models a backup holds (no sessions,
    no login throttling, no statistics), no staff or superuser account unless
    ``allow_staff``, every value fit for its column, no row pointing into another
    group, and every group's history passing the checks of the group import
    (:mod:`companion.services.transfer.validate`: the engine, the limits). A refused
    backup changes nothing.
    """
    check_name(path)
    if not path.is_file():
        raise CommandError(f"{path}: no such file.")
    executor = MigrationExecutor(connection)
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        raise CommandError(
            "The database is not migrated yet: run `manage.py migrate` first, then restore."
        )
    try:
        with translation.override("en"):  # the command speaks English, its checks too
            restored = _restore(path, allow_staff=allow_staff, max_size=max_size)
        _forget_shared_renders()
        return restored
    except Refused as refusal:
        raise CommandError(f"{path}: {refusal}; nothing was restored.") from refusal
    except (DeserializationError, DatabaseError, ValidationError, ValueError, TypeError,
            LookupError, OSError, EOFError, lzma.LZMAError) as err:
        # A damaged or foreign file (or one whose rows contradict each other): one line
        # saying so instead of a traceback; the transaction has put nothing in.
        reason = " ".join(str(err).split())[:500] or type(err).__name__
        raise CommandError(
            f"{path} is not a backup this app can read, or it is damaged; nothing was "
            f"restored. ({reason})"
        ) from err


def _forget_shared_renders() -> None:
    """The sheets the server's processes shared (companion/shared_renders.py) are of the
    database before the restore; the restored one numbers its matches and revisions alike.
    Nobody's access check is trusted either (companion/trusted_polls.py)."""
    from django.core.cache import caches

    from companion import trusted_polls

    with contextlib.suppress(OSError):  # nothing was shared (a folder it may not write)
        caches["renders"].clear()
    trusted_polls.access_changed()


def _restore(path: Path, *, allow_staff: bool, max_size: int) -> dict[str, int]:
    rows = _read(path, max_size)
    # The cheap checks first, on the rows as read: a refusal comes in seconds, before a
    # large file's rows are loaded one by one and its histories checked.
    _check_rows(rows)
    _check_depth(rows)
    if not allow_staff:
        _check_staff(rows)
    with transaction.atomic():
        held = {model._meta.label: model._base_manager.count() for model in backed_up_models()}
        held = {label: count for label, count in held.items() if count}
        if held:
            listed = ", ".join(f"{count} × {label}" for label, count in sorted(held.items()))
            raise CommandError(
                f"The database is not empty ({listed}). A restore only writes into an "
                "empty database, so that nothing is mixed or overwritten: point "
                "DATABASE_URL (or SQLITE_PATH) at a new database, run `manage.py migrate`, "
                "then restore."
            )
        _load(rows, allow_staff=allow_staff)
        del rows
        connection.check_constraints()  # SQLite checks references only at the commit
        _check_groups()
        results_rebuild()
        return {model._meta.label: model._base_manager.count() for model in backed_up_models()}


class Refused(Exception):
    """A readable backup that breaks a rule of :func:`restore`; the message says which."""


def _read(path: Path, max_size: int) -> list[dict[str, Any]]:
    """The backup's rows, read unpacked up to ``max_size`` bytes and no further."""
    with OPENERS[path.suffix](path, "rb") as stream:
        data = stream.read(max_size + 1)
    if len(data) > max_size:
        raise Refused(
            f"unpacked, it is larger than {max_size // limits.MB} MB, the most a restore "
            "reads (a small file that unpacks to a huge one is a known attack); if it is "
            "your own backup of a large installation, restore it with --max-size "
            "<megabytes>"
        )
    try:
        rows = json.loads(data)
    except RecursionError as err:
        raise Refused(
            "it nests lists or objects thousands of levels deep, which no backup does"
        ) from err
    del data
    if not isinstance(rows, list) or not all(
        isinstance(row, dict) and isinstance(row.get("model"), str)
        and isinstance(row.get("fields", {}), dict) for row in rows
    ):
        raise ValueError("a backup is a list of rows with their model and fields")
    return rows


def _check_rows(rows: list[dict[str, Any]]) -> None:
    """Rows only of the models a backup holds, before anything is loaded."""
    held = {model._meta.label_lower for model in backed_up_models()}
    foreign = sorted({row["model"].lower() for row in rows} - held)
    if "sessions.session" in foreign:
        raise Refused("it holds sessions (logged-in browsers), which a backup never holds")
    if foreign:
        apps.get_model(foreign[0])  # an unknown one: LookupError, "not a backup"
        raise Refused(
            f"it holds rows of {', '.join(foreign[:5])}, which a backup never holds "
            "(login throttling, content types, permissions and statistics are rebuilt, "
            "not restored)"
        )


def _check_depth(rows: list[dict[str, Any]]) -> None:
    """No field nests deeper than the group import allows (``validate.MAX_DEPTH``: a
    match's options, a log entry's before and after nest a few levels); checked without
    recursion, so that options nested thousands of levels deep are refused in one line."""
    for row in rows:
        level, depth = [row.get("fields", {})], 0
        while level:
            if depth > MAX_DEPTH:
                raise Refused(
                    f"the row {str(row['model']).lower()[:40]} {str(row.get('pk'))[:20]} "
                    f"nests more than {MAX_DEPTH} levels deep"
                )
            below: list[Any] = []
            for value in level:
                if isinstance(value, dict):
                    below.extend(value.values())
                elif isinstance(value, list):
                    below.extend(value)
            level, depth = below, depth + 1


def _check_staff(rows: list[dict[str, Any]]) -> None:
    """No staff or superuser account among the rows (read as they are, before loading).
    Only a JSON ``true`` counts here; any other value is left to the load, which refuses
    what is no boolean as damage and checks again what it read (:func:`_load`)."""
    label = get_user_model()._meta.label_lower
    username = get_user_model().USERNAME_FIELD
    staff = [
        str(row.get("fields", {}).get(username, row.get("pk")))[:40] for row in rows
        if row["model"].lower() == label and (
            row.get("fields", {}).get("is_staff") is True
            or row.get("fields", {}).get("is_superuser") is True)
    ]
    if staff:
        raise Refused(_staff_refusal(staff))


def _staff_refusal(staff: list[str]) -> str:
    return (
        f"it holds {len(staff)} staff or superuser account(s) ({', '.join(staff[:5])}), "
        "who could log in to the admin; restore with --allow-staff if they are yours"
    )


def _load(rows: list[dict[str, Any]], *, allow_staff: bool) -> None:
    """Every row checked field by field (lengths, choices, types), then saved."""
    staff: list[str] = []
    deferred = []
    loaded: set[type[Model]] = set()
    for item in serializers.deserialize(
        "python", rows, handle_forward_references=True, ignorenonexistent=False
    ):
        instance = item.object
        try:
            instance.clean_fields(
                exclude=[field.name for field in instance._meta.fields if field.is_relation]
            )
        except ValidationError as err:
            problems = "; ".join(
                f"{name}: {' '.join(messages)[:200]}"
                for name, messages in err.message_dict.items()
            )
            raise Refused(f"the row {instance._meta.label_lower} {instance.pk} does not fit "
                          f"its columns ({problems})") from err
        if isinstance(instance, get_user_model()) and (
            getattr(instance, "is_staff", False) or getattr(instance, "is_superuser", False)
        ):
            staff.append(instance.get_username())
        item.save()
        loaded.add(type(instance))
        if item.deferred_fields:
            deferred.append(item)
    for item in deferred:
        item.save_deferred_fields()
    # Rows came with their ids: PostgreSQL's sequences move on past them (as loaddata does).
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), list(loaded)):
            cursor.execute(statement)
    if staff and not allow_staff:  # a value that reads as staff only once loaded
        raise Refused(_staff_refusal(staff))


_ACROSS = (
    ("a match of one group on another group's game night",
     lambda: Match.objects.exclude(game_night__group=F("group"))),
    ("a seat of a player of another group",
     lambda: Seat.objects.exclude(player__group=F("match__group"))),
    ("an entry of a player of another group",
     lambda: DealScore.objects.exclude(player__group=F("deal__match__group"))),
    ("a rating of a player of another group",
     lambda: Rating.objects.exclude(player__group=F("group"))),
    ("a rating step of a player or match of another group",
     lambda: RatingStep.objects.exclude(player__group=F("group"), match__group=F("group"))),
    ("a table pass for a match of another group",
     lambda: TablePass.objects.filter(match__isnull=False).exclude(match__group=F("group"))),
    ("a table pass for a game night of another group",
     lambda: TablePass.objects.filter(game_night__isnull=False)
     .exclude(game_night__group=F("group"))),
    ("a receipt of a table pass of another group",
     lambda: ChangeReceipt.objects.filter(table_pass__isnull=False, group__isnull=False)
     .exclude(table_pass__group=F("group"))),
    ("a receipt for a match of another group",
     lambda: ChangeReceipt.objects.filter(match__isnull=False, group__isnull=False)
     .exclude(match__group=F("group"))),
)
"""Rows that would show one group's names or results in another group's pages."""


def _check_groups() -> None:
    """No row points into another group, and every group's history passes the checks of
    the group import (the engine's rules, the limits)."""
    for what, rows in _ACROSS:
        found = rows().values_list("pk", flat=True).first()
        if found is not None:
            raise Refused(f"it holds {what} (row {found})")
    too_long = GroupChange.objects.annotate(size=Length(Cast("detail", TextField()))).filter(
        size__gt=MAX_DETAIL).values_list("pk", flat=True).first()
    if too_long is not None:
        raise Refused(f"the group log entry {too_long} is longer than {MAX_DETAIL} characters")
    for group in Group.objects.order_by("pk"):
        try:
            with translation.override("en"):
                check_history(group)
        except TransferError as err:
            raise Refused(f"the history of group {group.pk} breaks a rule: {err}") from err


MAX_DETAIL = 2000
"""Characters of a group log entry's detail (names of a rename, a link: a few dozen)."""


def summary(counts: dict[str, int]) -> str:
    """"accounts: 3, groups: 1, matches: 12, deals: 40": what a person checks after a backup."""
    return ", ".join(
        f"{name}: {counts.get(label, 0)}" for name, label in (
            ("accounts", "auth.User"), ("groups", "companion.Group"),
            ("matches", "companion.Match"), ("deals", "companion.Deal"),
        )
    )
