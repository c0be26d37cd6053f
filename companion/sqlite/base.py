"""Django's SQLite backend, with writers that queue for the write lock.

SQLite lets one connection write at a time. Every transaction here takes the write lock
when it begins (``BEGIN IMMEDIATE``, settings.SQLITE_OPTIONS); a second writer is left to
SQLite's busy handler, which sleeps and tries again (1, 2, 5, 10 … 100 ms). Under load
that made saves wait in their sleeps while the lock stood free: on `make run` with 500
watching phones (125 tables saving every 5 s), a process had on average 8.7 threads
asleep in ``BEGIN IMMEDIATE`` of a save, and a save took over a second.

Here a writer first takes the process's lock (a ``threading.Lock``: the next thread of
the process is woken the moment it is released) and then the database's lock file
(``fcntl.flock`` on ``<database>-writers.lock``), which the other processes of the server
take the same way; only then does it begin the transaction, which then finds SQLite's
lock free. Both are released as soon as the transaction commits or rolls back. A writer
that does not get them within the database's ``timeout`` fails as SQLite would
("database is locked": 503, companion.middleware.DatabaseBusyMiddleware). A writer that
does not take the lock file (the sqlite3 shell) is still waited for by SQLite itself.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from typing import Any

from django.db.backends.sqlite3 import base

_locks: dict[str, _WriteLock] = {}
_locks_lock = threading.Lock()


class _WriteLock:
    """One database's writers of this process: a thread lock, then the lock file."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.thread_lock = threading.Lock()
        self.fd: int | None = None

    def acquire(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        if not self.thread_lock.acquire(timeout=timeout):
            return False
        try:
            if self.fd is None:
                self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            pause = 0.0005
            while True:
                try:
                    fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return True
                except BlockingIOError:
                    # Another process writes: only this thread of the process asks again.
                    if time.monotonic() >= deadline:
                        self.thread_lock.release()
                        return False
                    time.sleep(pause)
                    pause = min(pause * 2, 0.002)
        except BaseException:
            self.thread_lock.release()
            raise

    def release(self) -> None:
        try:
            if self.fd is not None:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
        finally:
            self.thread_lock.release()


def _write_lock(path: str) -> _WriteLock:
    with _locks_lock:
        lock = _locks.get(path)
        if lock is None:
            lock = _locks[path] = _WriteLock(path)
        return lock


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._holding: _WriteLock | None = None

    def _queue(self) -> _WriteLock | None:
        """The lock this connection's transactions queue for (none in memory)."""
        name = self.settings_dict["NAME"]
        if self.is_in_memory_db() or not name:
            return None
        return _write_lock(f"{os.path.abspath(name)}-writers.lock")

    def _start_transaction_under_autocommit(self) -> None:
        lock = self._queue() if self._holding is None else None
        if lock is not None:
            timeout = float(self.settings_dict["OPTIONS"].get("timeout", 5))
            if not lock.acquire(timeout):
                with self.wrap_database_errors:  # as Django's OperationalError, as SQLite's
                    raise self.Database.OperationalError("database is locked")
            self._holding = lock
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self._let_go()
            raise

    def _let_go(self) -> None:
        if self._holding is not None:
            lock, self._holding = self._holding, None
            lock.release()

    def _commit(self) -> None:
        try:
            super()._commit()  # type: ignore[misc]
        finally:
            self._let_go()

    def _rollback(self) -> None:
        try:
            super()._rollback()  # type: ignore[misc]
        finally:
            self._let_go()

    def _set_autocommit(self, autocommit: bool) -> None:
        super()._set_autocommit(autocommit)  # type: ignore[misc]
        if autocommit:
            self._let_go()

    def _close(self) -> None:
        try:
            super()._close()  # type: ignore[misc]
        finally:
            self._let_go()
