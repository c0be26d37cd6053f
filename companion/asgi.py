"""ASGI entry point for Kartenrunde (the server of `make run` and the hosted profile:
gunicorn with :class:`companion.server.Worker`, see gunicorn.conf.py).

Every request goes to Django as usual (sync views in threads, asgiref). A sheet's or live
board's held poll (``HX-Request``, ``KR-Wait`` and an ``If-None-Match`` the app signed for
the match) first waits here, in the event loop, for the match's next change
(:mod:`companion.waiting`): a waiting phone costs a coroutine, not a thread nor a
database connection. Why in front of Django rather than in an async view: Django's own
middleware (sessions, authentication, messages, …) is sync; under ASGI it runs in a
thread that asgiref keeps for the whole request, so an async view would still hold a
thread while it waits.
"""

from __future__ import annotations

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
django_application = get_asgi_application()

from django.urls import Resolver404, resolve  # noqa: E402  (after Django's setup)

from companion import waiting  # noqa: E402

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
    """The answer to a held poll while the server stops: nothing changed (as far as this
    process knows); the phone asks again, of the next server."""
    await send({"type": "http.response.start", "status": 304, "headers": [
        (b"etag", etag), (b"cache-control", b"private, no-store"),
        (b"vary", b"Cookie, Accept-Language, HX-Request"),
    ]})
    await send({"type": "http.response.body", "body": b""})


async def application(scope: Scope, receive: Any, send: Any) -> None:
    match_id = polled_match(scope)
    if match_id is None:
        await django_application(scope, receive, send)
        return
    held = held_revision(scope, match_id)
    if held is not None and await waiting.hold(match_id, held[0]) == "stopping":
        await _not_modified(send, held[1])
        return
    since = waiting.tick()

    async def learn(message: dict[str, Any]) -> None:
        # The poll's answer names the match's revision: the next poll need not read it.
        if message["type"] == "http.response.start" and message["status"] in (200, 304):
            etag = _headers(message).get(b"etag")
            revision = waiting.verified(match_id, etag.decode("latin-1")) if etag else None
            if revision is not None:
                waiting.learned(match_id, revision, since)
        await send(message)

    await django_application(scope, receive, learn)
