"""Logins: throttling with django-axes (the backend, the client's address, the lockout
page). Logged-in users are read by Django's own session engine and ModelBackend.

After ``AXES_FAILURE_LIMIT`` failed logins for one user name from one address
(``AXES_LOCKOUT_PARAMETERS``), axes refuses further attempts for
``AXES_COOLOFF_TIME``; this holds for our login page and the admin's alike,
because both call ``authenticate(request, ...)``.
"""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


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


def client_ip(request: HttpRequest) -> str | None:
    """The address a login attempt comes from.

    REMOTE_ADDR, unless ``TRUSTED_PROXIES`` (``DJANGO_TRUSTED_PROXIES``) says that many
    reverse proxies stand in front of the app: each appends the address it got the
    request from to X-Forwarded-For, so the client's is the entry that many places from
    the right. Entries further left are whatever the client sent and never count; a
    header with fewer entries did not pass all the proxies, and REMOTE_ADDR counts.
    """
    proxies = settings.TRUSTED_PROXIES
    if proxies:
        forwarded = [
            address.strip()
            for address in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if address.strip()
        ]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
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
