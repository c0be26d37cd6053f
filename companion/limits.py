"""What one uploaded file may hold: the group import, a BG Stats export, a backup.

Limits a real group never reaches and a hostile file always does. They are checked
on the file as it was read, before anything is written, and each refusal names the
limit (:class:`LimitExceeded`; the importers turn it into their own error). The
largest import they allow takes at most about 30 s and 200 MB on a small server
(``bench/imports.py`` measures it).

One set of limits for everything the app accepts: the counts below bound an *upload*
(anyone who signs up may send one); the pages create without them, and ``restore`` does
not apply them either (a backup of a database the app made always restores: a member may
start a 401st game night in a year, a guest tap undo a thousand times). A backup is
bounded by its unpacked size (:data:`BACKUP_BYTES`) and the depth of its values; its
histories are checked against the games' rules (``companion.backups``).

A real group, for scale: one evening a week for ten years is 520 game nights; with
five matches an evening 2,600 matches, about 8,000 deals and as many log entries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

MB = 1024 * 1024


class LimitExceeded(ValueError):
    """A file holds more than a limit allows; its message names the limit."""


@dataclass(frozen=True, slots=True)
class Limit:
    """A largest count, with the sentence that refuses a file over it.

    The sentence gets ``%(count)s`` (what the file holds) and ``%(limit)s``, both
    written with the language's digit grouping, and any ``extra`` values.
    """

    maximum: int
    message: str | Promise

    def check(self, count: int, **extra: Any) -> None:
        """Raise :class:`LimitExceeded` when ``count`` is over the limit."""
        if count > self.maximum:
            raise LimitExceeded(self.refusal(count, **extra))

    def refusal(self, count: int, **extra: Any) -> str:
        return str(self.message) % {
            "count": _grouped(count), "limit": _grouped(self.maximum), **extra,
        }


def _grouped(number: int) -> str:
    return number_format(number, force_grouping=True)


def megabytes(size: int) -> str:
    """``size`` bytes in MB, for messages: "12.5" (the language's decimal mark)."""
    return number_format(round(size / MB, 1), decimal_pos=1)


# --- the group import (companion.services.transfer) -----------------------------------------

IMPORT_BYTES = Limit(
    16 * MB,
    _("The file is too large: %(size)s MB; an import takes files of at most %(limit_mb)s MB."),
)
"""The largest export file read (its JSON takes about five times that in memory)."""

MATCHES = Limit(
    10_000, _("This file holds %(count)s matches; an import takes at most %(limit)s matches."),
)
NIGHTS = Limit(
    5_000,
    _("This file holds %(count)s game nights; an import takes at most %(limit)s game nights."),
)
NIGHTS_PER_YEAR = Limit(
    400,
    _("This file holds %(count)s game nights, %(per_year)s per year of its history; an import "
      "takes at most %(limit)s game nights per year."),
)
"""Game nights per year between the first and the last one (a year at least): more than
one an evening, every evening."""
DEALS = Limit(
    50_000, _("This file holds %(count)s deals; an import takes at most %(limit)s deals."),
)
CHANGES = Limit(
    100_000,
    _("This file holds %(count)s log entries; an import takes at most %(limit)s log entries."),
)
CHANGES_PER_MATCH = Limit(
    1_000,
    _("%(where)s: the match has %(count)s log entries; an import takes at most %(limit)s "
      "per match."),
)
OPTIONS_BYTES = Limit(
    8 * 1024,
    _("%(where)s: the match's options take %(count)s bytes; an import takes at most "
      "%(limit)s bytes per match."),
)
"""The options of a match as compact JSON: a live record of a whole game of 3 sind einer
zuviel! (84 cards) takes about 3 KB."""
IMPORT_CONTAINERS = Limit(
    1_000_000,
    _("This file holds more than %(limit)s lists and objects; an export within the limits "
      "holds fewer."),
)
"""Lists and objects of a file, counted while it is read as a stream, before it is loaded
(``companion.uploads``): the largest export the limits allow holds about
360,000; a million empty objects take 64 MB once loaded."""
IMPORT_TEXTS = Limit(
    1_000_000,
    _("This file holds more than %(limit)s texts; an export within the limits holds fewer."),
)
"""Texts of a file, counted likewise (the largest exports: about 90,000 to 210,000)."""


# --- BG Stats exports (companion.bgstats) ---------------------------------------------------

BGSTATS_BYTES = IMPORT_BYTES
BGSTATS_PLAYS = Limit(
    MATCHES.maximum,
    _("This file holds %(count)s plays; an import takes at most %(limit)s plays."),
)
BGSTATS_GAMES = Limit(
    5_000, _("This file holds %(count)s games; an import takes at most %(limit)s games."),
)
BGSTATS_PLAYERS = Limit(
    5_000, _("This file holds %(count)s players; an import takes at most %(limit)s players."),
)
BGSTATS_LOCATIONS = Limit(
    5_000,
    _("This file holds %(count)s locations; an import takes at most %(limit)s locations."),
)


# --- backups (companion.backups) ------------------------------------------------------------

BACKUP_BYTES = 64 * MB
"""The largest backup read, unpacked (``manage.py restore --max-size`` raises it)."""


def check_size(limit: Limit, size: int) -> None:
    """Refuse ``size`` bytes over a limit of bytes, naming both in MB."""
    if size > limit.maximum:
        raise LimitExceeded(limit.refusal(
            size, size=megabytes(size), limit_mb=megabytes(limit.maximum),
        ))
