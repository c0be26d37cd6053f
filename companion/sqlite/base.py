"""Django's SQLite backend, with the transactions of a process in line for the write lock
(issue 31).

SQLite lets one connection write at a time. Every transaction of the app takes the write
lock when it begins (``BEGIN IMMEDIATE``, settings.SQLITE_OPTIONS); a connection that
finds it taken waits in SQLite's busy handler, which sleeps and tries again, longer and
longer (up to 100 ms a time). With a dozen saves at once in one process that was a
convoy: the lock stood free while its waiters slept, each save held a thread for seconds,
and the server's threads ran out (bench/watchers.py, 2,000 phones: 13 of a process's 16
threads asleep in ``BEGIN``, every page and poll queued behind them).

Here a transaction first waits for its turn in this process (a lock handed on the moment
it is let go, no sleeping), and only then asks SQLite: at most one transaction per
process waits in SQLite's busy handler (for the other processes' writers). A turn that
does not come within the database's ``timeout`` fails as SQLite would ("database is
locked": 503, nothing saved, companion/middleware.py).

Between the server's processes the turn is a lock file beside the database
(``<database>-write.lock``, ``fcntl.flock``): the one thread of a process whose turn it is
tries it every half millisecond. Without it that thread waited in SQLite's busy handler,
which sleeps longer and longer (25-100 ms a time after the first tries): while it slept, the
other process handed the lock from one of its own transactions to the next, and at 1,000
phones a save waited 90-155 ms for a lock each transaction held 12 ms. A lock file that
cannot be opened (a read-only folder) leaves the turn to SQLite as before.

Reads outside a transaction and deferred transactions (``transaction_mode`` unset) take no
turn: they do not need the write lock when they begin.

A subclass of Django's own backend, named by ``ENGINE`` (settings.SQLITE_ENGINE), as
Django's documentation describes ("Subclassing the built-in database backends"); it
overrides only where a transaction begins and ends.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time

from django.db.backends.sqlite3 import base
from django.db.utils import OperationalError

from companion import load_report

_turn = threading.Lock()
"""This process's write turn: held from a transaction's ``BEGIN`` to its end."""
_files: dict[str, int | None] = {}
"""Per database file, this process's descriptor of its lock file (None: none to be had)."""
PAUSE = 0.0005
"""Seconds between two tries of the lock file."""


def _lock_file(name: str) -> int | None:
    if name not in _files:
        descriptor = None
        if name and name != ":memory:" and not name.startswith("file:"):
            with contextlib.suppress(OSError):
                descriptor = os.open(f"{name}-write.lock",
                                     os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        _files[name] = descriptor
    return _files[name]


def _take_file(descriptor: int, deadline: float) -> bool:
    """The server's write turn, between its processes: False if it did not come before
    ``deadline`` (a monotonic time)."""
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(PAUSE)


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._has_turn = False
        self._file: int | None = None
        """The lock file this connection's transaction holds."""
        self._begun = 0.0
        """When this connection's transaction got SQLite's write lock (its ``BEGIN``)."""

    def _writes_at_begin(self) -> bool:
        return self.transaction_mode in ("IMMEDIATE", "EXCLUSIVE")

    def _take_turn(self) -> None:
        if self._has_turn or not self._writes_at_begin():
            return
        timeout = float(self.settings_dict.get("OPTIONS", {}).get("timeout", 5))
        started = time.monotonic()
        if not _turn.acquire(timeout=timeout):
            raise OperationalError("database is locked (no write turn within the timeout)")
        descriptor = _lock_file(str(self.settings_dict["NAME"]))
        if descriptor is not None:
            if not _take_file(descriptor, started + timeout):
                _turn.release()
                raise OperationalError("database is locked (no write turn within the timeout)")
            self._file = descriptor
        load_report.spent("write_turn", time.monotonic() - started)
        self._has_turn = True

    def _end_turn(self) -> None:
        if self._has_turn:
            self._has_turn = False
            if self._file is not None:
                fcntl.flock(self._file, fcntl.LOCK_UN)
                self._file = None
            _turn.release()
            if self._begun:
                load_report.spent("write_held", time.monotonic() - self._begun)
                self._begun = 0.0

    def _start_transaction_under_autocommit(self) -> None:
        self._take_turn()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._end_turn()
            raise
        self._begun = time.monotonic()

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self._end_turn()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._end_turn()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            self._end_turn()

    def _set_autocommit(self, autocommit: bool) -> None:
        super()._set_autocommit(autocommit)
        if autocommit:
            self._end_turn()
