"""Django's CSRF tokens, drawn with one call to the operating system's random source.

Every page with a form carries a CSRF token: Django's secret under a fresh random mask
(so that the secret never shows twice in compressed pages, the BREACH attack). Django
draws the mask's 32 characters with 32 calls of ``secrets.choice``, each a system call,
and finds each character's place with ``str.index``: together a twentieth of the whole
layout page's time (bench/web.py). The same characters are drawn here from one
``secrets.token_bytes`` call: bytes below 248 (4 × 62) map evenly onto the 62 allowed
characters, the rest are dropped and more are drawn, so every character is as likely
as with Django's draw, and as unpredictable (the same source).

:func:`install` (from the app's ``ready()``) puts the two functions in place of
Django's own in ``django.middleware.csrf``: its token checks, cookies and rotation are
unchanged and read tokens made either way.
"""

from __future__ import annotations

import secrets

from django.middleware import csrf

CHARS = csrf.CSRF_ALLOWED_CHARS
LENGTH = csrf.CSRF_SECRET_LENGTH
_PLACE = {char: place for place, char in enumerate(CHARS)}
_EVEN_BELOW = 256 - 256 % len(CHARS)
"""Bytes below this map onto the characters evenly (each character by 4 byte values)."""


def new_csrf_string() -> str:
    """``LENGTH`` characters of ``CHARS``, each drawn evenly and unpredictably."""
    drawn: list[str] = []
    while len(drawn) < LENGTH:
        drawn += [CHARS[byte % len(CHARS)] for byte in secrets.token_bytes(LENGTH + 16)
                  if byte < _EVEN_BELOW]
    return "".join(drawn[:LENGTH])


def mask_cipher_secret(secret: str) -> str:
    """Django's token for ``secret``: a new mask, then each secret character moved on by
    its mask character's place (what ``csrf._mask_cipher_secret`` computes)."""
    mask = new_csrf_string()
    count = len(CHARS)
    return mask + "".join(
        CHARS[(_PLACE[char] + _PLACE[pad]) % count] for char, pad in zip(secret, mask, strict=True)
    )


def install() -> None:
    """Django's CSRF module draws its secrets and masks with the functions above."""
    csrf._get_new_csrf_string = new_csrf_string
    csrf._mask_cipher_secret = mask_cipher_secret
