"""Import, step zero: the uploaded file read as a stream (ijson), before it is loaded.

A file of 16 MB loaded whole as Python objects can take twenty times that (a list of
five million empty objects takes 340 MB). So the file is first read as a stream of
parser events, in memory that does not grow with the file: a document that is not an
object, that nests deeper than any export, that holds more lists, objects or texts than
the largest export the limits allow, or more game nights, matches, deals or log entries
than :mod:`companion.limits` allows, is refused here, with the limit's message, before
anything is built from it. Only a file within all of them is read and checked in full,
a match at a time (:mod:`.document`, :mod:`.validate`).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from typing import Any

import ijson
from django.utils.dateparse import parse_date
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from companion import limits
from companion.services.transfer import FORMAT, VERSION, TransferError

SCAN_DEPTH = 64
"""Nesting no file that is JSON meant for people reaches (an export nests about 12
levels; :data:`.validate.MAX_DEPTH` names the place of anything deeper than 16)."""

(_ROOT, _NIGHTS, _NIGHT, _MATCHES, _MATCH, _DEALS, _CHANGES, _OTHER) = range(8)

_CHILD = {
    # (the parent's role, its key or None for a list's items, a list or an object) → role
    (_ROOT, "game_nights", "start_array"): _NIGHTS,
    (_NIGHTS, None, "start_map"): _NIGHT,
    (_NIGHT, "matches", "start_array"): _MATCHES,
    (_MATCHES, None, "start_map"): _MATCH,
    (_MATCH, "deals", "start_array"): _DEALS,
    (_MATCH, "changes", "start_array"): _CHANGES,
}


def _not_an_export() -> TransferError:
    return TransferError(
        _("This file is not a Kartenrunde export (it has no “format”: “%(format)s”).")
        % {"format": FORMAT}
    )


def _damaged() -> TransferError:
    return TransferError(_("This file is damaged or not JSON."))


def scan(data: str | bytes, *, not_an_export: Callable[[], Exception] | None = None) -> None:
    """Refuse ``data`` (the uploaded text) if it is over a limit, reading it as a stream.

    Raises :class:`~companion.services.transfer.TransferError`. A file that is not JSON
    at all is left to the full read, which names the line and column: what this scan
    read of it before the damage was within the limits. With ``not_an_export`` (another
    format's refusal of a file that is not an object: a BG Stats export) only the size
    of the structure is checked, not the counts of a Kartenrunde export.
    """
    if isinstance(data, str):
        data = data.encode("utf-8", "replace")  # a lone surrogate: "?" (the full read names it)
    try:
        _scan(ijson.basic_parse(data, use_float=True), not_an_export or _not_an_export,
              counted=not_an_export is None)
    except ijson.JSONError as err:
        if "overflow" in str(err):  # a number of more than 64 bits: yajl stops there
            raise TransferError(
                _("This file holds a number too long to be read: it is damaged.")
            ) from err
        # Damaged JSON: the full read says where (it stops at the same place).


def _scan(events: Any, not_an_export: Callable[[], Exception], *, counted: bool) -> None:
    # One frame per open list or object: [role, the object's current key, items so far].
    stack: list[list[Any]] = []
    containers = texts = 0
    nights = matches = deals = changes = 0
    dates: list[str] = []
    header: dict[str, Any] = {}
    over_in_match: tuple[int, int, int] | None = None
    for event, value in events:
        if event == "map_key":
            stack[-1][1] = value
            continue
        if event == "end_map" or event == "end_array":
            frame = stack.pop()
            if (frame[0] == _CHANGES and over_in_match is None
                    and frame[2] > limits.CHANGES_PER_MATCH.maximum):
                over_in_match = (nights - 1, stack[-2][2], frame[2])
            continue
        opens = event == "start_map" or event == "start_array"
        if not stack:
            if not opens:
                raise not_an_export()
            # Not an object: no export, but damaged JSON says so first (as it always did).
            header["object"] = event == "start_map"
            stack.append([_ROOT if header["object"] else _OTHER, None, 0])
            continue
        parent = stack[-1]
        parent[2] += 1
        key = parent[1]
        role = parent[0]
        if role == _ROOT and not opens:
            if key in ("format", "version"):
                header[key] = value
        elif role == _NIGHTS:
            nights += 1
        elif role == _MATCHES:
            matches += 1
        elif role == _DEALS:
            deals += 1
        elif role == _CHANGES:
            changes += 1
        elif role == _NIGHT and key == "date" and event == "string" and (
                len(dates) <= limits.NIGHTS.maximum):
            dates.append(value)
        if event == "string":
            texts += 1
            if texts > limits.IMPORT_TEXTS.maximum:
                if not header["object"]:
                    raise not_an_export()
                raise TransferError(limits.IMPORT_TEXTS.refusal(texts))
        if opens:
            containers += 1
            if containers > limits.IMPORT_CONTAINERS.maximum:
                if not header["object"]:
                    raise not_an_export()
                raise TransferError(limits.IMPORT_CONTAINERS.refusal(containers))
            if len(stack) >= SCAN_DEPTH:
                raise _damaged()
            child = _CHILD.get((role, key, event), _OTHER)
            stack.append([child, None, 0])
    if not header.get("object"):
        raise not_an_export()
    if not counted:
        return
    version = header.get("version")
    if header.get("format") != FORMAT or isinstance(version, bool) or not isinstance(
        version, int) or not 1 <= version <= VERSION:
        return  # not an export of this version: the full read says so, as it always did
    try:
        _check_counts(nights, dates, over_in_match, matches, deals, changes)
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
