"""Logins: throttling with django-axes (the backend, the client's address, the lockout
page). Logged-in users are read by Django's own session engine and ModelBackend.

After ``AXES_FAILURE_LIMIT`` failed logins for one user name from one address
(``AXES_LOCKOUT_PARAMETERS``), axes refuses further attempts for
``AXES_COOLOFF_TIME``; this holds for our login page and the admin's alike,
because both call ``authenticate(request, ...)``.

One address is limited across user names too: after ``LOGIN_THROTTLE_ADDRESS_LIMIT``
failed logins from it within ``AXES_COOLOFF_TIME``, whatever the names, its attempts
are refused before any password is hashed, so that wrong passwords under ever new names
cannot fill the server's CPUs with hashing. The limit is higher than a name's (a
household behind one address mistypes now and then), and other addresses are not
affected. Axes counts the failures (``AccessAttempt``, one row per name and address);
this backend adds them up per address.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone


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
        super().authenticate(request, username, password, **kwargs)
        if address_failures(request) >= settings.LOGIN_THROTTLE_ADDRESS_LIMIT:
            # Shown by AxesMiddleware as lockout_response, like axes' own refusals.
            request.axes_locked_out = True  # type: ignore[attr-defined]
            request.axes_credentials = {"username": username}  # type: ignore[attr-defined]
            request.login_throttled_address = True  # type: ignore[attr-defined]
            raise AxesBackendPermissionDenied("too many failed logins from this address")
        return None


def address_failures(request: HttpRequest) -> int:
    """Failed logins from the request's address within the cool-off time, all names."""
    address = client_ip(request)
    if address is None:
        return 0
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    return int(AccessAttempt.objects.filter(ip_address=address, attempt_time__gte=since)
               .aggregate(failures=Sum("failures_since_start"))["failures"] or 0)


def client_ip(request: HttpRequest) -> str | None:
    """The address a request comes from (login attempts, signups), always a valid IPv4 or
    IPv6 address or None: axes stores it, PostgreSQL's ``inet`` column refuses anything else.

    REMOTE_ADDR, unless ``TRUSTED_PROXIES`` (``DJANGO_TRUSTED_PROXIES``) says that many
    reverse proxies stand in front of the app: each appends the address it got the
    request from to X-Forwarded-For, so the client's is the entry that many places from
    the right. Entries further left are whatever the client sent and never count; a
    header with fewer entries did not pass all the proxies, and REMOTE_ADDR counts. The
    entry is read as :func:`parse_address` reads it (a port and brackets dropped); an
    entry that is no address at all counts as missing: REMOTE_ADDR again.
    """
    proxies = settings.TRUSTED_PROXIES
    if proxies:
        forwarded = [
            address.strip()
            for address in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if address.strip()
        ]
        if len(forwarded) >= proxies:
            found = parse_address(forwarded[-proxies])
            if found is not None:
                return found
    return parse_address(request.META.get("REMOTE_ADDR") or "")


MAX_ADDRESS = 64
"""Longer than any written address with brackets, a zone and a port: never parsed."""


def parse_address(text: str) -> str | None:
    """``text`` as a plain IP address ("203.0.113.5", "2001:db8::1"), or None if it is not
    one. Accepted as proxies write them: "1.2.3.4:5678", "[2001:db8::1]", "[::1]:80" (the
    port and the brackets dropped) and an IPv6 zone ("fe80::1%eth0", dropped); an
    IPv4 address written as IPv6 ("::ffff:1.2.3.4") is the IPv4 address."""
    text = text.strip()
    if not text or len(text) > MAX_ADDRESS:
        return None
    if text.startswith("["):
        host, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
    elif text.count(":") == 1:  # IPv4 with a port (IPv6 has at least two colons)
        host, _colon, port = text.partition(":")
        if not port.isdigit():
            return None
    else:
        host = text
    try:
        address = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(address)


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """Our page for a refused login (HTTP 429), on the app's and the admin's login alike."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    by_address = getattr(request, "login_throttled_address", False)
    return render(
        request, "registration/lockout.html",
        {"minutes": minutes, "username": "" if by_address else username,
         "by_address": by_address,
         "failure_limit": (settings.LOGIN_THROTTLE_ADDRESS_LIMIT if by_address
                           else settings.AXES_FAILURE_LIMIT)},
        status=429,
    )
