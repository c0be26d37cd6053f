"""Sessions in the database: Django's ``db`` engine, its session read written out in SQL.

Every page a logged-in phone asks for (and every poll of a changed sheet) reads its
session first. Building that one query through the ORM took as long as a whole bare
view (bench/web.py); the query itself is a lookup by primary key. So this engine reads
the same row with the same expiry check and decodes it the same way; everything else
(creating, saving, logging out, ``clearsessions``) is Django's ``db`` engine unchanged.

Checking a session's signature costs as much as reading it; a phone sends the same
session data on every request until something changes it. So the data read from the
database is checked once per process: the result (the data, or an empty session if the
check failed) is kept by the exact text that was checked, at most ``_KEPT`` texts, and
every load gets its own copy. The same text always checks the same way under the same
secret keys; a settings change forgets what was kept.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.sessions.backends import db
from django.core.signals import setting_changed
from django.db import connections, router
from django.dispatch import receiver
from django.utils import timezone

_KEPT = 1024
_checked: dict[str, str] = {}
"""Session data as read from the database → its decoded content as JSON text."""


@receiver(setting_changed)
def _forget_checked(**kwargs: Any) -> None:
    _checked.clear()


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
        data = row[0]
        checked = _checked.get(data)
        if checked is None:
            if len(_checked) >= _KEPT:
                _checked.clear()
            checked = _checked[data] = json.dumps(self.decode(data))
        return json.loads(checked)  # type: ignore[no-any-return]
