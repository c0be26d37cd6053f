"""An uploaded JSON file read as a stream (ijson), before it is loaded; and the error that
refuses such a file.

A file of 16 MB loaded whole as Python objects can take twenty times that (a list of
five million empty objects takes 340 MB). So the file is first read as a stream of
parser events, in memory that does not grow with the file: a document that is not an
object, that nests deeper than any export, or that holds more lists, objects or texts
than the largest export the limits allow, is refused here, with the limit's message,
before anything is built from it. The same pass counts what a Kartenrunde export holds
(game nights, matches, deals, log entries: :class:`Scanned`), for the history import
to check against :mod:`companion.limits` (``companion.services.transfer.scan``).

Reading, not writing: the history import and the BG Stats import both use it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ijson
from django.utils.translation import gettext as _

from companion import limits


class TransferError(ValueError):
    """An import file that is damaged, foreign or breaks a rule; nothing was imported."""


SCAN_DEPTH = 64
"""Nesting no file that is JSON meant for people reaches (an export nests about 12
levels; ``companion.services.transfer.validate.MAX_DEPTH`` names the place of anything
deeper than 16)."""

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


@dataclass(slots=True)
class Scanned:
    """What the stream held, counted as a Kartenrunde export is laid out."""

    header: dict[str, Any] = field(default_factory=dict)
    """The top-level ``format`` and ``version``, where the file has them."""
    nights: int = 0
    dates: list[str] = field(default_factory=list)
    """The game nights' ``date`` texts (no more than the limit of nights, plus one)."""
    over_in_match: tuple[int, int, int] | None = None
    """The first match with more log entries than a match may have: (its night's index,
    its number in the night, its entries)."""
    matches: int = 0
    deals: int = 0
    changes: int = 0


def _damaged() -> TransferError:
    return TransferError(_("This file is damaged or not JSON."))


def scan_stream(data: str | bytes, *, not_an_export: Callable[[], Exception]
                ) -> Scanned | None:
    """Refuse ``data`` (the uploaded text) if its structure is over a limit, reading it as
    a stream; what it counted, or None for a file that is not JSON (left to the full
    read, which names the line and column: what this scan read of it before the damage
    was within the limits).

    Raises :class:`TransferError`, or ``not_an_export()`` for a document that is not an
    object (the calling format's refusal).
    """
    if isinstance(data, str):
        data = data.encode("utf-8", "replace")  # a lone surrogate: "?" (the full read names it)
    try:
        return _scan(ijson.basic_parse(data, use_float=True), not_an_export)
    except ijson.JSONError as err:
        if "overflow" in str(err):  # a number of more than 64 bits: yajl stops there
            raise TransferError(
                _("This file holds a number too long to be read: it is damaged.")
            ) from err
        return None  # Damaged JSON: the full read says where (it stops at the same place).


def _scan(events: Any, not_an_export: Callable[[], Exception]) -> Scanned:
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
    del header["object"]
    return Scanned(header, nights, dates, over_in_match, matches, deals, changes)
