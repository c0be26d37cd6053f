"""A process's transactions wait in line for SQLite's write lock (companion/sqlite/base.py).

A second writer of the same process waits for its turn before it asks SQLite: it never
sleeps in SQLite's busy handler while the lock is taken by its own process, so the lock
is handed on the moment it is let go. The turn ends with the transaction, however it
ends, and a writer that does not get it within the database's timeout fails as SQLite
would ("database is locked": the 503 of companion/middleware.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError, connection, transaction

from companion import load_report
from companion.middleware import _locked
from companion.sqlite import base

pytestmark = pytest.mark.django_db(transaction=True)


class Holder:
    """Another thread of this process in a transaction until :meth:`end`."""

    def __init__(self) -> None:
        self.inside = threading.Event()
        self.go = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            with transaction.atomic():
                User.objects.create(username="Holder")
                self.inside.set()
                self.go.wait(30)
        finally:
            connection.close()

    def __enter__(self) -> Holder:
        self.thread.start()
        assert self.inside.wait(10), "the holder began its transaction"
        return self

    def end(self) -> None:
        self.go.set()
        self.thread.join(10)

    def __exit__(self, *exc: Any) -> None:
        self.end()


def in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    found: dict[str, Any] = {}

    def run() -> None:
        try:
            found["result"] = work()
        except Exception as error:
            found["error"] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, found


@pytest.fixture(autouse=True)
def sqlite() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("the write turn is SQLite's (PostgreSQL writes rows, not the database)")


@pytest.fixture
def turn_free() -> Iterator[None]:
    yield
    assert base._turn.acquire(blocking=False), "no transaction kept the turn"
    base._turn.release()


def test_a_second_writer_asks_sqlite_only_when_its_turn_comes(turn_free: None) -> None:
    asked = threading.Event()

    def watch(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if sql.startswith("BEGIN"):
            asked.set()
        return execute(sql, params, many, context)

    def write() -> int:
        with connection.execute_wrapper(watch), transaction.atomic():
            return User.objects.create(username="Second").pk

    with Holder() as holder:
        thread, found = in_thread(write)
        # While the holder's transaction runs, the second writer waits for its turn: it
        # has not begun a transaction in SQLite (where it would sleep in the busy handler).
        assert not asked.wait(0.5)
        holder.end()
        thread.join(10)
    assert asked.is_set()
    assert "error" not in found
    assert set(User.objects.values_list("username", flat=True)) == {"Holder", "Second"}


def test_a_writer_whose_turn_does_not_come_in_time_finds_the_database_locked(
    turn_free: None,
) -> None:
    def write() -> None:
        connection.ensure_connection()
        connection.settings_dict["OPTIONS"] = {**connection.settings_dict["OPTIONS"],
                                               "timeout": 0.3}
        with transaction.atomic():
            User.objects.create(username="Too late")

    with Holder():
        thread, found = in_thread(write)
        thread.join(10)
    assert isinstance(found.get("error"), OperationalError)
    assert _locked(found["error"])  # answered 503, "nothing was saved"
    assert not User.objects.filter(username="Too late").exists()


def test_the_turn_ends_with_the_transaction_however_it_ends(turn_free: None) -> None:
    with transaction.atomic():
        User.objects.create(username="Kept")
    assert base._turn.acquire(blocking=False)
    base._turn.release()

    with pytest.raises(ValueError), transaction.atomic():
        User.objects.create(username="Undone")
        raise ValueError
    assert base._turn.acquire(blocking=False)
    base._turn.release()

    with transaction.atomic():
        User.objects.create(username="Rolled back")
        transaction.set_rollback(True)
    assert list(User.objects.values_list("username", flat=True)) == ["Kept"]


def test_a_deferred_transaction_takes_no_turn(turn_free: None) -> None:
    with Holder():
        connection.ensure_connection()
        mode = connection.transaction_mode
        connection.transaction_mode = None
        try:
            with transaction.atomic():  # begins without the write lock: reads go on
                assert User.objects.filter(username="Holder").count() == 0  # not committed
        finally:
            connection.transaction_mode = mode



def test_the_load_report_counts_how_long_a_transaction_held_the_lock(
    turn_free: None, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``write_held``: from the ``BEGIN`` that got SQLite's write lock to the transaction's
    end, however it ends; not the wait in ``BEGIN`` before it (another process's writer)."""
    clock = SimpleNamespace(now=100.0)
    monkeypatch.setattr(base, "time", SimpleNamespace(monotonic=lambda: clock.now))

    def slow_begin(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if sql.startswith("BEGIN"):
            clock.now += 5  # SQLite's busy handler, waiting for the other process
        return execute(sql, params, many, context)

    load_report.counts.clear()
    load_report._spent.clear()
    with connection.execute_wrapper(slow_begin):
        with transaction.atomic():
            User.objects.create(username="Kept")
            clock.now += 0.25
        with pytest.raises(ValueError), transaction.atomic():
            clock.now += 0.5
            raise ValueError
    assert load_report.counts["write_held"] == 2
    assert load_report._spent["write_held"] == pytest.approx(0.75)
    assert load_report._spent["write_turn"] == 0  # no other writer in this process


def test_a_writer_waits_for_another_process_s_turn_in_the_lock_file(turn_free: None) -> None:
    """The server's processes take turns through a lock file beside the database: a writer
    whose turn another process holds waits there (tried every half millisecond), not in
    SQLite's busy handler (sleeping up to 100 ms a time while the other process hands the
    lock on to its own next writer); it goes on the moment the other lets go, and finds
    the database locked when that does not happen within the timeout."""
    import subprocess
    import sys

    connection.ensure_connection()
    name = str(connection.settings_dict["NAME"])
    if base._lock_file(name) is None:
        pytest.skip("an in-memory test database has no lock file")
    other = subprocess.Popen(
        [sys.executable, "-c",
         "import fcntl, os, sys\n"
         f"fd = os.open({name + '-write.lock'!r}, os.O_RDWR | os.O_CREAT)\n"
         "fcntl.flock(fd, fcntl.LOCK_EX)\n"
         "print('held', flush=True)\n"
         "sys.stdin.readline()\n"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "held"

        def write(username: str, timeout: float) -> None:
            connection.ensure_connection()
            connection.settings_dict["OPTIONS"] = {**connection.settings_dict["OPTIONS"],
                                                   "timeout": timeout}
            with transaction.atomic():
                User.objects.create(username=username)

        thread, found = in_thread(lambda: write("Too late", 0.3))
        thread.join(10)
        assert isinstance(found.get("error"), OperationalError)
        assert _locked(found["error"])

        thread, found = in_thread(lambda: write("In turn", 20))
        thread.join(0.5)
        assert thread.is_alive()  # waiting for the other process
        assert other.stdin is not None
        other.stdin.write("\n")
        other.stdin.flush()
        thread.join(10)
        assert "error" not in found
    finally:
        other.kill()
        other.wait(10)
    assert list(User.objects.values_list("username", flat=True)) == ["In turn"]
