"""A sheet rendered once per change for every phone that watches it (issue 31).

When a match changes, every phone showing its sheet is woken (companion/waiting.py) and
asks for the new sheet at the same moment. The sheet is the same for every viewer of the
same kind (member or guest, may write or not, may delete, entry mode, language) but for
three per-viewer values: the CSRF token, the form keys (``client_key``: a key shared by
two phones would make the second phone's save look like a repeat of the first's) and the
sheet's ETag (signed for the viewer). So the sheet is rendered once, with random markers
in place of those three, kept per (match, revision, language, kind of viewer), and each
phone's answer is the kept text with its own values put in (:meth:`SharedRenders.answer`).

- **Nothing of one viewer reaches another**: the markers are made per process
  (:data:`MARKERS`, unguessable, so no player name can contain one), and everything else
  in the text depends only on what the key names. tests/companion/test_leaks.py checks
  that no member ever sees another's token, key or ETag.
- **Rendered once, never twice at once**: the first request that misses renders while
  the others that want the same text wait for it (a few milliseconds), then take it.
- **Bounded**: at most :data:`MAX_BYTES` of texts per process (the least recently used go
  first), each for :data:`TTL` seconds at most (what does not move the revision, e.g. a
  player renamed, is shown within that time, as a poll would show it after the next
  change).
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils.html import escape

from companion.idempotency import new_key

MAX_BYTES = 16 * 1024 * 1024
"""Texts kept per process, in characters (a sheet is 20–80 kB)."""
TTL = 30.0
"""Seconds a kept text is used."""
WAIT = 5.0
"""Seconds a request waits for another's render of the same text before rendering it."""


@dataclass(frozen=True)
class Markers:
    csrf: str
    key: str
    etag: str


def _marker(kind: str) -> str:
    return f"kr{kind}{secrets.token_hex(12)}"


MARKERS = Markers(csrf=_marker("csrf"), key=_marker("key"), etag=_marker("etag"))
"""Rendered in place of the per-viewer values; letters and digits only, so escaping
leaves them as they are."""


class SharedRenders:
    def __init__(self, max_bytes: int = MAX_BYTES, ttl: float = TTL) -> None:
        self.max_bytes = max_bytes
        self.ttl = ttl
        self._lock = threading.Lock()
        self._texts: OrderedDict[Hashable, tuple[float, str]] = OrderedDict()
        self._size = 0
        self._rendering: dict[Hashable, threading.Event] = {}
        self.renders = 0
        """How many texts this process rendered (tests and benches read it)."""

    def text(self, key: Hashable, render: Callable[[], str]) -> str:
        """The kept text for ``key``, rendered by ``render`` (with :data:`MARKERS`) if no
        fresh one is kept; one render at a time per key."""
        while True:
            with self._lock:
                kept = self._texts.get(key)
                if kept is not None and kept[0] > time.monotonic():
                    self._texts.move_to_end(key)
                    return kept[1]
                event = self._rendering.get(key)
                mine = event is None
                if mine:
                    event = self._rendering[key] = threading.Event()
            assert event is not None
            if not mine:
                # Another request renders it: take its text (or render it if that failed).
                event.wait(WAIT)
                with self._lock:
                    kept = self._texts.get(key)
                    if kept is not None and kept[0] > time.monotonic():
                        self._texts.move_to_end(key)
                        return kept[1]
                    if self._rendering.get(key) is event and not event.is_set():
                        continue  # still being rendered after WAIT: wait again
                continue
            try:
                text = render()
                self.renders += 1
                self._keep(key, text)
                return text
            finally:
                with self._lock:
                    self._rendering.pop(key, None)
                event.set()

    def _keep(self, key: Hashable, text: str) -> None:
        with self._lock:
            old = self._texts.pop(key, None)
            if old is not None:
                self._size -= len(old[1])
            if len(text) > self.max_bytes:
                return
            self._texts[key] = (time.monotonic() + self.ttl, text)
            self._size += len(text)
            while self._size > self.max_bytes:
                _key, (_until, dropped) = self._texts.popitem(last=False)
                self._size -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._texts.clear()
            self._size = 0

    @staticmethod
    def answer(text: str, request: HttpRequest, etag: str) -> str:
        """The kept ``text`` for this request: its CSRF token, a new key per form, its ETag."""
        text = text.replace(MARKERS.csrf, get_token(request))
        text = text.replace(MARKERS.etag, escape(etag))
        return re.sub(MARKERS.key, lambda _found: new_key(), text)


sheets = SharedRenders()
"""This process's shared sheets (companion/views/sheet.py)."""
