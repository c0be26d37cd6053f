"""Import, step zero: the uploaded file read as a stream (ijson), before it is loaded.

The stream itself is read by :func:`companion.uploads.scan_stream` (in memory that does
not grow with the file; a structure over a limit is refused there). Here, what it
counted of a Kartenrunde export is held against :mod:`companion.limits`: more game
nights, matches, deals or log entries than allowed are refused with the limit's message,
before anything is built from the file. Only a file within all of them is read and
checked in full, a match at a time (:mod:`.document`, :mod:`.validate`).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from typing import Any

from django.utils.dateparse import parse_date
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from companion import limits
from companion.services.transfer import FORMAT, VERSION, TransferError
from companion.uploads import SCAN_DEPTH, scan_stream


def _not_an_export() -> TransferError:
    return TransferError(
        _("This file is not a Kartenrunde export (it has no “format”: “%(format)s”).")
        % {"format": FORMAT}
    )


def scan(data: str | bytes, *, not_an_export: Callable[[], Exception] | None = None) -> None:
    """Refuse ``data`` (the uploaded text) if it is over a limit, reading it as a stream.

    Raises :class:`~companion.services.transfer.TransferError`. A file that is not JSON
    at all is left to the full read, which names the line and column: what this scan
    read of it before the damage was within the limits. With ``not_an_export`` (another
    format's refusal of a file that is not an object) only the size of the structure is
    checked, not the counts of a Kartenrunde export.
    """
    scanned = scan_stream(data, not_an_export=not_an_export or _not_an_export)
    if scanned is None or not_an_export is not None:
        return
    version = scanned.header.get("version")
    if scanned.header.get("format") != FORMAT or isinstance(version, bool) or not isinstance(
        version, int) or not 1 <= version <= VERSION:
        return  # not an export of this version: the full read says so, as it always did
    try:
        _check_counts(scanned.nights, scanned.dates, scanned.over_in_match, scanned.matches,
                      scanned.deals, scanned.changes)
    except limits.LimitExceeded as err:
        raise TransferError(str(err)) from err


def _check_counts(nights: int, dates: list[str], over_in_match: tuple[int, int, int] | None,
                  matches: int, deals: int, changes: int) -> None:
    """The counts, in this order (each with the limit's message)."""
    limits.NIGHTS.check(nights)
    known = [date for date in map(_date_or_none, dates) if date is not None]
    if known:
        years = max(1, math.ceil(((max(known) - min(known)).days + 1) / 365.25))
        if nights > limits.NIGHTS_PER_YEAR.maximum * years:
            raise limits.LimitExceeded(limits.NIGHTS_PER_YEAR.refusal(
                nights, per_year=number_format(nights / years, decimal_pos=0,
                                               force_grouping=True)))
    if over_in_match is not None:
        night, number, logged = over_in_match
        raise limits.LimitExceeded(limits.CHANGES_PER_MATCH.refusal(
            logged, where=_match_place(night, number)))
    limits.MATCHES.check(matches)
    limits.DEALS.check(deals)
    limits.CHANGES.check(changes)


def _match_place(night: int, match: int) -> str:
    return _("%(night)s, match %(n)d") % {
        "night": _("Game night %(n)d") % {"n": night + 1}, "n": match}


def _date_or_none(value: Any) -> dt.date | None:
    try:
        return parse_date(value) if isinstance(value, str) else None
    except ValueError:
        return None


__all__ = ["SCAN_DEPTH", "TransferError", "scan"]
