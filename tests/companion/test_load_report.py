"""The server's load report (companion/load_report.py): a line per process every few
seconds, when asked for, that says where the requests are and how long they took."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import re
from collections.abc import Iterator

import pytest

from companion import load_report
from tests.event_loops import run_apart


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    load_report.counts.clear()
    load_report.now.clear()
    load_report._spent.clear()
    load_report._longest.clear()
    yield
    with contextlib.suppress(ValueError):
        gc.callbacks.remove(load_report.collected)  # load_report.start() adds it


def test_the_line_gives_rates_and_mean_times_per_kind() -> None:
    load_report.spent("poll", 0.1)
    load_report.spent("poll", 0.3)
    load_report.spent("page", 0.05)
    load_report.counts["trusted"] += 6
    load_report.now["lane"] = 7

    line = load_report.line(held=120, queued=3, elapsed=2.0)

    assert "held=120 lane=7 write_lane=0 page_lane=0 django=0 pool_queue=3" in line
    assert "polls=1.0/s (200 ms)" in line
    assert "pages=0.5/s (50 ms)" in line
    assert "write_turns=0.0/s (0 ms) write_helds=0.0/s (0 ms)" in line
    assert "trusted=3.0/s" in line


def test_the_line_gives_the_garbage_collections_time_and_longest_pause() -> None:
    """A full collection stops every thread of the process: the line says how many there
    were, how long they took, and the longest, apart from the young generations'."""
    gc.disable()  # only the collections below
    gc.callbacks.append(load_report.collected)
    try:
        gc.collect()
        gc.collect(0)
        gc.collect(1)
    finally:
        gc.callbacks.remove(load_report.collected)
        gc.enable()

    line = load_report.line(held=0, queued=0, elapsed=1.0)

    assert re.search(r" gc=2 \(\d+ ms, longest \d+ ms\) gc_full=1 \(\d+ ms, longest \d+ ms\)",
                     line), line
    assert load_report._longest["gc_full"] > 0
    assert f"frozen={gc.get_freeze_count()}" in line


def test_the_report_logs_a_line_every_few_seconds_and_starts_afresh(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(load_report, "EVERY", 0.05)

    async def serve() -> None:
        load_report.start(lambda: 42, lambda: 0)
        load_report.start(lambda: 0, lambda: 0)  # once per event loop
        load_report.spent("page", 0.01)
        await asyncio.sleep(0.18)
        assert load_report._task is not None
        load_report._task.cancel()

    with caplog.at_level(logging.INFO, logger="companion.load"):
        run_apart(serve())
    lines = [record.getMessage() for record in caplog.records if record.name == "companion.load"]
    assert len(lines) >= 2
    assert all("held=42" in line for line in lines)
    assert "pages=0.0/s" not in lines[0]
    assert "pages=0.0/s" in lines[1]  # counted afresh after each line
    assert load_report.collected in gc.callbacks  # the collections are timed meanwhile


def test_no_report_unless_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(load_report, "EVERY", 0.0)
    monkeypatch.setattr(load_report, "_task", None)

    async def serve() -> None:
        load_report.start(lambda: 0, lambda: 0)

    run_apart(serve())
    assert load_report._task is None
