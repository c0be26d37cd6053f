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

The logged-in user's row comes with the same query: the query joins the user this
session named the last time this process read it (``_accounts``), and the row is kept on
the store as ``account_row`` only when the session still names that user. The login
backend (``companion.logins.AccountBackend``) then makes the user from it instead of
reading it again; a first read, or a session that names someone else now, costs the
backend's own query as before.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends import db
from django.core.exceptions import ValidationError
from django.core.signals import setting_changed
from django.db import connections, router
from django.dispatch import receiver
from django.utils import timezone

from companion.logins import user_columns

_KEPT = 1024
_checked: dict[str, str] = {}
"""Session data as read from the database → its decoded content as JSON text."""
_accounts: dict[str, Any] = {}
"""Session key → the user id its data named when this process last read it."""


@receiver(setting_changed)
def _forget_checked(**kwargs: Any) -> None:
    _checked.clear()
    _accounts.clear()


@functools.cache
def _load_sql(alias: str) -> tuple[str, bool]:
    """The session read on ``alias``, and whether it joins the user (same database)."""
    connection = connections[alias]
    table = connection.ops.quote_name(db.SessionStore.get_model_class()._meta.db_table)
    users = user_columns()
    if users.alias != alias:
        return (f"SELECT s.session_data FROM {table} s"
                " WHERE s.session_key = %s AND s.expire_date > %s", False)
    return (f"SELECT s.session_data, {users.select('u.')} FROM {table} s"
            f" LEFT JOIN {users.table} u ON u.{users.pk} = %s"
            " WHERE s.session_key = %s AND s.expire_date > %s", True)


class SessionStore(db.SessionStore):
    account_row: tuple[Any, ...] | None = None
    """The logged-in user's row (``logins.UserColumns``), read with the session."""

    def load(self) -> dict[str, Any]:
        """The session's data, or an empty session (and no key) when it is gone or expired."""
        alias = router.db_for_read(self.model)
        connection = connections[alias]
        sql, joins = _load_sql(alias)
        key = self.session_key
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        guess = _accounts.get(key) if joins else None
        with connection.cursor() as cursor:
            cursor.execute(sql, [guess, key, now] if joins else [key, now])
            row = cursor.fetchone()
        self.account_row = None
        if row is None:
            self._session_key = None
            return {}
        data = row[0]
        checked = _checked.get(data)
        if checked is None:
            if len(_checked) >= _KEPT:
                _checked.clear()
            checked = _checked[data] = json.dumps(self.decode(data))
        session: dict[str, Any] = json.loads(checked)
        if joins:
            user_id = _remember(key, session.get(SESSION_KEY))
            account = row[1:]
            if (user_id is not None and guess == user_id
                    and account[user_columns().pk_index] is not None):
                self.account_row = account
        return session

    def create_model_instance(self, data: dict[str, Any]) -> Any:
        """The row to save; the user it names is remembered for the next read (a login)."""
        _remember(self.session_key, data.get(SESSION_KEY))
        return super().create_model_instance(data)


def _remember(key: str | None, named: Any) -> Any:
    """The user id a session's data names (``None`` for none), remembered as the user to
    read with that session next time."""
    try:
        user_id = None if named is None else user_columns().model._meta.pk.to_python(named)
    except ValidationError:
        user_id = None
    if key is None:
        return user_id
    if user_id is None:
        _accounts.pop(key, None)
    else:
        if key not in _accounts and len(_accounts) >= _KEPT:
            _accounts.clear()
        _accounts[key] = user_id
    return user_id
