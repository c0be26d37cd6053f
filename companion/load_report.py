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
_task: asyncio.Task[None] | None = None


def spent(what: str, seconds: float) -> None:
    """A request of kind ``what`` took ``seconds`` in Django (queue for a thread included)."""
    _spent[what] += seconds
    counts[what] += 1


def start(held: Callable[[], int], queued: Callable[[], int]) -> None:
    """In the event loop: report from now on, if asked to (once per loop); ``held`` counts
    the polls waiting for a change, ``queued`` the requests waiting for a thread."""
    global _task
    if EVERY <= 0:
        return
    loop = asyncio.get_running_loop()
    if _task is not None and not _task.done() and _task.get_loop() is loop:
        return
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
        last = woke

