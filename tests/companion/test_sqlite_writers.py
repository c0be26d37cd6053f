"""SQLite's writers queue for the write lock (companion/sqlite/base.py): a thread lock in
the process, then the database's lock file, which every process of the server takes the
same way; held from the transaction's start to its commit or rollback, and only then."""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator

import pytest
from django.db import OperationalError, connection, transaction

from companion.models import Group

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's writers only"),
]


def lock_file() -> str:
    return f"{os.path.abspath(connection.settings_dict['NAME'])}-writers.lock"


def free() -> bool:
    """Whether another process could take the lock file now."""
    fd = os.open(lock_file(), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


@pytest.fixture
def other_process() -> Iterator[int]:
    """The lock file held as another process of the server holds it while it writes."""
    connection.ensure_connection()
    fd = os.open(lock_file(), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield fd
    finally:
        os.close(fd)


def test_a_transaction_holds_the_lock_file_until_it_commits_or_rolls_back(anna: object) -> None:
    with transaction.atomic():
        Group.objects.create(name="Runde", owner=anna)
        assert not free()
    assert free()
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        Group.objects.create(name="Runde 2", owner=anna)
        assert not free()
        1 / 0  # noqa: B018
    assert free()
    assert list(Group.objects.values_list("name", flat=True)) == ["Runde"]
    Group.objects.create(name="Runde 3", owner=anna)  # autocommit: no transaction, no lock
    assert free()


def test_a_writer_waits_for_another_process_and_goes_on_the_moment_it_is_done(
    anna: object, other_process: int
) -> None:
    done: list[float] = []

    def write() -> None:
        with transaction.atomic():
            Group.objects.create(name="Runde", owner=anna)
        done.append(time.monotonic())
        connection.close()

    writer = threading.Thread(target=write)
    writer.start()
    time.sleep(0.3)
    assert not done  # waiting in line
    released = time.monotonic()
    fcntl.flock(other_process, fcntl.LOCK_UN)
    writer.join(5)
    assert done and done[0] - released < 0.2
    assert Group.objects.filter(name="Runde").exists()


def test_a_writer_that_waits_longer_than_the_timeout_is_refused_as_locked(
    anna: object, other_process: int
) -> None:
    options = connection.settings_dict["OPTIONS"]
    timeout = options.get("timeout")
    options["timeout"] = 0.3
    try:
        started = time.monotonic()
        with pytest.raises(OperationalError, match="database is locked"), transaction.atomic():
            Group.objects.create(name="Runde", owner=anna)
        assert 0.3 <= time.monotonic() - started < 2
    finally:
        options["timeout"] = timeout
    assert not Group.objects.exists()
    fcntl.flock(other_process, fcntl.LOCK_UN)
    with transaction.atomic():  # nothing was left held by the refused writer
        Group.objects.create(name="Runde", owner=anna)
    assert free()
