"""ASGI entry point for Kartenrunde (the server of `make run` and the hosted profile:
gunicorn with :class:`companion.server.Worker`, see gunicorn.conf.py).

Every request goes to Django's WSGI handler, the whole sync stack (middleware, views,
ORM) in one of :data:`THREADS` threads of a pool (a2wsgi), as under gunicorn's threads. A
sheet's or live board's held poll (``HX-Request``, ``KR-Wait`` and an ``If-None-Match`` the
app signed for the match) first waits here, in the event loop, for the match's next
change (:mod:`companion.waiting`): a waiting phone costs a coroutine, not a thread nor a
database connection; then Django answers it (200 with the sheet, or 304) like any poll.

Lines in the event loop give each kind of request its share of the threads: woken sheet
polls take at most :data:`POLL_THREADS` of them (the first of a kind, whose answer the
others wait for, goes first: :class:`Lane`), changes at most :data:`WRITE_THREADS`, other
pages at most :data:`PAGE_THREADS`; a rush of one kind waits in the loop, not in front of
the others.

Why not Django's ASGI handler with an async view: Django's own middleware (sessions,
authentication, messages, CSRF, django-axes, WhiteNoise) is sync. Under ASGI each of
them is called through ``sync_to_async`` in a thread asgiref keeps for the whole request:
an async view behind them would still hold a thread while it waits, and every request
would pass between the event loop and its thread twice per middleware, which on a busy
machine made every page several times slower than one hop into a pool thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import deque
from typing import Any

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")

from django.urls import Resolver404, resolve

from companion import load_report, trusted_polls, waiting

THREADS = int(os.environ.get("KARTENRUNDE_THREADS", "16"))
"""Requests Django works on at once in one process (the others wait in the event loop)."""
django_application = WSGIMiddleware(get_wsgi_application(), workers=THREADS)

POLL_THREADS = int(os.environ.get("KARTENRUNDE_POLL_THREADS", str(max(1, THREADS // 4))))
"""Of those, how many may answer sheet polls at once: a change wakes every phone that
watches the match at the same moment (hundreds on a busy evening); they queue in the
event loop for these threads, and the others stay free for every other page (a rules
lookup is not queued behind a wave of polls)."""


class Lane:
    """A kind of request's places in Django (:data:`POLL_THREADS`, :data:`WRITE_THREADS`,
    :data:`PAGE_THREADS`), and the requests waiting for one, in the order they came; one
    that asks to go ``first`` goes ahead. For polls that is the poll that leads its kind
    (the other phones of its kind wait for its answer,
    :class:`companion.trusted_polls.Through`): on a busy evening hundreds of woken polls
    wait here, and a leader at the end of the line kept its followers waiting until they
    gave up and queued for Django themselves."""

    def __init__(self, places: int) -> None:
        self.free = places
        self.first: deque[asyncio.Future[None]] = deque()
        self.others: deque[asyncio.Future[None]] = deque()

    def waiting(self) -> int:
        return len(self.first) + len(self.others)

    async def acquire(self, *, first: bool = False) -> None:
        if self.free > 0 and not self.waiting():
            self.free -= 1
            return
        place: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        line = self.first if first else self.others
        line.append(place)
        try:
            await place
        except asyncio.CancelledError:
            if place.done() and not place.cancelled():
                self.release()  # given a place just as it was cancelled: pass it on
            else:
                with contextlib.suppress(ValueError):
                    line.remove(place)
            raise

    def release(self) -> None:
        for line in (self.first, self.others):
            while line:
                place = line.popleft()
                if not place.done():
                    place.set_result(None)
                    return
        self.free += 1


_poll_lanes: dict[Any, Lane] = {}

WRITE_THREADS = int(os.environ.get("KARTENRUNDE_WRITE_THREADS", str(max(1, THREADS // 2))))
"""Of :data:`THREADS`, how many may work on changes (a POST, …) at once. The database
writes one change at a time (on SQLite, companion/sqlite/base.py); when more changes come
than it writes, the others wait here, in the event loop, not in a thread: the other
threads stay free for pages and polls (at 50 saves a second, every thread of a process
waited for the write lock and a rules lookup took 6 s)."""
READS_ONLY = frozenset({"rules_check", "deal_preview", "set_language"})
"""Views that answer a POST without writing (a move checked, a deal previewed, the
language kept in a cookie): they do not wait behind changes."""
_write_lanes: dict[Any, Lane] = {}

PAGE_THREADS = int(os.environ.get("KARTENRUNDE_PAGE_THREADS", str(max(1, THREADS // 2))))
"""Of :data:`THREADS`, how many may work on the other requests (pages) at once: when a
hundred phones open their sheets at once (a restart, the start of an evening), the pages
wait here, and the changes and polls of the games under way still find threads (at 2,000
phones a process had 60 pages queued for its threads, and a save waited 15 s behind
them)."""
_page_lanes: dict[Any, Lane] = {}

POLLED = frozenset({"match_sheet", "match_live"})
"""The views whose polls may be held (companion/views/sheet.py, live.py)."""

Scope = dict[str, Any]


def _headers(scope: Scope) -> dict[bytes, bytes]:
    return {name.lower(): value for name, value in scope.get("headers", [])}


def polled_match(scope: Scope) -> int | None:
    """The match an htmx GET of a sheet or live board asks for, or None."""
    if scope["type"] != "http" or scope["method"] != "GET":
        return None
    if b"hx-request" not in _headers(scope):
        return None
    try:
        found = resolve(scope["path"])
    except Resolver404:
        return None
    if found.url_name not in POLLED:
        return None
    match_id = found.kwargs.get("match_id")
    return match_id if isinstance(match_id, int) else None


def held_revision(scope: Scope, match_id: int) -> tuple[int, bytes] | None:
    """The revision a poll that asks to be held (``KR-Wait``) shows, if the app signed it
    for this match, with the ETag as sent."""
    headers = _headers(scope)
    etag = headers.get(b"if-none-match")
    if not headers.get(b"kr-wait") or not etag or b"," in etag:
        return None
    revision = waiting.verified(match_id, etag.decode("latin-1"))
    return None if revision is None else (revision, etag)


async def _not_modified(send: Any, etag: bytes) -> None:
    """The answer to a held poll whose wait ended without a change (15 s, or the server
    stops): nothing changed, as far as this process knows; the phone asks again (of the
    next server)."""
    await send({"type": "http.response.start", "status": 304, "headers": [
        (b"etag", etag), (b"cache-control", b"private, no-store"),
        (b"vary", b"Cookie, Accept-Language, HX-Request"),
    ]})
    await send({"type": "http.response.body", "body": b""})


def without_wait(scope: Scope) -> Scope:
    """The request as Django gets it: without ``KR-Wait``, the waiting is done here (in a
    thread the view would wait once more, holding it: companion/changes.py)."""
    if scope["type"] != "http":
        return scope
    return {**scope, "headers": [(name, value) for name, value in scope.get("headers", [])
                                 if name.lower() != b"kr-wait"]}


def _lane(lanes: dict[Any, Lane], places: int) -> Lane:
    loop = asyncio.get_running_loop()
    lane = lanes.get(loop)
    if lane is None:
        lanes.clear()  # one event loop per process; a new one (tests) starts afresh
        lane = lanes[loop] = Lane(places)
    return lane


def _poll_lane() -> Lane:
    return _lane(_poll_lanes, POLL_THREADS)


def _write_lane() -> Lane:
    return _lane(_write_lanes, WRITE_THREADS)


def _page_lane() -> Lane:
    return _lane(_page_lanes, PAGE_THREADS)


def changes(scope: Scope) -> bool:
    """A request that may write: any but GET, HEAD and OPTIONS, except the views that
    only read (:data:`READS_ONLY`)."""
    if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
        return False
    try:
        return resolve(scope["path"]).url_name not in READS_ONLY
    except Resolver404:
        return False  # answered 404 at once


async def _through_django(kind: str, scope: Scope, receive: Any, send: Any) -> None:
    started = time.monotonic()
    load_report.now["django"] += 1
    try:
        await django_application(scope, receive, send)
    finally:
        load_report.now["django"] -= 1
        load_report.spent(kind, time.monotonic() - started)


def _pool_queue() -> int:
    """Requests waiting for one of the :data:`THREADS` (a2wsgi's executor's queue)."""
    queue = getattr(getattr(django_application, "executor", None), "_work_queue", None)
    return queue.qsize() if queue is not None else -1


async def application(scope: Scope, receive: Any, send: Any) -> None:
    load_report.start(waiting.waiting_count, _pool_queue)
    match_id = polled_match(scope)
    if match_id is None:
        if changes(scope):
            await _in_lane(_write_lane(), "write_lane", "change", without_wait(scope),
                           receive, send)
        elif scope["type"] == "http":
            await _in_lane(_page_lane(), "page_lane", "page", without_wait(scope), receive,
                           send)
        else:
            await django_application(without_wait(scope), receive, send)
        return
    held = held_revision(scope, match_id)
    if held is not None:
        outcome = await waiting.hold(match_id, held[0])
        load_report.counts[outcome] += 1
        if outcome in ("stopping", "timeout"):
            # Nothing changed (as far as this process knows): 304, without Django. The
            # phone asks again at once, and the change that ends a later wait goes through
            # Django's login check before anything of the match is sent (a thousand
            # phones' waits ending every 15 s cost half a core in Django, for a 304 each).
            await _not_modified(send, held[1])
            return
        if outcome == "changed":
            answered = await trusted_polls.answer(scope, send, match_id, held[0])
            if answered == "answered":
                return  # Django checked this phone a moment ago: its kind's answer, kept
            if answered == "late":
                await _not_modified(send, held[1])  # Django is busy: ask again
                return
    since = waiting.tick()
    through = trusted_polls.Through(scope, match_id)

    async def learn(message: dict[str, Any]) -> None:
        # The poll's answer names the match's revision: the next poll need not read it.
        if message["type"] == "http.response.start" and message["status"] in (200, 304):
            etag = _headers(message).get(b"etag")
            revision = waiting.verified(match_id, etag.decode("latin-1")) if etag else None
            if revision is not None:
                waiting.learned(match_id, revision, since)
        through.seen(message)
        await send(message)

    try:
        await _in_lane(_poll_lane(), "lane", "poll", through.scope(without_wait(scope)),
                       receive, learn, first=through.leads is not None)
    finally:
        through.done()


async def _in_lane(lane: Lane, waits: str, kind: str, scope: Scope, receive: Any, send: Any,
                   *, first: bool = False) -> None:
    """Django's answer, once the request has a place in ``lane``."""
    load_report.now[waits] += 1
    try:
        await lane.acquire(first=first)
    finally:
        load_report.now[waits] -= 1
    try:
        await _through_django(kind, scope, receive, send)
    finally:
        lane.release()
