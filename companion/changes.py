"""Phones in step: a poll of an unchanged sheet waits for the match's next change.

Under the ASGI server (``make run``, the hosted profile) the polls wait in the event loop
(:mod:`companion.waiting`); :func:`announce` wakes them too. The threads described here
wait only under WSGI (``runserver``, the browser tests' live server).

Every change of a match moves its revision on (``services.sheet.touch``) and, once the
transaction has committed, announces the match here (:func:`announce`). A phone's poll
that names the revision it shows may wait (:func:`wait_for_change`) until the match is
announced, then answers at once with the new sheet: a deal saved on one phone shows on the
others within a round trip instead of at their next poll.

How the announcement reaches a waiting poll:

- in the process that saved it: a ``threading.Condition`` (one per process, the waiting
  polls are threads of the WSGI server);
- in other processes, on PostgreSQL: ``NOTIFY`` on the channel :data:`CHANNEL`, which each
  process listens to on a connection of its own (PostgreSQL's ``LISTEN``/``NOTIFY``, the
  database's own publish and subscribe);
- anywhere else (SQLite with several processes, a change made by a management command):
  the waiting poll reads the revision again every :data:`RECHECK` seconds (as often as
  the phones polled before polls were held).

At most ``MAX_WAITING`` polls wait in one process (each holds a thread); the rest are
answered at once, as a plain poll (304), and ask again later.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable

from django.db import connection, transaction

from companion import waiting

log = logging.getLogger(__name__)

CHANNEL = waiting.CHANNEL
RECHECK = 2.0
"""Seconds between two reads of a waiting poll's revision (changes no announcement
reaches)."""
MAX_WAITING = int(os.environ.get("KARTENRUNDE_MAX_WAITING_POLLS", "24"))
"""Polls that may wait at once in one process: fewer than the process's threads, so that
every other request still finds one (gunicorn.conf.py)."""

_condition = threading.Condition()
_announced: dict[int, int] = {}
"""Match id → how many times it was announced in this process (only ever compared)."""
_waiting = 0
_stopped = False
_listener: threading.Thread | None = None


def _count(match_id: int) -> int:
    return _announced.get(match_id, 0)


def announce_here(match_id: int, revision: int | None = None) -> None:
    """Wake this process's polls waiting for ``match_id`` (changed to ``revision``, if
    known)."""
    with _condition:
        _announced[match_id] = _count(match_id) + 1
        _condition.notify_all()
    waiting.changed(match_id, revision)  # the polls held in the event loop (ASGI server)


def announce(match_id: int, revision: int | None = None) -> None:
    """Announce a change of ``match_id`` (to ``revision``, if the change knows it) once the
    current transaction commits (at once outside one): to this process, and on PostgreSQL
    to every process."""
    def publish() -> None:
        announce_here(match_id, revision)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_notify(%s, %s)",
                               [CHANNEL, waiting.notice(match_id, revision)])

    transaction.on_commit(publish)


def wait_for_change(match_id: int, changed: Callable[[], bool], timeout: float) -> bool:
    """Wait up to ``timeout`` seconds until ``changed()`` (a read of the match's revision)
    says the match moved on; True if it did. ``changed`` is called first, when the match is
    announced and every :data:`RECHECK` seconds. False at once when too many polls wait."""
    global _waiting
    with _condition:
        if _waiting >= MAX_WAITING or _stopped:
            return False
        _waiting += 1
    try:
        _start_listening()
        if not connection.in_atomic_block:
            # Waiting holds no database connection: the next read opens one again.
            connection.close()
        deadline = time.monotonic() + timeout
        while True:
            # The count first, the revision then: a change committed in between wakes us.
            with _condition:
                seen = _count(match_id)
            if changed():
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            with _condition:
                _condition.wait_for(lambda seen=seen: _count(match_id) != seen or _stopped,
                                    min(left, RECHECK))
                if _stopped:
                    return False
    finally:
        with _condition:
            _waiting -= 1


def stop_waiting() -> None:
    """Every poll waiting here is answered now (as unchanged), and none waits any more:
    the server (a test's live server) ends, and a poll that went on waiting would read a
    database that is gone by then. The listening connection is closed too (at most
    :data:`LISTEN_CHECK` seconds later): left open, it kept the test database from being
    removed at the end of a run."""
    global _stopped
    with _condition:
        _stopped = True
        _condition.notify_all()
    listener = _listener
    if listener is not None:
        listener.join(LISTEN_CHECK * 4)


def _start_listening() -> None:
    """On PostgreSQL: listen to the other processes' announcements (once per process)."""
    global _listener
    if connection.vendor != "postgresql" or (_listener is not None and _listener.is_alive()):
        return
    with _condition:
        if _listener is not None and _listener.is_alive():
            return
        params = connection.get_connection_params()
        _listener = threading.Thread(target=_listen, args=(params,), daemon=True,
                                     name="kartenrunde-changes")
        _listener.start()


LISTEN_CHECK = 0.25
"""Seconds between two looks of the listening thread whether to stop (:func:`stop_waiting`)."""


def _listen(params: dict[str, object]) -> None:
    import psycopg

    while not _stopped:
        try:
            with psycopg.connect(**params, autocommit=True) as listening:  # type: ignore[arg-type]
                listening.execute(f"LISTEN {CHANNEL}")
                while not _stopped:
                    for notification in listening.notifies(timeout=LISTEN_CHECK):
                        change = waiting.changed_elsewhere(notification.payload)
                        if change is not None:
                            announce_here(*change)
        except Exception:  # the database went away: listen again in a moment
            log.warning("Listening for match changes failed; trying again.", exc_info=True)
            time.sleep(1)
