"""Import, first step: an uploaded file checked completely, before anything is written.

:func:`read_import` reads the document and checks its structure, every value, and
every deal through the engine; the answer is an :class:`ImportPlan` (the rows to
write, not saved yet), or a :class:`~companion.services.transfer.TransferError`
that says where and what.
"""

from __future__ import annotations

import codecs
import datetime as dt
import functools
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, NamedTuple

from django.core.exceptions import ValidationError
from django.db.models import Count
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion import limits
from companion.games import game_app
from companion.games.checks import Refusal
from companion.games.messages import message_for
from companion.models import (
    GameNight,
    Group,
    Match,
    MatchChange,
    Player,
)
from companion.parsing import (
    MAX_ID,
    MAX_POSITIVE,
    MAX_SMALL,
    clean_name,
    name_key,
    parse_whole_number,
)
from companion.services.groups import (
    GROUP_NAME_MAX,
    PLAYER_NAME_MAX,
    ROSTER_MAX,
    roster_full_message,
)
from companion.services.transfer import FORMAT, VERSION, TransferError
from companion.services.transfer.scan import scan
from scoring import GAMES, ScoringError, rank
from scoring.common import deals_needed, rules_for

MAX_DEPTH = 16
"""How deeply lists and objects may nest (a real export nests about 12 levels)."""

MAX_NOTES = 10_000
"""Characters of a game night's notes."""

MAX_KEY = 20
"""Characters of a player's key in the document (``p1``, ``p2``, ...)."""

EARLIEST = dt.date(1900, 1, 1)
LATEST = dt.date(2999, 12, 31)
"""Dates and times outside these are refused: every database and Python can store them,
converted to any time zone."""

CLIENT_KEY = re.compile(r"[A-Za-z0-9-]{8,64}")
"""An idempotency key as phones send them (``companion.forms.sheet.CLIENT_KEY``)."""


def _pointer(path: Sequence[str | int]) -> str:
    """A place in the file as a JSON Pointer (RFC 6901), e.g. ``/game_nights/0/place``."""
    return "/" + "/".join(str(part).replace("~", "~0").replace("/", "~1") for part in path)


def _check_values(document: Any) -> None:
    """Every value of the document is one the database and the engine can take.

    Text without NUL and without lone surrogates, no fractional numbers,
    integers within 64 bits, at most :data:`MAX_DEPTH` levels of nesting.
    """
    if _values_fit(document):
        return
    _locate_value(document)


def _values_fit(document: Any) -> bool:
    """:func:`_check_values` without finding the place: one level of the document at a
    time, no path kept per value (a long file has millions of values)."""
    level, depth = [document], 0
    while level:
        if depth > MAX_DEPTH:
            return False
        below: list[Any] = []
        for value in level:
            kind = type(value)
            if kind is dict:
                if not all(map(_text_fits, value)):
                    return False
                below.extend(value.values())
            elif kind is list:
                below.extend(value)
            elif kind is str:
                if not _text_fits(value):
                    return False
            elif kind is float or (kind is int and not -MAX_ID <= value <= MAX_ID):
                return False
        level, depth = below, depth + 1
    return True


def _text_fits(text: str) -> bool:
    return "\x00" not in text and (text.isascii() or _encodable(text))


def _locate_value(document: Any) -> None:
    """Raise the :class:`TransferError` that names the first value :func:`_values_fit`
    refused, with its place in the file."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(document, ())]
    while stack:
        value, path = stack.pop()
        problem = ""
        if len(path) > MAX_DEPTH:
            problem = _("the file nests more than %(depth)d levels deep here.") % {
                "depth": MAX_DEPTH}
        elif isinstance(value, str) or (isinstance(value, dict) and value):
            texts = [value] if isinstance(value, str) else list(value)
            for text in texts:
                if "\x00" in text:
                    problem = _("text with a NUL character.")
                elif not _encodable(text):
                    problem = _("text that is not valid Unicode (a lone surrogate).")
                if problem:
                    break
        elif isinstance(value, float):
            problem = _("a fractional number (%(value)s); only whole numbers are allowed.") % {
                "value": repr(value)[:20]}
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_ID:
            problem = _("a number too large to store.")
        if problem:
            raise TransferError(
                _("At %(place)s in the file: %(problem)s")
                % {"place": _pointer(path) if path else "/", "problem": problem}
            )
        if isinstance(value, dict):
            stack.extend((item, (*path, key)) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, (*path, index)) for index, item in enumerate(value))


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class _Reader:
    """Typed access to a part of the document; every failure names where it happened."""

    def __init__(self, value: Any, where: str | Callable[[], str]) -> None:
        self.value = value
        self._where = where

    @property
    def where(self) -> str:
        """Where this part is, for messages (worked out only when needed: it is translated)."""
        return self._where if isinstance(self._where, str) else self._where()

    def fail(self, problem: str) -> TransferError:
        return TransferError(
            _("%(where)s: %(problem)s") % {"where": self.where, "problem": problem}
        )

    def _get(self, key: str) -> Any:
        if key not in self.value:
            raise self.fail(_("“%(key)s” is missing.") % {"key": key})
        return self.value[key]

    def has(self, key: str) -> bool:
        """Whether the part has ``key`` (fields added in later releases may be missing)."""
        return key in self.value

    def obj(self, key: str, where: str) -> _Reader:
        value = self._get(key)
        if not isinstance(value, dict):
            raise _Reader(value, where).fail(_("expected an object."))
        return _Reader(value, where)

    def items(self, key: str, where: Callable[[int], str]) -> list[_Reader]:
        value = self._get(key)
        if not isinstance(value, list):
            raise self.fail(_("“%(key)s” must be a list.") % {"key": key})
        readers = []
        for index, item in enumerate(value):
            if not isinstance(item, dict):
                raise _Reader(item, where(index)).fail(_("expected an object."))
            readers.append(_Reader(item, functools.partial(where, index)))
        return readers

    def text(self, key: str, *, max_length: int | None = None, blank: bool = True) -> str:
        value = self._get(key)
        if not isinstance(value, str):
            raise self.fail(_("“%(key)s” must be text.") % {"key": key})
        if not blank and not value.strip():
            raise self.fail(_("“%(key)s” must not be empty.") % {"key": key})
        if max_length is not None and len(value) > max_length:
            raise self.fail(_("“%(key)s” is longer than %(max)d characters.")
                            % {"key": key, "max": max_length})
        return value

    def name(self, key: str, *, max_length: int) -> str:
        """A name, cleaned the way the app cleans typed names (:func:`clean_name`)."""
        value = self.text(key)
        try:
            return clean_name(value, max_length=max_length)
        except ValidationError as err:
            raise self.fail(
                _("“%(key)s”: %(problem)s") % {"key": key, "problem": " ".join(err.messages)}
            ) from err

    def integer(
        self, key: str, *, minimum: int, maximum: int, null: bool = False
    ) -> Any:
        value = self._get(key)
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(_("“%(key)s” must be a whole number.") % {"key": key})
        try:
            return parse_whole_number(value, minimum=minimum, maximum=maximum)
        except ValidationError as err:
            raise self.fail(
                _("“%(key)s” must be between %(min)d and %(max)d.")
                % {"key": key, "min": minimum, "max": maximum}
            ) from err

    def boolean(self, key: str) -> bool:
        value = self._get(key)
        if not isinstance(value, bool):
            raise self.fail(_("“%(key)s” must be true or false.") % {"key": key})
        return value

    def stamp(self, key: str, *, null: bool = False) -> dt.datetime | None:
        value = self._get(key)
        if value is None and null:
            return None
        try:
            parsed = parse_datetime(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None or parsed.tzinfo is None:
            raise self.fail(_("“%(key)s” must be a date and time with time zone.") % {"key": key})
        if not EARLIEST <= parsed.date() <= LATEST:
            raise self.fail(self._out_of_years(key))
        return parsed

    def date(self, key: str) -> dt.date:
        value = self._get(key)
        try:
            parsed = parse_date(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None:
            raise self.fail(_("“%(key)s” must be a date (YYYY-MM-DD).") % {"key": key})
        if not EARLIEST <= parsed <= LATEST:
            raise self.fail(self._out_of_years(key))
        return parsed

    @staticmethod
    def _out_of_years(key: str) -> str:
        return _("“%(key)s” must lie between the years %(first)d and %(last)d.") % {
            "key": key, "first": EARLIEST.year, "last": LATEST.year}

    def choice(self, key: str, choices: Sequence[str]) -> str:
        value = self._get(key)
        if not isinstance(value, str) or value not in choices:
            raise self.fail(_("“%(key)s” has an unknown value: %(value)s.")
                            % {"key": key, "value": json.dumps(value)[:40]})
        return str(value)

    def mapping(self, key: str, *, null: bool = False) -> Any:
        value = self._get(key)
        if value is None and null:
            return None
        if not isinstance(value, dict):
            raise self.fail(_("“%(key)s” must be an object.") % {"key": key})
        return value


@dataclass(slots=True)
class ImportPlan:
    """The checked document, ready to be written: the group, its players and nights as
    model instances without a group yet, the rest of each match as plain tuples (a
    long history takes a fraction of the memory model instances would; the importer
    makes the rows of a few hundred matches at a time)."""

    group: Group
    players: dict[str, Player]
    """By the document's player key, in the document's order."""
    nights: list[tuple[GameNight, list[MatchPlan]]]


class SeatPlan(NamedTuple):
    player: str
    """The player's key in the document."""
    number: int
    total: int
    place: int | None
    is_winner: bool


class ScorePlan(NamedTuple):
    player: str
    data: dict[str, Any]
    """The engine's ``entry_to_dict`` of the entry."""
    score: int


class DealPlan(NamedTuple):
    number: int
    version: int
    created_at: dt.datetime
    updated_at: dt.datetime
    scores: list[ScorePlan]


class ChangePlan(NamedTuple):
    kind: str
    deal_number: int | None
    created_at: dt.datetime
    undone_at: dt.datetime | None
    client_key: str | None
    before: Any
    """``{player key: entry}`` or None."""
    after: Any


@dataclass(slots=True)
class MatchPlan:
    match: Match
    seats: list[SeatPlan]
    deals: list[DealPlan]
    changes: list[ChangePlan]


def _refuse_constant(name: str) -> Any:
    raise TransferError(
        _("This file holds “%(value)s”, which is not a number Kartenrunde can store.")
        % {"value": name}
    )


_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
"""Byte order marks of the Unicode encodings an editor may save JSON in (UTF-32 first:
its little-endian mark begins with UTF-16's)."""


def _refuse_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object as a dict; a key given twice makes the file ambiguous, so it is refused."""
    document = dict(pairs)
    if len(document) == len(pairs):
        return document
    document = {}
    for key, value in pairs:
        if key in document:
            shown = key[:80].encode("utf-8", "backslashreplace").decode("utf-8")
            raise TransferError(
                _("This file gives “%(key)s” twice in one place, so it is unclear which "
                  "one counts: it was changed by hand or is damaged.") % {"key": shown}
            )
        document[key] = value
    return document


def _parse(content: bytes | str) -> Any:
    if isinstance(content, bytes):
        encoding = next((name for bom, name in _BOMS if content.startswith(bom)), "utf-8-sig")
        try:
            content = content.decode(encoding)
        except UnicodeDecodeError as exc:
            raise TransferError(
                _("This file is not a Kartenrunde export: it is not text.")
            ) from exc
    scan(content)  # over a limit: refused before it is loaded (as a stream, memory flat)
    try:
        return json.loads(content, parse_constant=_refuse_constant,
                          object_pairs_hook=_refuse_twice)
    except TransferError:
        raise
    except json.JSONDecodeError as exc:
        raise TransferError(
            _("This file is damaged or not JSON (line %(line)d, column %(column)d).")
            % {"line": exc.lineno, "column": exc.colno}
        ) from exc
    except RecursionError as exc:
        raise TransferError(_("This file is damaged or not JSON.")) from exc
    except ValueError as exc:
        # Python refuses to read integers of more than 4,300 digits.
        raise TransferError(
            _("This file holds a number too long to be read: it is damaged.")
        ) from exc


def _check_header(document: Any, *, counted: bool = True) -> _Reader:
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
    if counted:
        _check_sizes(document)
    _check_values(document)
    return _Reader(document, _("The file"))


def _listed(parent: Any, key: str) -> list[Any]:
    """``parent[key]`` if that is a list, else [] (the full check refuses it later)."""
    value = parent.get(key) if isinstance(parent, dict) else None
    return value if isinstance(value, list) else []


def _check_sizes(document: dict[str, Any]) -> None:
    """The document within the limits of :mod:`companion.limits`, counted before anything
    else is checked: a file over them is refused at once, whatever else it holds."""
    try:
        _count(document)
    except limits.LimitExceeded as err:
        raise TransferError(str(err)) from err


def _count(document: dict[str, Any]) -> None:
    nights = _listed(document, "game_nights")
    limits.NIGHTS.check(len(nights))
    dates = [_date_or_none(night.get("date")) for night in nights if isinstance(night, dict)]
    known = [date for date in dates if date is not None]
    if known:
        years = max(1, math.ceil(((max(known) - min(known)).days + 1) / 365.25))
        if len(nights) > limits.NIGHTS_PER_YEAR.maximum * years:
            raise limits.LimitExceeded(limits.NIGHTS_PER_YEAR.refusal(
                len(nights), per_year=number_format(len(nights) / years, decimal_pos=0,
                                                    force_grouping=True)))
    matches = deals = changes = 0
    for index, night in enumerate(nights):
        for number, match in enumerate(_listed(night, "matches"), start=1):
            matches += 1
            deals += len(_listed(match, "deals"))
            logged = len(_listed(match, "changes"))
            changes += logged
            options = match.get("options") if isinstance(match, dict) else None
            size = len(json.dumps(options, separators=(",", ":"))) if options else 0
            where = functools.partial(_match_place, index, number)
            if logged > limits.CHANGES_PER_MATCH.maximum:
                raise limits.LimitExceeded(limits.CHANGES_PER_MATCH.refusal(logged, where=where()))
            if size > limits.OPTIONS_BYTES.maximum:
                raise limits.LimitExceeded(limits.OPTIONS_BYTES.refusal(size, where=where()))
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


def _check_options(
    reader: _Reader, game: str, status: str, keys: Sequence[str], names: Mapping[str, str]
) -> dict[str, Any]:
    """The match's options: those of its game (e.g. the 13 variant), and the live record
    the engine must accept."""
    options = dict(reader.mapping("options"))
    app = game_app(game)
    live = app.live.option if app.live else None
    for name, value in options.items():
        if name in app.option_checks:
            try:
                app.option_checks[name](value)
            except Refusal as refusal:
                raise reader.fail(refusal.message) from refusal
        elif name == "live_rev":
            if isinstance(value, bool) or not isinstance(value, int) or not (
                0 <= value <= MAX_POSITIVE
            ):
                raise reader.fail(_("the live counter is not a whole number of changes."))
        elif name.startswith("live_") and name != live:
            raise reader.fail(_("a match of this game has no live record “%(name)s”.")
                              % {"name": name[:40]})
        elif name != live and not (
            value is None or isinstance(value, bool | int)
            or (isinstance(value, str) and len(value) <= 200)
        ):
            raise reader.fail(_("the option “%(name)s” has a value Kartenrunde does not know.")
                              % {"name": name[:40]})
    if app.live is None or app.live.option not in options:
        return options
    items = options[app.live.option]
    if status != Match.Status.OPEN and items:
        raise reader.fail(_("only a running match can have a live record."))
    if not isinstance(items, list) or len(items) > 1000:
        raise reader.fail(_("the live record “%(name)s” is not a list of steps.") % {"name": live})
    try:
        app.live.check(items, keys, names)
    except Refusal as refusal:
        raise reader.fail(refusal.message) from refusal
    except ScoringError as err:
        raise reader.fail(message_for(err)) from err
    return options


def _entries_by_key(
    reader: _Reader, key: str, keys: Sequence[str], game: str
) -> Any:
    """A log entry's ``before`` or ``after``: null, or a valid entry per seated player key."""
    value = reader.mapping(key, null=True) if reader.has(key) else None
    if value is None:
        return None
    rules = rules_for(game)
    for player, data in value.items():
        if player not in keys or not isinstance(data, dict):
            raise reader.fail(_("“%(key)s” names a player who is not seated.") % {"key": key})
        try:
            rules.entry_from_dict(data)
        except ScoringError as err:
            raise reader.fail(message_for(err)) from err
    return value


def _check_changes(
    reader: _Reader, game: str, keys: Sequence[str], deals: int
) -> list[ChangePlan]:
    """The match's log: kinds, deal numbers that fit the deals, entries the engine reads."""
    deal_kinds = set(MatchChange.DEAL_KINDS)
    # Undo and redo are logged with the deal they changed; they are not undone themselves.
    with_deal = deal_kinds | set(MatchChange.STEP_KINDS)
    changes: list[ChangePlan] = []
    client_keys: set[str] = set()
    readers = reader.items(
        "changes", lambda i: _("%(match)s, change %(n)d") % {"match": reader.where, "n": i + 1}
    )
    for change_reader in readers:
        kind = change_reader.choice("kind", [k for k, _l in MatchChange.Kind.choices])
        number = change_reader.integer("deal_number", minimum=1, maximum=MAX_SMALL, null=True)
        if kind in with_deal and number is None:
            raise change_reader.fail(_("a change of a deal needs the deal's number."))
        if kind not in with_deal and number is not None:
            raise change_reader.fail(_("a change of the match names no deal."))
        client_key = None
        if change_reader.has("client_key") and change_reader.value["client_key"] is not None:
            client_key = change_reader.text("client_key", max_length=64)
            if not CLIENT_KEY.fullmatch(client_key) or client_key in client_keys:
                raise change_reader.fail(_("the change's key is malformed or used twice."))
            client_keys.add(client_key)
        undone_at = (change_reader.stamp("undone_at", null=True)
                     if change_reader.has("undone_at") else None)
        changes.append(ChangePlan(
            kind, number, change_reader.stamp("created_at"), undone_at, client_key,  # type: ignore[arg-type]
            _entries_by_key(change_reader, "before", keys, game),
            _entries_by_key(change_reader, "after", keys, game),
        ))
    # The changes undo and redo would apply next must fit the deals there are. The log
    # is oldest first: undo takes back the newest deal change not undone, redo re-applies
    # the oldest undone one after it (``services.matches.undo_target``/``redo_target``).
    # A deal comes back (undo of a delete, redo of a record) at most right after the last.
    in_log = [(index, change) for index, change in enumerate(changes)
              if change.kind in deal_kinds]
    done = [index for index, change in in_log if change.undone_at is None]
    undo = done[-1] if done else None
    redo = next((index for index, change in in_log
                 if change.undone_at is not None and (undo is None or index > undo)), None)
    for target, returns in ((undo, MatchChange.Kind.DELETE), (redo, MatchChange.Kind.RECORD)):
        if target is None:
            continue
        change = changes[target]
        limit = deals + 1 if change.kind == returns else deals
        if change.deal_number is not None and change.deal_number > limit:
            raise readers[target].fail(
                ngettext("the change names deal %(number)d, but the match has %(deals)d deal.",
                         "the change names deal %(number)d, but the match has %(deals)d deals.",
                         deals)
                % {"number": change.deal_number, "deals": deals}
            )
    return changes


def _check_match(reader: _Reader, players: Mapping[str, Player]) -> MatchPlan:
    game = reader.choice("game", list(GAMES))
    info = GAMES[game]
    status = reader.choice("status", [value for value, _label in Match.Status.choices])
    # Files written before matches were imported from elsewhere have neither field.
    source = (reader.choice("source", [value for value, _label in Match.Source.choices])
              if reader.has("source") else Match.Source.SHEET)
    external_id = None
    if reader.has("external_id") and reader.value["external_id"] is not None:
        external_id = reader.text("external_id", max_length=64, blank=False)
    match = Match(
        game=game,
        first_dealer=reader.integer("first_dealer", minimum=0, maximum=MAX_SMALL),
        status=status,
        created_at=reader.stamp("created_at"),
        finished_at=reader.stamp("finished_at", null=True),
        source=source,
        external_id=external_id,
    )
    if status == Match.Status.FINISHED and match.finished_at is None:
        raise reader.fail(_("a finished match needs the time it was finished."))
    imported = source != Match.Source.SHEET
    if imported and status != Match.Status.FINISHED:
        raise reader.fail(_("an imported match is finished: it has final scores only."))
    seats: list[SeatPlan] = []
    for seat_reader in reader.items("seats", lambda i: _("%(match)s, seat %(n)d")
                                    % {"match": reader.where, "n": i + 1}):
        seats.append(SeatPlan(
            seat_reader.choice("player", list(players)),
            seat_reader.integer("number", minimum=0, maximum=MAX_SMALL),
            seat_reader.integer("total", minimum=-MAX_POSITIVE, maximum=MAX_POSITIVE),
            seat_reader.integer("place", minimum=1, maximum=MAX_SMALL, null=True),
            seat_reader.boolean("is_winner"),
        ))
    try:
        info.check_players(len(seats))
    except ScoringError as err:
        raise reader.fail(message_for(err)) from err
    keys = [seat.player for seat in seats]
    if len(set(keys)) != len(keys):
        raise reader.fail(_("a player has more than one seat."))
    if sorted(seat.number for seat in seats) != list(range(len(seats))):
        raise reader.fail(_("the seats must be numbered 0, 1, 2, … without gaps."))
    if match.first_dealer >= len(seats):
        raise reader.fail(_("the first dealer is not one of the seats."))
    name_of = {key: players[key].name for key in keys}
    match.options = _check_options(reader, game, status, keys, name_of)
    rules = rules_for(game, match.options)
    deals: list[DealPlan] = []
    totals = dict.fromkeys(keys, 0)
    deal_readers = reader.items(
        "deals", lambda i: _("%(match)s, deal %(n)d") % {"match": reader.where, "n": i + 1}
    )
    # A match that ends by its totals (to a target) is over by the totals the file states
    # (checked against the deals below).
    needed = deals_needed(game, len(seats), recorded=len(deal_readers), options=match.options,
                          totals=lambda: {seat.player: seat.total for seat in seats})
    if imported and deal_readers:
        raise reader.fail(_("an imported match has final scores only, no deals."))
    if len(deal_readers) > needed:
        raise reader.fail(
            _("it has %(deals)d deals, but a match of %(game)s with %(players)d players has "
              "%(needed)d.")
            % {"deals": len(deal_readers), "game": info.title, "players": len(seats),
               "needed": needed}
        )
    if status == Match.Status.FINISHED and len(deal_readers) < needed and not imported:
        raise reader.fail(
            ngettext("it is finished with %(deals)d deal, but a match of %(game)s with "
                     "%(players)d players has %(needed)d.",
                     "it is finished with %(deals)d deals, but a match of %(game)s with "
                     "%(players)d players has %(needed)d.", len(deal_readers))
            % {"deals": len(deal_readers), "game": info.title, "players": len(seats),
               "needed": needed}
        )
    for index, deal_reader in enumerate(deal_readers, start=1):
        number = deal_reader.integer("number", minimum=1, maximum=MAX_SMALL)
        version = deal_reader.integer("version", minimum=1, maximum=MAX_POSITIVE)
        created_at = deal_reader.stamp("created_at")
        updated_at = deal_reader.stamp("updated_at")
        if number != index:
            raise deal_reader.fail(
                _("the deals must be numbered 1, 2, 3, … in order; this one should be "
                  "%(expected)d.") % {"expected": index}
            )
        recorded: dict[str, tuple[Any, int]] = {}
        for score_reader in deal_reader.items(
            "scores", lambda i, parent=deal_reader: _("%(deal)s, entry %(n)d")
            % {"deal": parent.where, "n": i + 1}
        ):
            key = score_reader.choice("player", keys)
            if key in recorded:
                raise score_reader.fail(_("the player has two entries in this deal."))
            try:
                entry = rules.entry_from_dict(score_reader.mapping("data"))
            except ScoringError as err:
                raise score_reader.fail(message_for(err)) from err
            recorded[key] = (
                entry, score_reader.integer("score", minimum=-MAX_POSITIVE, maximum=MAX_POSITIVE)
            )
        if set(recorded) != set(keys):
            raise deal_reader.fail(_("every seated player needs exactly one entry."))
        try:
            parsed = {name_of[key]: entry for key, (entry, _s) in recorded.items()}
            rules.validate_deal(parsed)
            scores = rules.score_deal(parsed)
        except ScoringError as err:
            raise deal_reader.fail(message_for(err)) from err
        rows: list[ScorePlan] = []
        for key, (entry, score) in recorded.items():
            if scores[name_of[key]] != score:
                raise deal_reader.fail(
                    _("%(player)s's recorded score %(recorded)d differs from the rules' "
                      "%(computed)d.")
                    % {"player": name_of[key], "recorded": score,
                       "computed": scores[name_of[key]]}
                )
            totals[key] += score
            rows.append(ScorePlan(key, rules.entry_to_dict(entry), score))
        deals.append(DealPlan(number, version, created_at, updated_at, rows))  # type: ignore[arg-type]
    if imported:  # no deals to add up: the final scores are the totals
        totals = {seat.player: seat.total for seat in seats}
    places = {
        name: place
        for place, name, _total in rank(totals, lower_is_better=info.lower_is_better)
    }
    finished = status == Match.Status.FINISHED
    for seat in seats:
        key = seat.player
        if seat.total != totals[key]:
            raise reader.fail(
                _("%(player)s's total %(total)d is not the sum of the deals (%(sum)d).")
                % {"player": name_of[key], "total": seat.total, "sum": totals[key]}
            )
        if seat.place != places[key] or seat.is_winner != (finished and places[key] == 1):
            raise reader.fail(
                _("%(player)s's place or win does not follow from the totals.")
                % {"player": name_of[key]}
            )
    changes = _check_changes(reader, game, keys, len(deals))
    return MatchPlan(match, seats, deals, changes)


def _check(document: Any, *, counted: bool = True) -> ImportPlan:
    root = _check_header(document, counted=counted)
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
    nights = []
    external_ids: set[tuple[str, str]] = set()
    for night_reader in root.items("game_nights", lambda i: _("Game night %(n)d") % {"n": i + 1}):
        night = GameNight(
            date=night_reader.date("date"),
            place=night_reader.text("place", max_length=100),
            notes=night_reader.text("notes", max_length=MAX_NOTES),
            created_at=night_reader.stamp("created_at"),
        )
        matches = [
            _check_match(match_reader, players)
            for match_reader in night_reader.items(
                "matches", lambda i, date=night.date: _("%(night)s, match %(n)d")
                % {"night": _("Game night %(date)s") % {"date": date.isoformat()}, "n": i + 1}
            )
        ]
        for match_plan in matches:
            match = match_plan.match
            if match.external_id is None:
                continue
            if (match.source, match.external_id) in external_ids:
                raise TransferError(
                    _("%(night)s: two imported matches have the same id “%(id)s”.")
                    % {"night": _("Game night %(date)s") % {"date": night.date.isoformat()},
                       "id": match.external_id})
            external_ids.add((match.source, match.external_id))
        nights.append((night, matches))
        # What the plan needs is copied out of it: the night's part of the document goes
        # now, so that a long file is not held twice (as JSON objects and as the plan).
        night_reader.value.clear()
    return ImportPlan(group, players, nights)


def read_import(content: bytes | str | IO[bytes]) -> ImportPlan:
    """The uploaded file ``content`` (its bytes, its text, or the file to read them from)
    checked completely, as the rows to write.

    Raises :class:`~companion.services.transfer.TransferError` if the file is damaged,
    foreign, of a newer format, over a limit of :mod:`companion.limits` or breaks a rule
    of the games.
    """
    if not isinstance(content, bytes | str):
        # Read here, not by the caller: the bytes are dropped once they are parsed.
        return _check(_parse(_read(content)))
    _check_file_size(len(content))
    return _check(_parse(content))


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
    from companion.services.transfer.export import group_export

    _check(group_export(group, source=Match.Source.SHEET), counted=False)
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
