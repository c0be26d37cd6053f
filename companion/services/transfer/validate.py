"""Import, first step: an uploaded file checked, a game night and a match at a time, as
the rows to write.

:func:`read_import` reads the document (:mod:`.document`: over a limit, refused before
anything is built; the game nights and their matches read one at a time) and checks its
header, group and players; the answer is an :class:`ImportPlan` whose nights and
matches are checked as they are taken from it (their structure, every value
(:mod:`.values`), every deal through the engine (:mod:`.matches`)). A problem raises a
:class:`~companion.services.transfer.TransferError` that says where and what, when the
part is reached: the importer (:mod:`.importer`) then deletes what it wrote.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from django.db.models import Count
from django.utils.translation import gettext as _

from companion import limits
from companion.games.messages import message_for
from companion.models import GameNight, Group, Match, Player
from companion.parsing import MAX_POSITIVE, name_key
from companion.services.groups import (
    GROUP_NAME_MAX,
    PLAYER_NAME_MAX,
    ROSTER_MAX,
    roster_full_message,
)
from companion.services.transfer import FORMAT, VERSION, TransferError
from companion.services.transfer.document import read_document
from companion.services.transfer.matches import (
    CLIENT_KEY,
    ChangePlan,
    DealPlan,
    MatchPlan,
    ScorePlan,
    SeatPlan,
    check_match,
)
from companion.services.transfer.reader import EARLIEST, LATEST, Reader, Streamed
from companion.services.transfer.scan import _match_place
from companion.services.transfer.values import MAX_DEPTH, check_values
from scoring import GAMES, ScoringError, rank

MAX_NOTES = 10_000
"""Characters of a game night's notes."""

MAX_KEY = 20
"""Characters of a player's key in the document (``p1``, ``p2``, ...)."""


@dataclass(slots=True)
class ImportPlan:
    """The checked header of a document, ready to be written: the group and its players
    as model instances without a group yet, and the game nights, each with its matches,
    checked as they are taken (a match's rows as plain tuples: the importer makes the
    rows of a few hundred matches at a time)."""

    group: Group
    players: dict[str, Player]
    """By the document's player key, in the document's order."""
    nights: Iterator[tuple[GameNight, Iterator[MatchPlan]]]


def _check_header(document: Any) -> Reader:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise TransferError(
            _("This file is not a Kartenrunde export (it has no “format”: “%(format)s”).")
            % {"format": FORMAT}
        )
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise TransferError(_("This export has no valid version number."))
    if version > VERSION:
        raise TransferError(
            _("This export was written by a newer version of Kartenrunde (format version "
              "%(version)d); this one reads version %(supported)d.")
            % {"version": version, "supported": VERSION}
        )
    if version < 1:
        raise TransferError(_("This export has no valid version number."))
    check_values(document)
    return Reader(document, _("The file"))



def _check(document: Any, *, counted: bool = True) -> ImportPlan:
    root = _check_header(document)
    group_reader = root.obj("group", _("The group"))
    group = Group(
        name=group_reader.name("name", max_length=GROUP_NAME_MAX),
        created_at=group_reader.stamp("created_at"),
    )
    players: dict[str, Player] = {}
    names: dict[str, str] = {}
    player_readers = root.items("players", lambda i: _("Player %(n)d") % {"n": i + 1})
    if len(player_readers) > ROSTER_MAX:
        raise TransferError(roster_full_message())
    for reader in player_readers:
        key = reader.text("key", max_length=MAX_KEY, blank=False)
        name = reader.name("name", max_length=PLAYER_NAME_MAX)
        if key in players:
            raise reader.fail(_("the key “%(key)s” is used twice.") % {"key": key})
        if name_key(name) in names:
            raise reader.fail(
                _("the name “%(name)s” is used twice (as “%(other)s”).")
                % {"name": name, "other": names[name_key(name)]}
            )
        names[name_key(name)] = name
        players[key] = Player(name=name, created_at=reader.stamp("created_at"))
    nights = root.stream("game_nights", lambda i: _("Game night %(n)d") % {"n": i + 1})
    return ImportPlan(group, players, _nights(nights, players, counted=counted))


def _nights(readers: Iterator[Reader], players: dict[str, Player], *, counted: bool
            ) -> Iterator[tuple[GameNight, Iterator[MatchPlan]]]:
    external_ids: set[tuple[str, str]] = set()
    for index, night_reader in enumerate(readers):
        check_values(night_reader.value, ("game_nights", index))
        night = GameNight(
            date=night_reader.date("date"),
            place=night_reader.text("place", max_length=100),
            notes=night_reader.text("notes", max_length=MAX_NOTES),
            created_at=night_reader.stamp("created_at"),
        )
        matches = night_reader.stream(
            "matches", lambda i, date=night.date: _("%(night)s, match %(n)d")
            % {"night": _("Game night %(date)s") % {"date": date.isoformat()}, "n": i + 1}
        )
        plans = _matches(matches, players, night, index, external_ids, counted=counted)
        yield night, plans
        for _plan in plans:  # what the caller left: checked all the same
            pass


def _matches(readers: Iterator[Reader], players: dict[str, Player], night: GameNight,
             index: int, external_ids: set[tuple[str, str]], *, counted: bool
             ) -> Iterator[MatchPlan]:
    for number, match_reader in enumerate(readers):
        check_values(match_reader.value, ("game_nights", index, "matches", number))
        options = match_reader.value.get("options")
        if counted and options:
            size = len(json.dumps(options, separators=(",", ":")))
            if size > limits.OPTIONS_BYTES.maximum:
                raise TransferError(limits.OPTIONS_BYTES.refusal(
                    size, where=_match_place(index, number + 1)))
        plan = check_match(match_reader, players)
        match = plan.match
        if match.external_id is not None:
            if (match.source, match.external_id) in external_ids:
                raise TransferError(
                    _("%(night)s: two imported matches have the same id “%(id)s”.")
                    % {"night": _("Game night %(date)s") % {"date": night.date.isoformat()},
                       "id": match.external_id})
            external_ids.add((match.source, match.external_id))
        yield plan


def read_import(content: bytes | str | IO[bytes]) -> ImportPlan:
    """The uploaded file ``content`` (its bytes, its text, or the file to read them from)
    as the rows to write: its header checked now, its game nights and matches as they
    are taken from the plan.

    Raises :class:`~companion.services.transfer.TransferError` if the file is damaged,
    foreign, of a newer format, over a limit of :mod:`companion.limits` or breaks a rule
    of the games (taking the nights and matches raises it too, when it reaches the part).
    """
    if not isinstance(content, bytes | str):
        # Read here, not by the caller: the bytes are dropped once they are decoded.
        return _check(read_document(_read(content)))
    _check_file_size(len(content))
    return _check(read_document(content))


def _read(file: IO[bytes]) -> bytes:
    data = file.read(limits.IMPORT_BYTES.maximum + 1)
    _check_file_size(len(data))
    return data


def _check_file_size(size: int) -> None:
    try:
        limits.check_size(limits.IMPORT_BYTES, size)
    except limits.LimitExceeded as err:
        raise TransferError(str(err)) from err


def check_history(group: Group) -> None:
    """The stored history of ``group`` checked as the group import checks a file (a
    restored backup must pass the rules an upload must pass): its score sheet matches
    through the export's document, the matches imported from BG Stats (final scores only)
    on their own. Raises :class:`~companion.services.transfer.TransferError`.

    The counts of :mod:`companion.limits` (game nights, per year, matches, deals, log
    entries, per match) are not applied: they bound what an upload may cost anyone who
    signs up, while the pages create without them (a member may start a 401st game
    night in a year, a guest tap undo a thousand times), and a backup of a database the
    app made must restore. A backup is bounded by its size (``limits.BACKUP_BYTES``) and
    the depth of its values instead."""
    from companion.services.transfer.export import group_export_parts

    # The export read as the import reads a file: a batch of matches at a time.
    export = group_export_parts(group, source=Match.Source.SHEET)
    document = {**export.head, "game_nights": Streamed(
        {**night, "matches": Streamed(matches)} for night, matches in export.nights)}
    for _night, plans in _check(document, counted=False).nights:
        for _plan in plans:
            pass
    imported = (
        Match.objects.filter(group=group).exclude(source=Match.Source.SHEET)
        .annotate(recorded=Count("deals")).prefetch_related("seats")
    )
    for match in imported:
        where = _("Imported match %(id)d") % {"id": match.pk}
        seats = sorted(match.seats.all(), key=lambda seat: seat.number)
        if match.status != Match.Status.FINISHED or match.recorded or match.game not in GAMES:
            raise TransferError(_("%(where)s: an imported match is finished, of one of the "
                                  "games, and has no deals.") % {"where": where})
        try:
            GAMES[match.game].check_players(len(seats))
        except ScoringError as err:
            raise TransferError(f"{where}: {message_for(err)}") from err
        places = {int(seat): place for place, seat, _total in rank(
            {str(seat.number): seat.total for seat in seats},
            lower_is_better=GAMES[match.game].lower_is_better)}
        if any(seat.place != places[seat.number] or seat.is_winner != (places[seat.number] == 1)
               or abs(seat.total) > MAX_POSITIVE for seat in seats):
            raise TransferError(_("%(where)s: a place or win does not follow from the final "
                                  "scores.") % {"where": where})


__all__ = [
    "CLIENT_KEY", "EARLIEST", "LATEST", "MAX_DEPTH", "MAX_KEY", "MAX_NOTES", "ChangePlan",
    "DealPlan", "ImportPlan", "MatchPlan", "ScorePlan", "SeatPlan", "Streamed",
    "check_history", "read_import",
]
