"""A line per process every few seconds of what the server is doing (issue 31): where the
requests are (waiting in the event loop, queued for a thread, in Django) and what
happened to the held polls since the last line. Off unless ``KARTENRUNDE_LOAD_REPORT``
names the seconds between two lines; the lines go to the ``companion.load`` logger
(stderr, like the server's other lines).

It is what tells an overloaded server's queue from a busy one's: the bench
(bench/watchers.py ``--server-env KARTENRUNDE_LOAD_REPORT=5``) and an operator watching a
busy evening read the same line.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import time
from collections import Counter
from collections.abc import Callable

log = logging.getLogger("companion.load")

EVERY = float(os.environ.get("KARTENRUNDE_LOAD_REPORT", "0") or 0)
"""Seconds between two lines (0: no report)."""

counts: Counter[str] = Counter()
"""What happened since the last line (asgi.py and trusted_polls.py count)."""
now: Counter[str] = Counter()
"""Requests where they are now: ``lane`` (a poll queued for a poll thread), ``write_lane``
(a change queued for a thread), ``page_lane`` (another page), ``django`` (in a thread, or
queued for one)."""
_spent: Counter[str] = Counter()
_longest: Counter[str] = Counter()
_task: asyncio.Task[None] | None = None


def spent(what: str, seconds: float) -> None:
    """A request of kind ``what`` took ``seconds`` in Django (queue for a thread included)."""
    _spent[what] += seconds
    counts[what] += 1


_collecting_since = 0.0


def collected(phase: str, info: dict[str, int]) -> None:
    """Python's garbage collection (a ``gc.callbacks`` entry while reporting): its time,
    during which no other thread of the process runs. ``gc_full`` counts the full
    collections (generation 2, the long ones), ``gc`` the others."""
    global _collecting_since
    if phase == "start":
        _collecting_since = time.perf_counter()
        return
    took = time.perf_counter() - _collecting_since
    kind = "gc_full" if info["generation"] == 2 else "gc"
    counts[kind] += 1
    _spent[kind] += took
    _longest[kind] = max(_longest[kind], took)


def start(held: Callable[[], int], queued: Callable[[], int]) -> None:
    """In the event loop: report from now on, if asked to (once per loop); ``held`` counts
    the polls waiting for a change, ``queued`` the requests waiting for a thread."""
    global _task
    if EVERY <= 0:
        return
    loop = asyncio.get_running_loop()
    if _task is not None and not _task.done() and _task.get_loop() is loop:
        return
    if collected not in gc.callbacks:
        gc.callbacks.append(collected)
    _task = loop.create_task(_report(held, queued))


def line(held: int, queued: int, elapsed: float) -> str:
    """The report's text for the counts since the last one over ``elapsed`` seconds."""
    parts = [f"held={held}", f"lane={now['lane']}", f"write_lane={now['write_lane']}",
             f"page_lane={now['page_lane']}", f"django={now['django']}",
             f"pool_queue={queued}"]
    for what in ("poll", "page", "change", "write_turn", "write_held"):
        number = counts[what]
        mean = _spent[what] / number * 1000 if number else 0.0
        parts.append(f"{what}s={number / elapsed:.1f}/s ({mean:.0f} ms)")
    for what in ("changed", "timeout", "trusted", "followed", "relayed", "stepped",
                 "follow_late", "untrusted"):
        parts.append(f"{what}={counts[what] / elapsed:.1f}/s")
    for what in ("gc", "gc_full"):
        parts.append(f"{what}={counts[what]} ({_spent[what] * 1000:.0f} ms, longest "
                     f"{_longest[what] * 1000:.0f} ms)")
    # What the full collections skip (companion/server.py froze the loaded app).
    parts.append(f"frozen={gc.get_freeze_count()}")
    return " ".join(parts)


async def _report(held: Callable[[], int], queued: Callable[[], int]) -> None:
    last = time.monotonic()
    while True:
        before = time.monotonic()
        await asyncio.sleep(EVERY)
        woke = time.monotonic()
        lag = woke - before - EVERY
        log.info("pid %d: %s loop_lag=%.0fms", os.getpid(),
                 line(held(), queued(), woke - last), lag * 1000)
        counts.clear()
        _spent.clear()
        _longest.clear()
        last = woke

