"""One import at a time per server: the group import and the BG Stats upload and import.

Reading an upload takes memory (a file within the limits, a few tens of MB while it is
checked) and its writes take turns with the phones; four at once took four times that.
So imports take turns: :func:`import_slot` is held while a file is read and written,
across the server's processes and threads, and an import that finds it held waits
:data:`WAIT` seconds in line, then is refused with a message saying so (nothing was
imported; the same file sent again a moment later goes through).

The lock is the database's own: on PostgreSQL an advisory lock of the connection
(``pg_try_advisory_lock``), on SQLite an exclusive ``flock`` on a lock file beside the
database file. Both are released when the process ends, so a worker that dies half-way
never leaves the slot taken.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import connection
from django.utils.translation import gettext as _

WAIT = 5.0
"""Seconds an import waits in line for the one running before it is refused."""
POLL = 0.1
"""Seconds between two tries while waiting."""
ADVISORY_KEY = 0x4B_52_49_4D_50
"""PostgreSQL's advisory lock key of the import slot (any number the app uses for nothing
else)."""


class ImportBusy(Exception):
    """Another import holds the slot; its message says so and that nothing was imported."""


def busy_message() -> str:
    return _("Another import is running on this server right now; nothing was imported. "
             "Please try again in a moment.")


def _lock_path() -> Path:
    """The SQLite database's lock file: beside the database file, or (an in-memory test
    database) in the temporary directory."""
    name = str(connection.settings_dict["NAME"])
    if name.startswith("file:") or name == ":memory:" or not Path(name).parent.is_dir():
        digest = hashlib.sha256(name.encode()).hexdigest()[:16]
        return Path(tempfile.gettempdir()) / f"kartenrunde-import-{digest}.lock"
    return Path(f"{name}.import-lock")


def _try_sqlite() -> Callable[[], None] | None:
    handle = os.open(_lock_path(), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(handle)
        return None

    def release() -> None:
        fcntl.flock(handle, fcntl.LOCK_UN)
        os.close(handle)

    return release


def _try_postgresql() -> Callable[[], None] | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [ADVISORY_KEY])
        if not cursor.fetchone()[0]:
            return None

    def release() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [ADVISORY_KEY])

    return release


@contextmanager
def import_slot(wait: float | None = None) -> Iterator[None]:
    """Hold the server's one import slot for the ``with`` block; wait up to ``wait``
    seconds (default :data:`WAIT`) for it, then raise :class:`ImportBusy`."""
    attempt = _try_postgresql if connection.vendor == "postgresql" else _try_sqlite
    deadline = time.monotonic() + (WAIT if wait is None else wait)
    release = attempt()
    while release is None:
        if time.monotonic() >= deadline:
            raise ImportBusy(busy_message())
        time.sleep(POLL)
        release = attempt()
    try:
        yield
    finally:
        release()


__all__ = ["WAIT", "ImportBusy", "busy_message", "import_slot"]
