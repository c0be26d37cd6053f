"""A sheet rendered once per change for every phone that watches it (issue 31).

When a match changes, every phone showing its sheet is woken (companion/waiting.py) and
asks for the new sheet at the same moment. What a poll gets (``#sheet``) has nothing of
one viewer in it: it depends only on the match's revision, the language, the kind of
viewer (:meth:`companion.access.Viewer.kind`) and the deal form's entry mode. Its forms
carry an empty CSRF field and empty form keys, which the page fills in
(static/js/net.js: the page's own token, a key made in the browser), and its ETag is
signed for the kind of viewer, not the viewer. So one text serves every phone of that
kind: it is kept here per (match, revision, language, kind, mode), and rendered again
only when one of those moves.

- **Nothing of one viewer reaches another**: the text is rendered with no CSRF token and
  no form key (companion/templatetags/keys.py, ``shared_render``);
  tests/companion/test_leaks.py checks every page, the polls' answers among them.
- **Rendered once, never twice at once**: the first request that misses renders while
  the others that want the same text wait for it (a few milliseconds), then take it.
- **Once for the server, not once per process**: a text rendered in one of the
  server's processes is also written to the ``renders`` cache (settings.CACHES, files
  in a folder the server's processes share), where the other processes take it instead
  of rendering it again; a lock file per text (``fcntl.flock``) makes a process that
  wants a text another process is rendering wait for it. The phones of one table are
  spread over the processes, so without this each change was rendered in each process.
- **Bounded**: at most :data:`MAX_CHARS` of texts per process (the least recently used
  go first), each for :data:`TTL` seconds at most: what changes a sheet without moving
  its revision (a player renamed in the group's settings) shows within that time, as
  any other page shows it at the next load. The ``renders`` cache keeps as many texts
  as its ``MAX_ENTRIES``, each as long.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import pickle
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from django.core.cache import caches

log = logging.getLogger(__name__)

MAX_CHARS = 16 * 1024 * 1024
"""Texts kept per process, in characters (a sheet is 20–80 kB)."""
TTL = 30.0
"""Seconds a kept text is used."""
WAIT = 5.0
"""Seconds a request waits for another's render of the same text before asking again."""
SHARED = "renders"
"""The cache (settings.CACHES) the server's processes share their texts in."""
LOCKS = 256
"""Lock files in the shared cache's folder: a text's render takes one (by its key's hash),
so two texts rarely wait for each other."""


def _read(shared: Any, name: str) -> str | None:
    try:
        text = shared.get(name)
    except (OSError, EOFError, ValueError, pickle.UnpicklingError, zlib.error):
        return None  # unreadable (a damaged file): rendered again
    return text if isinstance(text, str) else None


def _shared_key(key: Hashable) -> str:
    return "sheet:" + hashlib.sha256(repr(key).encode()).hexdigest()


@contextlib.contextmanager
def _server_lock(alias: str, file: str) -> Iterator[None]:
    """Across the server's processes (and its threads: each opens the file anew): the lock
    file ``file`` in the folder of the cache ``alias`` (:func:`_render_file`,
    :func:`_writing_file`), held by one at a time; after :data:`WAIT` seconds, or where the
    folder cannot be written, go on without it."""
    fd = None
    try:
        folder = getattr(caches[alias], "_dir", None)  # a file cache makes its folder here
        if folder:
            os.makedirs(folder, exist_ok=True)
            fd = os.open(os.path.join(folder, file), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC,
                         0o600)
    except OSError:
        pass
    if fd is None:
        yield
        return
    try:
        deadline = time.monotonic() + WAIT
        pause = 0.001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    break
                time.sleep(pause)
                pause = min(pause * 2, 0.005)
        yield
    finally:
        os.close(fd)  # closing it lets go of the lock


def _render_file(name: str) -> str:
    """The lock file of the render of the text ``name``: one of :data:`LOCKS`."""
    return f"render-{int(name[-8:], 16) % LOCKS:03d}.lock"


WRITING_LOCKS = 4096
"""Lock files of the saves that put a text (:meth:`SharedRenders.writing`): a match's is
one of these (by its id), so a poll rarely waits for another match's save."""


def _writing_file(match_id: int) -> str:
    return f"writing-{match_id % WRITING_LOCKS:04d}.lock"


class SharedRenders:
    def __init__(self, max_chars: int = MAX_CHARS, ttl: float = TTL,
                 shared: str | None = SHARED) -> None:
        self.max_chars = max_chars
        self.ttl = ttl
        self.shared = shared
        """The cache the server's processes share texts in (None: this process only)."""
        self._lock = threading.Lock()
        self._texts: OrderedDict[Hashable, tuple[float, str]] = OrderedDict()
        self._size = 0
        self._rendering: dict[Hashable, threading.Event] = {}
        self.unshared = 0
        """Texts that could not be written to the shared cache (logged once)."""
        self.renders = 0
        """How many texts this process rendered (tests and benches read it)."""

    def _kept(self, key: Hashable) -> str | None:
        """The fresh text kept for ``key`` (call with the lock held)."""
        kept = self._texts.get(key)
        if kept is None or kept[0] <= time.monotonic():
            return None
        self._texts.move_to_end(key)
        return kept[1]

    def kept(self, key: Hashable) -> str | None:
        """The fresh text kept for ``key``, if there is one."""
        with self._lock:
            return self._kept(key)

    def put(self, key: Hashable, text: str) -> None:
        """Keep ``text`` for ``key``, here and for the server's other processes: rendered by
        a request that had to render it anyway (a save's step of the sheet, views/deals.py)."""
        self._keep(key, text)
        if self.shared is None:
            return
        try:
            caches[self.shared].set(_shared_key(key), text, self.ttl)
        except OSError as error:
            self._not_shared(error)

    def find(self, key: Hashable, *, writing: int | None = None) -> str | None:
        """The fresh text kept for ``key`` here or by another process of the server, or
        None: never rendered here (what only a save can render, :meth:`put`). With
        ``writing``, a match that a save may be writing the text for (:meth:`writing`):
        the text is looked for again once that save is done, at most :data:`WAIT` s."""
        kept = self.kept(key)
        if kept is not None or self.shared is None:
            return kept
        try:
            shared = caches[self.shared]
            text = _read(shared, _shared_key(key))
            if text is None and writing is not None:
                with _server_lock(self.shared, _writing_file(writing)):
                    pass
                text = self.kept(key) or _read(shared, _shared_key(key))
        except OSError:
            return None
        if text is not None:
            self._keep(key, text)
        return text

    @contextlib.contextmanager
    def writing(self, match_id: int) -> Iterator[None]:
        """A save of ``match_id`` that puts a text (:meth:`put`) once its change is stored:
        a request that was told of the change meanwhile (it is announced when it commits,
        before the text is put) and looks for the text (:meth:`find` with ``writing``)
        waits for it, in this process or another."""
        if self.shared is None:
            yield
            return
        with _server_lock(self.shared, _writing_file(match_id)):
            yield

    def being_written(self, match_id: int) -> bool:
        """A save of ``match_id`` may be putting a text now (:meth:`writing`: its lock is
        held, in this process or another; maybe by another match's save, whose lock
        file it shares), without waiting for it; False where nothing is shared."""
        if self.shared is None:
            return False
        try:
            folder = getattr(caches[self.shared], "_dir", None)
            if not folder:
                return False
            fd = os.open(os.path.join(folder, _writing_file(match_id)),
                         os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return False  # never written (no save took its lock yet)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        except OSError:
            return False
        finally:
            os.close(fd)  # closing it lets go of a lock taken here
        return False

    def text(self, key: Hashable, render: Callable[[], str]) -> str:
        """The kept text for ``key``, rendered by ``render`` if no fresh one is kept; one
        render at a time per key."""
        while True:
            with self._lock:
                kept = self._kept(key)
                if kept is not None:
                    return kept
                event = self._rendering.get(key)
                mine = event is None
                if event is None:
                    event = self._rendering[key] = threading.Event()
            if not mine:
                # Another request renders it: take its text (or render it if that failed).
                event.wait(WAIT)
                continue
            try:
                text = self._shared_or_rendered(key, render)
                self._keep(key, text)
                return text
            finally:
                with self._lock:
                    self._rendering.pop(key, None)
                event.set()

    def _shared_or_rendered(self, key: Hashable, render: Callable[[], str]) -> str:
        """The text another process of the server rendered, or rendered here (and shared)."""
        if self.shared is None:
            self.renders += 1
            return render()
        try:
            shared = caches[self.shared]  # a file cache makes its folder here
        except OSError as error:
            self._not_shared(error)
            self.renders += 1
            return render()
        name = _shared_key(key)
        text = _read(shared, name)
        if text is not None:
            return text
        with _server_lock(self.shared, _render_file(name)):
            text = _read(shared, name)  # rendered by another process while this one waited
            if text is not None:
                return text
            text = render()
            self.renders += 1
            try:
                shared.set(name, text, self.ttl)
            except OSError as error:
                self._not_shared(error)
        return text

    def _not_shared(self, error: OSError) -> None:
        """A full or read-only disk: the text is this process's only (logged once)."""
        if not self.unshared:
            log.warning("Rendered sheets cannot be shared (%s): each process renders its "
                        "own. Set KARTENRUNDE_RENDERS_DIR to a folder the app may write.",
                        error)
        self.unshared += 1

    def _keep(self, key: Hashable, text: str) -> None:
        with self._lock:
            old = self._texts.pop(key, None)
            if old is not None:
                self._size -= len(old[1])
            if len(text) > self.max_chars:
                return
            self._texts[key] = (time.monotonic() + self.ttl, text)
            self._size += len(text)
            while self._size > self.max_chars:
                _key, (_until, dropped) = self._texts.popitem(last=False)
                self._size -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._texts.clear()
            self._size = 0


sheets = SharedRenders()
"""This process's shared sheets (companion/views/sheet.py)."""
