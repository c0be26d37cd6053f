"""Values computed once per version and kept in Django's cache (the database cache, shared by
all processes), never computed twice at once: the night's picture and tally, whose cost
grows with the night.

The request that wins the lock (``cache.add``: only one can) computes and keeps the value;
the others wait up to ``wait`` seconds for it, then take the value kept for an earlier
version (``latest``), if any. A lock expires after ``lock_timeout`` seconds, so that a
worker that died while computing holds nobody up for long.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

T = TypeVar("T")

POLL = 0.1
"""Seconds between two looks for the value another request computes."""


def computed_once(
    key: str, *, lock: str, latest: str, compute: Callable[[], T], wait: float,
    lock_timeout: int = 120,
) -> tuple[T | None, bool]:
    """The value kept under ``key`` (computed with ``compute`` if none is, by one request
    at a time per ``lock``) and True; or, while another request computes it for longer
    than ``wait`` seconds, the value kept under ``latest`` (an earlier version) and
    False, None if there is none."""
    value: T | None = cache.get(key)
    if value is not None:
        return value, True
    if cache.add(lock, key, lock_timeout):
        try:
            value = compute()
            cache.set_many({key: value, latest: value})
        finally:
            cache.delete(lock)
        return value, True
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        time.sleep(POLL)
        value = cache.get(key)
        if value is not None:
            return value, True
    return cache.get(latest), False


__all__ = ["computed_once"]
