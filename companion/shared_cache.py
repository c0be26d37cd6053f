"""The cache the server's processes share their texts in (settings.CACHES["renders"]:
sheets, steps and poll answers, companion/shared_renders.py and trusted_polls.py).

Django's file cache, but its files are culled by age once a second, not at every write.
Django's own culls at every write: it lists the folder, and when it holds ``MAX_ENTRIES``
files it deletes a third of them, chosen at random. At 1,000 phones saving every 5 s the
server writes 150-200 texts a second; with 300 files at most, a step a phone a few deals
behind needed was often gone after a second or two, and the whole sheets rendered in its
place were a quarter of the server's CPU (py-spy); listing the folder at every write was
another 4 %. Here a text stays its time (the cache's ``TIMEOUT``: every text here is
written with it), and the folder is listed once a second per process.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache

CULL_EVERY = 1.0
"""Seconds between two culls of one process."""

_culled: dict[str, float] = {}
"""Per folder, when this process last culled it. Kept here, not on the cache: Django makes
a cache object per thread and request context (``caches[...]``), and each new one would
cull at its first write (a profile at 1,000 phones: a third of the server's CPU)."""
_culling = threading.Lock()
_made: set[str] = set()
"""Folders this process made or found. Django's file cache makes its folder again at every
write and for every new cache object (one per thread and request context): a system call
each, about 4 % of a process at 1,000 phones (py-spy). A folder that goes meanwhile (cleared
by hand, a test's) is made again when a write finds it gone."""


class SharedFileCache(FileBasedCache):
    """``MAX_ENTRIES`` bounds the files between two culls: each cull deletes the files
    older than the cache's ``TIMEOUT``, then, while more than ``MAX_ENTRIES`` are left,
    the oldest."""

    def _createdir(self) -> None:
        if self._dir not in _made:
            super()._createdir()
            _made.add(self._dir)

    def set(self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT,
            version: int | None = None) -> None:
        try:
            super().set(key, value, timeout, version)
        except FileNotFoundError:
            _made.discard(self._dir)  # the folder went: made again, written again
            super().set(key, value, timeout, version)

    def _cull(self) -> None:
        now = time.monotonic()
        if now < _culled.get(self._dir, float("-inf")) + CULL_EVERY \
                or not _culling.acquire(blocking=False):
            return
        try:
            _culled[self._dir] = now
            found: list[tuple[float, str]] = []
            with os.scandir(self._dir) as entries:
                for entry in entries:
                    if entry.name.endswith(self.cache_suffix):
                        # deleted meanwhile (another process culled it)
                        with contextlib.suppress(FileNotFoundError):
                            found.append((entry.stat().st_mtime, entry.path))
            found.sort()
            oldest_kept = time.time() - (self.default_timeout or 0)
            excess = len(found) - self._max_entries
            for index, (written, path) in enumerate(found):
                if written >= oldest_kept and index >= excess:
                    break
                self._delete(path)
        except FileNotFoundError:
            pass  # the folder is gone (a test's, a cleared one): set makes it again
        finally:
            _culling.release()
