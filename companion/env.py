"""The settings' view of the environment: on/off flags, comma-separated lists and
the secret key file.

settings.py imports this module before Django is set up, so it uses nothing
from Django that needs settings.
"""

from __future__ import annotations

import os
from email.utils import getaddresses
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key

TRUE = frozenset({"1", "true", "yes", "on"})
FALSE = frozenset({"0", "false", "no", "off", ""})


def flag(name: str, *, default: bool = False) -> bool:
    """An on/off variable: 1/true/yes/on or 0/false/no/off; unset is ``default``.

    >>> os.environ["KARTENRUNDE_EXAMPLE"] = "Yes"
    >>> flag("KARTENRUNDE_EXAMPLE")
    True
    >>> flag("KARTENRUNDE_UNSET_EXAMPLE", default=True)
    True
    """
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r}: use 1 (on) or 0 (off).")


def as_list(name: str, default: tuple[str, ...] = ()) -> list[str]:
    """A comma-separated variable as a list, blanks dropped; unset is ``default``.

    >>> os.environ["KARTENRUNDE_EXAMPLE"] = "example.org, .example.net,"
    >>> as_list("KARTENRUNDE_EXAMPLE")
    ['example.org', '.example.net']
    """
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def count(name: str, *, default: int = 0, maximum: int = 10) -> int:
    """A whole number from 0 to ``maximum``; unset or blank is ``default``.

    >>> os.environ["KARTENRUNDE_EXAMPLE"] = " 2 "
    >>> count("KARTENRUNDE_EXAMPLE")
    2
    >>> count("KARTENRUNDE_UNSET_EXAMPLE", default=1)
    1
    """
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) > maximum:
        raise ImproperlyConfigured(f"{name}={raw!r}: use a whole number from 0 to {maximum}.")
    return int(raw)


def admins(name: str) -> list[tuple[str, str]]:
    """``Name <address>, address2``: Django's ADMINS pairs of name and e-mail address.

    >>> os.environ["KARTENRUNDE_EXAMPLE"] = "Anna Admin <anna@example.org>, ben@example.org"
    >>> admins("KARTENRUNDE_EXAMPLE")
    [('Anna Admin', 'anna@example.org'), ('ben@example.org', 'ben@example.org')]
    """
    pairs = getaddresses([os.environ.get(name, "")])
    return [(person or address, address) for person, address in pairs if address]


MIN_KEY_LENGTH = 50


def secret_key_from_file(path: Path) -> str:
    """The secret key kept in ``path``; on first use a new random key is written there.

    The file is created readable and writable by its owner only (mode 0600).
    Several processes starting at once agree on one key: each writes its
    candidate to a private file and links it into place, which only the first
    one can do; everyone then reads the key that won.
    """
    try:
        return _read_key(path)
    except FileNotFoundError:
        pass
    candidate = path.with_name(f".{path.name}.{os.getpid()}.new")
    descriptor = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(get_random_secret_key() + "\n")
    try:
        os.link(candidate, path)
    except FileExistsError:
        pass  # another process was first: its key counts
    finally:
        candidate.unlink()
    return _read_key(path)


def _read_key(path: Path) -> str:
    key = path.read_text(encoding="utf-8").strip()
    if len(key) < MIN_KEY_LENGTH:
        raise ImproperlyConfigured(
            f"The secret key file {path} holds no usable key (fewer than {MIN_KEY_LENGTH} "
            "characters). Delete it to have a new key generated, or set DJANGO_SECRET_KEY."
        )
    return key
