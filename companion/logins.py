"""Logins: throttling with django-axes (the backend, the client's address, the lockout
page), and the backend that reads the logged-in user of every request.

After ``AXES_FAILURE_LIMIT`` failed logins for one user name from one address
(``AXES_LOCKOUT_PARAMETERS``), axes refuses further attempts for
``AXES_COOLOFF_TIME``; this holds for our login page and the admin's alike,
because both call ``authenticate(request, ...)``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib import auth
from django.contrib.auth import get_user_model
from django.contrib.auth import middleware as auth_middleware
from django.contrib.auth.backends import ModelBackend
from django.db import connections, router
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import SimpleLazyObject


class LoginThrottleBackend(AxesStandaloneBackend):
    """Axes' check before every login that comes with a request.

    Both login pages pass the request. ``authenticate()`` without one (the test
    client's ``login()``, scripts) has no address to count and is left to the
    next backend instead of failing.
    """

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None,
        password: str | None = None, **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class UserColumns:
    """How the logged-in user's row is read in plain SQL and made a user, as the ORM does
    (the database's value converters, then ``from_db``)."""

    model: Any
    alias: str
    table: str
    pk: str
    pk_index: int
    columns: list[str]
    names: list[str]
    converters: list[tuple[int, Any, list[Any]]]
    """The columns that have converters: their index, column expression and functions."""

    def select(self, prefix: str = "") -> str:
        return ", ".join(prefix + column for column in self.columns)

    @functools.cached_property
    def by_pk(self) -> str:
        """The user's row by its primary key (the read when the session brought none)."""
        return f"SELECT {self.select()} FROM {self.table} WHERE {self.pk} = %s"

    def user(self, row: Sequence[Any]) -> Any:
        values = list(row)
        connection = connections[self.alias]
        for index, column, converts in self.converters:
            value = values[index]
            for convert in converts:
                value = convert(value, column, connection)
            values[index] = value
        return self.model.from_db(self.alias, self.names, values)


@functools.cache
def user_columns() -> UserColumns:
    """Built once: the project has one database and no router."""
    model = get_user_model()
    alias = router.db_for_read(model)
    connection = connections[alias]
    fields = model._meta.concrete_fields
    quote = connection.ops.quote_name
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        converts = (connection.ops.get_db_converters(column)
                    + field.get_db_converters(connection))
        if converts:
            converters.append((index, column, converts))
    return UserColumns(
        model, alias, quote(model._meta.db_table), quote(model._meta.pk.column),
        list(fields).index(model._meta.pk), [quote(field.column) for field in fields],
        [field.attname for field in fields], converters,
    )


_SESSION: ContextVar[Any] = ContextVar("the session whose user is being read", default=None)


class AccountBackend(ModelBackend):
    """Django's ``ModelBackend``, with the logged-in user of a request read in plain SQL.

    Every page of a logged-in phone loads its user; building that one query through the
    ORM took as long as a whole bare view (bench/web.py). The same row is read and
    turned into a user the way the ORM does (``UserColumns``); mostly it comes with the
    session's own query (``companion.sessions``: the user this session had the last time,
    used only if the session still names that user). An inactive account is no one
    (``user_can_authenticate``), and Django still checks the session against the user's
    password hash afterwards, so a password change logs out the other sessions as before.
    """

    def get_user(self, user_id: Any) -> Any:
        columns = user_columns()
        session = _SESSION.get()
        row = getattr(session, "account_row", None)
        if row is None or str(row[columns.pk_index]) != str(user_id):
            with connections[columns.alias].cursor() as cursor:
                cursor.execute(columns.by_pk, [user_id])
                row = cursor.fetchone()
            if row is None:
                return None
        user = columns.user(row)
        return user if self.user_can_authenticate(user) else None


class AuthenticationMiddleware(auth_middleware.AuthenticationMiddleware):
    """Django's, with the session at hand while ``auth.get_user`` reads the request's
    user, so that ``AccountBackend`` can take the row read with the session."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _user(request))  # type: ignore[assignment]


def _user(request: HttpRequest) -> Any:
    if not hasattr(request, "_cached_user"):
        token = _SESSION.set(request.session)
        try:
            request._cached_user = auth.get_user(request)  # type: ignore[attr-defined]
        finally:
            _SESSION.reset(token)
    return request._cached_user  # type: ignore[attr-defined]


def client_ip(request: HttpRequest) -> str | None:
    """The address a login attempt comes from.

    REMOTE_ADDR, except behind the TLS-terminating proxy of the hosted profile
    (``DJANGO_HTTPS=1``): there every request comes from the proxy, which adds
    the client's address as the last entry of X-Forwarded-For. Earlier entries
    are whatever the client sent and are never trusted.
    """
    if settings.LOGIN_THROTTLE_BEHIND_PROXY:
        forwarded = [
            address.strip()
            for address in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if address.strip()
        ]
        if forwarded:
            return forwarded[-1]
    return request.META.get("REMOTE_ADDR") or None


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """Our page for a refused login (HTTP 429), on the app's and the admin's login alike."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    return render(
        request, "registration/lockout.html",
        {"minutes": minutes, "username": username, "failure_limit": settings.AXES_FAILURE_LIMIT},
        status=429,
    )
