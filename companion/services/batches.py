"""Long writes in short transactions: what an import or a rebuild does between two.

SQLite has one write lock and no queue for it: a phone whose save waits for the lock
tries again at least every 100 ms (SQLite's busy handler), while a long write that
commits one batch and begins the next at once can keep the lock for itself batch
after batch. A short pause between two batches gives every waiting phone its turn.
PostgreSQL locks rows, not the database: no pause there.
"""

from __future__ import annotations

import time

from django.db import connection

PAUSE = 0.1
"""Seconds between two batches on SQLite: one retry of SQLite's busy handler."""


def let_others_write() -> None:
    """Between two transactions of a long write: a moment for the phones (SQLite)."""
    if connection.vendor == "sqlite":
        time.sleep(PAUSE)
