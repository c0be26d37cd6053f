"""Coroutines in the tests run in an event loop of their own, in a thread of their own.

In a test process that ran a browser test before, Playwright's sync API keeps an event
loop running in the main thread, and ``asyncio.run`` there refuses to start another
("cannot be called from a running event loop"). Which tests a process runs after a
browser test depends on how pytest-xdist shares them out, so a test that calls
``asyncio.run`` itself passes or fails with the order (tests/test_event_loops.py keeps
them out).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from django.db import connection

T = TypeVar("T")


def run_apart(scenario: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(scenario)`` in a thread of its own; what it raises is raised here."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = asyncio.run(scenario)
        except BaseException as error:  # raised again in the test's thread
            outcome["error"] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]
