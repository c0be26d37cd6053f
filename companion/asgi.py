"""ASGI entry point for Kartenrunde (the server of `make run` and the hosted profile:
gunicorn with :class:`companion.server.Worker`, see gunicorn.conf.py).

Every request goes to Django's WSGI handler, the whole sync stack (middleware, views,
ORM) in one of :data:`THREADS` threads of a pool (a2wsgi), as under gunicorn's threads. A
sheet's or live board's held poll (``HX-Request``, ``KR-Wait`` and an ``If-None-Match`` the
app signed for the match) first waits here, in the event loop, for the match's next
change (:mod:`companion.waiting`): a waiting phone costs a coroutine, not a thread nor a
database connection; then Django answers it (200 with the sheet, or 304) like any poll.

Why not Django's ASGI handler with an async view: Django's own middleware (sessions,
authentication, messages, CSRF, django-axes, WhiteNoise) is sync. Under ASGI each of
them is called through ``sync_to_async`` in a thread asgiref keeps for the whole request:
an async view behind them would still hold a thread while it waits, and every request
would pass between the event loop and its thread twice per middleware, which on a busy
machine made every page several times slower than one hop into a pool thread.
"""

from __future__ import annotations

import asyncio
import os
import time
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
_poll_lanes: dict[Any, asyncio.Semaphore] = {}

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


def _poll_lane() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    lane = _poll_lanes.get(loop)
    if lane is None:
        _poll_lanes.clear()  # one event loop per process; a new one (tests) starts afresh
        lane = _poll_lanes[loop] = asyncio.Semaphore(POLL_THREADS)
    return lane


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
        if scope["type"] == "http":
            await _through_django("page", without_wait(scope), receive, send)
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
        if outcome == "changed" and await trusted_polls.answer(scope, send, match_id, held[0]):
            return  # Django checked this phone a moment ago: its kind's answer, kept
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
        load_report.now["lane"] += 1
        lane = _poll_lane()
        try:
            await lane.acquire()
        finally:
            load_report.now["lane"] -= 1
        try:
            await _through_django("poll", through.scope(without_wait(scope)), receive, learn)
        finally:
            lane.release()
    finally:
        through.done()
