"""Signups are throttled per client address: at most ``SIGNUP_THROTTLE_LIMIT`` new accounts
from one address in ``SIGNUP_THROTTLE_WINDOW`` seconds; the next gets HTTP 429 with a
clear message until the window ends. A household or a club on one Wi-Fi signs up a
few accounts an evening; a script that makes dozens a minute (to import, back up and
restore at everyone's expense) is stopped.

The address is :func:`companion.logins.client_ip`'s (the trusted proxies' entry, always a
valid address). The count is kept in Django's cache (the database cache: shared by all
processes) as one key per account made in the window, each taken with ``cache.add``,
which only one request can win: a burst of simultaneous signups cannot slip past the
limit the way a read-then-write counter would.
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from companion.logins import client_ip


def _window() -> tuple[int, float]:
    """The current window's number and the seconds left in it."""
    length = settings.SIGNUP_THROTTLE_WINDOW
    now = time.time()
    return int(now // length), length - now % length


def _keys(request: HttpRequest) -> list[str]:
    number, _left = _window()
    address = client_ip(request) or "unknown"
    return [f"signup:{address}:{number}:{slot}"
            for slot in range(settings.SIGNUP_THROTTLE_LIMIT)]


def signups_paused(request: HttpRequest) -> int | None:
    """The minutes until the request's address may sign up again, None if it may now."""
    keys = _keys(request)
    if len(cache.get_many(keys)) < len(keys):
        return None
    return minutes_left()


def minutes_left() -> int:
    return max(1, math.ceil(_window()[1] / 60))


def signup_take(request: HttpRequest) -> str | None:
    """Count a signup from the request's address: the slot taken (to give back with
    :func:`signup_give_back` if the account was not made after all), None if the address
    has made as many accounts as the window allows."""
    _number, left = _window()
    for key in _keys(request):
        if cache.add(key, 1, timeout=math.ceil(left) + 1):
            return key
    return None


def signup_give_back(key: str) -> None:
    cache.delete(key)


__all__ = ["minutes_left", "signup_give_back", "signup_take", "signups_paused"]
