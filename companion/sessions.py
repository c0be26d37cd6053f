"""Sessions in the database: Django's ``db`` engine, its session read written out in SQL.

Every page a logged-in phone asks for (and every poll of a changed sheet) reads its
session first. Building that one query through the ORM took as long as a whole bare
view (bench/web.py); the query itself is a lookup by primary key. So this engine reads
the same row with the same expiry check and decodes it the same way; everything else
(creating, saving, logging out, ``clearsessions``) is Django's ``db`` engine unchanged.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone


class SessionStore(db.SessionStore):
    def load(self) -> dict[str, Any]:
        """The session's data, or an empty session (and no key) when it is gone or expired."""
        model = self.model
        connection = connections[router.db_for_read(model)]
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT session_data FROM {connection.ops.quote_name(model._meta.db_table)}"
                " WHERE session_key = %s AND expire_date > %s",
                [self.session_key, connection.ops.adapt_datetimefield_value(timezone.now())],
            )
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return {}
        return self.decode(row[0])  # type: ignore[no-any-return]
