"""Held polls wait in the event loop: no thread, no database connection while they wait.

A phone showing a running sheet asks for it again with the ETag it shows
(``If-None-Match``) and ``KR-Wait``: "answer when the match changes". Under the ASGI
server (``companion.asgi``, gunicorn with :class:`companion.server.Worker`) such a poll
waits here, in front of Django, as a coroutine, until

- the match is announced (:func:`changed`): in this process by ``companion.changes``
  once the change committed, from other processes through one PostgreSQL ``LISTEN``
  connection per process (:func:`_listen`, psycopg's async notifications);
- or a read of the waited-for matches' revisions (one query for all of them every
  :data:`RECHECK` seconds, :func:`_recheck`) finds one moved on: changes no
  announcement reached (a management command, a lost notification) and, on SQLite,
  the changes of the server's other processes (SQLite has no notifications: the read
  is then every :data:`RECHECK_SQLITE` seconds, so a save in one process is seen by
  the phones waiting in the other within that time);
- or :data:`POLL_WAIT` seconds passed;
- or the server is told to stop (:func:`stop`): then it is answered 304 at once.

Then (except when stopping) the request goes on to Django like any other, through every
middleware to the plain sync view: the session is read again there, so a poll whose
session ended meanwhile (logout, password change, deactivated account) is refused, not
answered with the new sheet; the view answers 200 with the sheet or 304.

Only a poll whose ETag the app signed for this match may wait (:func:`sign`,
:func:`verified`): the ETag is given only to viewers of the match, so nobody else can
learn by waiting when a match changes. At most :data:`MAX_WAITING` polls wait in one
process; any further one goes on to Django at once (304, the phone asks again).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Literal

from asgiref.sync import sync_to_async
from django.utils.crypto import constant_time_compare, salted_hmac

log = logging.getLogger(__name__)

CHANNEL = "kartenrunde_match_changed"
"""The PostgreSQL notification channel; the payload is ``<match id>:<process id>``, with
``:<revision>`` when the change knows the revision it made (:func:`notice`,
:func:`changed_elsewhere`)."""
POLL_WAIT = 15.0
"""Seconds a held poll waits at most (below the phones' request timeout, static/js/net.js)."""
RECHECK = 2.0
"""Seconds between two reads of the waited-for matches' revisions (PostgreSQL, whose
notifications tell every process of a change at once)."""
RECHECK_SQLITE = 0.25
"""The same on SQLite, where this read is how one process learns of another's changes:
one indexed query of a few hundred ids, about a millisecond, four times a second."""
MAX_WAITING = int(os.environ.get("KARTENRUNDE_MAX_HELD_POLLS", "5000"))
"""Polls that may wait at once in one process (each costs a coroutine, a few kB)."""
KNOWN = 10_000
"""Matches whose current revision this process remembers (the most recently used)."""

Outcome = Literal["changed", "timeout", "stopping", "busy"]

_SALT = "kartenrunde.waiting.poll"
_SIGNATURE = 16


def sign(match_id: int, value: str) -> str:
    """``value`` (``revision.language.viewer``) with a signature that binds it to the match."""
    digest = salted_hmac(_SALT, f"{match_id}:{value}", algorithm="sha256").hexdigest()
    return f"{value}.{digest[:_SIGNATURE]}"


def verified(match_id: int, etag: str) -> int | None:
    """The revision a signed ETag (``"rev.lang.key.sig"``, maybe weak) names for the match,
    or None if the app did not sign it for this match."""
    tag = etag.strip().removeprefix("W/").strip('"')
    value, dot, _signature = tag.rpartition(".")
    revision = value.partition(".")[0]
    if not dot or not revision.isdigit() or not constant_time_compare(sign(match_id, value), tag):
        return None
    return int(revision)


class _State:
    """This process's waiting polls (only touched in the event loop's thread)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.waiters: dict[int, dict[asyncio.Future[Outcome], int]] = {}
        self.count = 0
        self.known: OrderedDict[int, int] = OrderedDict()
        """Match → its current revision, as last read or learned, while no change of it
        was announced since."""
        self.ticks = 0
        self.announced_at: dict[int, int] = {}
        """Match → tick of its last announcement (only the matches in ``known``)."""
        self.stopping = False
        self.tasks: set[asyncio.Task[None]] = set()


_state = _State()


def _now_tick() -> int:
    _state.ticks += 1
    return _state.ticks


def _remember(match_id: int, revision: int, since: int) -> None:
    """Remember a revision read or learned at tick ``since`` unless the match was
    announced after that (the read may be older than the announced change)."""
    if _state.announced_at.get(match_id, 0) > since:
        return
    _state.known[match_id] = revision
    _state.known.move_to_end(match_id)
    while len(_state.known) > KNOWN:
        old, _ = _state.known.popitem(last=False)
        _state.announced_at.pop(old, None)


def _changed_here(match_id: int, revision: int | None) -> None:
    """In the loop: the match changed (to ``revision`` if known, which this process then
    knows as the current one: a woken poll may be answered without asking Django for it,
    companion/trusted_polls.py): wake its waiters."""
    if revision is not None:
        known = _state.known.get(match_id)
        if known is not None and known >= revision:
            # Overtaken: a later change was announced first (two saves' threads), or a
            # read (the recheck, or a Django answer's ETag) found this one already. The
            # polls still waiting at an older revision than that are behind.
            _wake_waiting(match_id, lambda waited_at: waited_at < known)
            return
    _state.known.pop(match_id, None)
    _state.announced_at[match_id] = _now_tick()
    if revision is not None:
        _state.known[match_id] = revision
    if len(_state.announced_at) > KNOWN:
        # Forget the oldest announcements; a tick of 0 then reads as "never announced",
        # so remember nothing read before now.
        for old in list(_state.announced_at)[: len(_state.announced_at) - KNOWN]:
            del _state.announced_at[old]
        _state.known.clear()
    _wake_waiting(match_id, lambda waited_at: revision is None or revision != waited_at)


def _wake_waiting(match_id: int, behind: Callable[[int], bool]) -> None:
    """Wake the match's waiting polls whose revision is ``behind`` (given the revision
    they wait at)."""
    for future, waited_at in list(_state.waiters.get(match_id, {}).items()):
        if behind(waited_at):
            _wake(future, "changed")


def _wake(future: asyncio.Future[Outcome], outcome: Outcome) -> None:
    if not future.done():
        future.set_result(outcome)


def changed(match_id: int, revision: int | None = None) -> None:
    """From any thread: the match changed; its held polls go on to Django."""
    loop = _state.loop
    if loop is None or loop.is_closed():
        return
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        _changed_here(match_id, revision)
    else:
        loop.call_soon_threadsafe(_changed_here, match_id, revision)


def stop() -> None:
    """The server stops (Ctrl+C, a deploy, a worker's restart): every held poll is
    answered at once (304), and no new one waits."""
    _state.stopping = True
    for futures in list(_state.waiters.values()):
        for future in list(futures):
            _wake(future, "stopping")
    for task in list(_state.tasks):
        task.cancel()


def waiting_count() -> int:
    return _state.count


def _read_revisions(match_ids: list[int]) -> dict[int, int]:
    """(In a worker thread.) The current revisions of the matches that still exist."""
    from django.db import connection

    from companion.models import Match

    try:
        return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "revision"))
    finally:
        if connection.vendor != "sqlite":
            connection.close()  # back to the pool: waiting holds no database connection
        # SQLite's stays open in its thread (a few, the loop's executor): opening one anew
        # for every read (four a second, and for every poll whose revision is not known)
        # was 7 % of a process at 1,000 phones (py-spy). It holds no server's connection
        # and no lock between reads.


async def hold(match_id: int, revision: int, timeout: float | None = None) -> Outcome:
    """Wait until the match is no longer at ``revision`` (a verified ETag's), at most
    ``timeout`` seconds (:data:`POLL_WAIT`); the outcome says why it ended."""
    timeout = POLL_WAIT if timeout is None else timeout
    if _state.stopping:
        return "stopping"
    if _state.count >= MAX_WAITING:
        return "busy"
    loop = asyncio.get_running_loop()
    if _state.loop is not loop:
        _state.loop = loop
        _start(loop)
    _state.count += 1
    try:
        current = _state.known.get(match_id)
        if current is None or current < revision:
            # Unknown, or this process is behind the phone (another process answered it
            # the change this one has not read yet): read it. Gone on to Django as
            # "changed", the poll would take a thread to be told it is up to date.
            since = _now_tick()
            found = await sync_to_async(_read_revisions, thread_sensitive=False)([match_id])
            current = found.get(match_id)
            if current is None:
                return "changed"  # deleted: Django answers 410
            _remember(match_id, current, since)
            if _state.announced_at.get(match_id, 0) > since:
                # A change was announced while it read: newer than what it read.
                announced = _state.known.get(match_id)
                if announced is None:
                    return "changed"
                current = announced
        if current != revision or _state.stopping:
            return "changed" if not _state.stopping else "stopping"
        future: asyncio.Future[Outcome] = loop.create_future()
        _state.waiters.setdefault(match_id, {})[future] = revision
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return "timeout"
        finally:
            futures = _state.waiters.get(match_id)
            if futures is not None:
                futures.pop(future, None)
                if not futures:
                    del _state.waiters[match_id]
    finally:
        _state.count -= 1


def learned(match_id: int, revision: int, since: int) -> None:
    """An answer of Django's named the match's current revision as read at tick ``since``."""
    _remember(match_id, revision, since)


def tick() -> int:
    return _now_tick()


def notice(match_id: int, revision: int | None = None) -> str:
    """The payload of the notification of a change of ``match_id`` made in this process
    (to ``revision``, if the change knows it)."""
    payload = f"{match_id}:{os.getpid()}"
    return payload if revision is None else f"{payload}:{revision}"


def changed_elsewhere(payload: str) -> tuple[int, int | None] | None:
    """The match a notification's payload names and the revision it names (None if none),
    unless this process made the change: it announced that to its own polls already, and
    a second announcement would make it forget the revision its first answer taught it.
    None for an unreadable payload."""
    match_id, _, rest = payload.partition(":")
    pid, _, revision = rest.partition(":")
    if not match_id.isdigit() or (pid and not pid.isdigit()) or \
            (revision and not revision.isdigit()):
        return None
    if pid and int(pid) == os.getpid():
        return None
    return int(match_id), int(revision) if revision else None


def known_revision(match_id: int) -> int | None:
    """The match's revision as this process knows it (read or learned, and no change
    announced since), or None."""
    return _state.known.get(match_id)


def _start(loop: asyncio.AbstractEventLoop) -> None:
    """Once per event loop: the recheck and, on PostgreSQL, the listener."""
    from django.db import connections

    _state.stopping = False
    _state.known.clear()
    _state.announced_at.clear()
    postgres = connections["default"].vendor == "postgresql"
    jobs = [_recheck(RECHECK if postgres else RECHECK_SQLITE)]
    if postgres:
        jobs.append(_listen())
    for job in jobs:
        task = loop.create_task(job)
        _state.tasks.add(task)
        task.add_done_callback(_state.tasks.discard)


async def _recheck(every: float) -> None:
    """Every ``every`` seconds while polls wait: one query for all their matches' revisions."""
    while True:
        await asyncio.sleep(every)
        watched = list(_state.waiters)
        if not watched:
            continue
        try:
            since = _now_tick()
            found = await sync_to_async(_read_revisions, thread_sensitive=False)(watched)
        except Exception:
            log.warning("Reading the waited-for matches failed.", exc_info=True)
            continue
        for match_id in watched:
            current = found.get(match_id)
            if current is None:
                _changed_here(match_id, None)
                continue
            _remember(match_id, current, since)
            _wake_waiting(match_id, lambda waited_at, current=current: waited_at != current)


def _listen_params() -> dict[str, Any]:
    from django.db import connections

    params = dict(connections["default"].get_connection_params())
    for sync_only in ("cursor_factory", "context", "prepare_threshold", "server_side_binding"):
        params.pop(sync_only, None)
    return params


async def _listen() -> None:
    """PostgreSQL: one connection of this process listens to every process's changes."""
    import psycopg

    params = await sync_to_async(_listen_params, thread_sensitive=False)()
    listened = False
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                if listened:
                    # Listening again: changes made meanwhile were not heard, so every
                    # waiting poll asks Django again and nothing read before is trusted.
                    _state.known.clear()
                    for match_id in list(_state.waiters):
                        _changed_here(match_id, None)
                listened = True
                async for note in conn.notifies():
                    change = changed_elsewhere(note.payload)
                    if change is not None:
                        _changed_here(*change)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("Listening for match changes failed; trying again.", exc_info=True)
            await asyncio.sleep(1)

