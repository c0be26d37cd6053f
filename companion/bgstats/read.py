"""Reading a BG Stats file: the shape ``BGStatsExport.json`` has, checked strictly.

BG Stats (an app that tracks board game plays) exports ``BGStatsExport.json``: an
object with ``games`` (``id``, ``name``, ``bggId``: the BoardGameGeek id, 0 if none),
``players`` (``id``, ``name``), ``locations`` (``id``, ``name``) and ``plays``
(``uuid``, ``gameRefId``, ``playDate`` as local time "YYYY-MM-DD hh:mm:ss",
``locationRefId``, ``ignored``, and ``playerScores``: ``playerRefId``, ``score`` as
text, ``winner``, ``startPlayer``, ``seatOrder``, ``rank``), plus fields we do not
read. Many tools read and write that shape.

:func:`bgstats_read` checks such a file strictly and within fixed limits (size,
counts, types, references): anything wrong gives one :class:`BGStatsError` with a
message that says where, never a half-read file. It reads, and asks nothing of the
database: what the plays mean for a group is :mod:`companion.bgstats.plan`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from companion import limits
from companion.uploads import TransferError, scan_stream

MAX_BYTES = limits.BGSTATS_BYTES.maximum
"""The largest file read (the same as the group import's); the counts of games, players,
locations and plays are limited in :mod:`companion.limits` too."""
MAX_SCORES = 100
"""Player scores of one play."""
MAX_TEXT = 500
"""Characters of a name or a play's id."""
MAX_ID = 2**53
"""Ids BG Stats writes are small whole numbers; anything larger is not a BG Stats file."""
EARLIEST = dt.date(1900, 1, 1)
LATEST = dt.date(2999, 12, 31)
DUPLICATES = "kartenrundeDuplicates"
"""A key of our own in :meth:`companion.bgstats.plan.ImportPlan.document`: the plays the
original file repeated."""

MAX_DURATION = 24 * 60
"""The longest play kept, in minutes (a longer ``durationMin`` is read as a day)."""


class BGStatsError(ValueError):
    """A file that is not a readable BG Stats export; nothing was imported."""


@dataclass(frozen=True, slots=True)
class SourceScore:
    player_ref: int
    score: str
    """As the file has it (BG Stats writes text; "" when none was entered)."""
    winner: bool
    start_player: bool
    seat_order: int


@dataclass(frozen=True, slots=True)
class SourcePlay:
    uuid: str
    game_ref: int
    played_at: dt.datetime
    """Local time, as the file has it (no time zone)."""
    location: str
    ignored: bool
    scores: tuple[SourceScore, ...]
    duration_min: int = 0
    """``durationMin``: how long the play took (kept: the export writes it back)."""


def _where_play(index: int) -> str:
    return _("Play %(n)d") % {"n": index + 1}


class _Reader:
    """Checked access to one object of the file; a failure names where it happened."""

    def __init__(self, value: object, where: str) -> None:
        if not isinstance(value, dict):
            raise BGStatsError(_("%(where)s: expected an object.") % {"where": where})
        self.value: dict[str, Any] = value
        self.where = where

    def fail(self, problem: str) -> BGStatsError:
        return BGStatsError(_("%(where)s: %(problem)s") % {"where": self.where,
                                                            "problem": problem})

    def whole(self, key: str, *, default: int | None = None, minimum: int = 0) -> int:
        value = self.value.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not (
            minimum <= value <= MAX_ID
        ):
            raise self.fail(_("“%(key)s” must be a whole number of at least %(min)d.")
                            % {"key": key, "min": minimum})
        return value

    def text(self, key: str, *, default: str | None = None, blank: bool = True) -> str:
        value = self.value.get(key, default)
        if not isinstance(value, str):
            raise self.fail(_("“%(key)s” must be text.") % {"key": key})
        if len(value) > MAX_TEXT or "\x00" in value:
            raise self.fail(_("“%(key)s” is longer than %(max)d characters or holds a NUL "
                              "character.") % {"key": key, "max": MAX_TEXT})
        if not blank and not value.strip():
            raise self.fail(_("“%(key)s” must not be empty.") % {"key": key})
        return value

    def flag(self, key: str) -> bool:
        value = self.value.get(key, False)
        if value in (0, 1) and not isinstance(value, float):  # some tools write 0/1
            return bool(value)
        raise self.fail(_("“%(key)s” must be true or false.") % {"key": key})

    def score(self, key: str) -> str:
        """A score as text: BG Stats writes "12" (or ""), other tools 12 or null."""
        value = self.value.get(key, "")
        if value is None:
            return ""
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise self.fail(_("“%(key)s” must be a number or text.") % {"key": key})
        text = value if isinstance(value, str) else json.dumps(value)
        if len(text) > 40 or "\x00" in text:
            raise self.fail(_("“%(key)s” is too long.") % {"key": key})
        return text

    def items(self, key: str, maximum: int | limits.Limit, *, required: bool = True
              ) -> list[Any]:
        value = self.value.get(key, None if required else [])
        if not isinstance(value, list):
            raise self.fail(_("“%(key)s” must be a list.") % {"key": key})
        if isinstance(maximum, limits.Limit):
            try:
                maximum.check(len(value))
            except limits.LimitExceeded as err:
                raise BGStatsError(str(err)) from err
        elif len(value) > maximum:
            raise self.fail(_("“%(key)s” has more than %(max)d entries.")
                            % {"key": key, "max": maximum})
        return value

    def moment(self, key: str) -> dt.datetime:
        raw = self.text(key)
        moment = None
        for pattern in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"):
            try:
                moment = dt.datetime.strptime(raw.strip()[:19], pattern)
                break
            except ValueError:
                continue
        with contextlib.suppress(ValueError):  # a date alone: midday, to stay on that date
            moment = moment or dt.datetime.combine(dt.date.fromisoformat(raw.strip()),
                                                   dt.time(12))
        if moment is None:
            raise self.fail(_("“%(key)s” must be a date and time (YYYY-MM-DD hh:mm:ss).")
                            % {"key": key})
        if not EARLIEST <= moment.date() <= LATEST:
            raise self.fail(_("“%(key)s” must lie between the years %(first)d and %(last)d.")
                            % {"key": key, "first": EARLIEST.year, "last": LATEST.year})
        return moment


def _refuse_constant(name: str) -> Any:
    raise BGStatsError(_("This file holds “%(value)s”, which is not a number.")
                       % {"value": name})


def _not_an_export() -> BGStatsError:
    return BGStatsError(_("This file is not a BG Stats export: it has no lists of "
                          "“games”, “players” and “plays”."))


def _parse(content: bytes | str) -> Any:
    try:
        limits.check_size(limits.BGSTATS_BYTES, len(content))
    except limits.LimitExceeded as err:
        raise BGStatsError(str(err)) from err
    if isinstance(content, bytes):
        try:
            content = content.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise BGStatsError(_("This file is not a BG Stats export: it is not text.")) from exc
    # Read as a stream first, in flat memory: a file that is not an object, or holds more
    # lists, objects or texts than any export within the limits, is refused unloaded.
    try:
        scan_stream(content, not_an_export=_not_an_export)
    except TransferError as err:
        raise BGStatsError(str(err)) from err
    try:
        return json.loads(content, parse_constant=_refuse_constant)
    except BGStatsError:
        raise
    except json.JSONDecodeError as exc:
        raise BGStatsError(
            _("This file is damaged or not JSON (line %(line)d, column %(column)d).")
            % {"line": exc.lineno, "column": exc.colno}
        ) from exc
    except (RecursionError, ValueError) as exc:  # too deep; an integer of 4,300+ digits
        raise BGStatsError(_("This file is damaged or not JSON.")) from exc


def _named(items: list[Any], where: Callable[[int], str]) -> dict[int, str]:
    """Players or locations: name by id (every id once)."""
    named: dict[int, str] = {}
    for index, item in enumerate(items):
        reader = _Reader(item, where(index))
        ref = reader.whole("id")
        if ref in named:
            raise reader.fail(_("the id %(id)d is used twice.") % {"id": ref})
        named[ref] = reader.text("name", default="")
    return named


def bgstats_read(content: bytes | str) -> tuple[dict[int, tuple[str, int]], dict[int, str],
                                                  list[SourcePlay], int]:
    """The file's games (id → (name, BoardGameGeek id)), players (id → name), plays
    (without repeated uuids) and how many plays repeated an uuid; raises
    :class:`BGStatsError` for a file that is not a readable BG Stats export."""
    document = _parse(content)
    if not isinstance(document, dict) or not all(
        isinstance(document.get(key), list) for key in ("games", "players", "plays")
    ):
        raise BGStatsError(_("This file is not a BG Stats export: it has no lists of "
                             "“games”, “players” and “plays”."))
    root = _Reader(document, _("The file"))
    games: dict[int, tuple[str, int]] = {}
    for index, item in enumerate(root.items("games", limits.BGSTATS_GAMES)):
        reader = _Reader(item, _("Game %(n)d") % {"n": index + 1})
        ref = reader.whole("id")
        if ref in games:
            raise reader.fail(_("the id %(id)d is used twice.") % {"id": ref})
        name = reader.text("name", default="")
        games[ref] = (name or reader.text("bggName", default=""), reader.whole("bggId", default=0))
    players = _named(root.items("players", limits.BGSTATS_PLAYERS),
                     lambda i: _("Player %(n)d") % {"n": i + 1})
    locations = _named(root.items("locations", limits.BGSTATS_LOCATIONS, required=False),
                       lambda i: _("Location %(n)d") % {"n": i + 1})
    plays: list[SourcePlay] = []
    seen: set[str] = set()
    duplicates = root.whole(DUPLICATES, default=0)
    for index, item in enumerate(root.items("plays", limits.BGSTATS_PLAYS)):
        reader = _Reader(item, _where_play(index))
        play_id = reader.text("uuid", blank=False).strip()
        if len(play_id) > 64:
            raise reader.fail(_("“uuid” is longer than 64 characters."))
        game_ref = reader.whole("gameRefId")
        if game_ref not in games:
            raise reader.fail(_("its game %(id)d is not among the file's games.")
                              % {"id": game_ref})
        location_ref = reader.whole("locationRefId", default=0)
        scores = []
        refs: set[int] = set()
        for number, entry in enumerate(reader.items("playerScores", MAX_SCORES,
                                                    required=False)):
            score = _Reader(entry, _("%(play)s, player score %(n)d")
                            % {"play": _where_play(index), "n": number + 1})
            ref = score.whole("playerRefId")
            if ref not in players:
                raise score.fail(_("its player %(id)d is not among the file's players.")
                                 % {"id": ref})
            if ref in refs:
                raise score.fail(_("the player %(id)d is in this play twice.") % {"id": ref})
            refs.add(ref)
            scores.append(SourceScore(ref, score.score("score"), score.flag("winner"),
                                      score.flag("startPlayer"),
                                      score.whole("seatOrder", default=0)))
        played_at = reader.moment("playDate")
        ignored = reader.flag("ignored")
        if play_id in seen:
            duplicates += 1
            continue
        seen.add(play_id)
        # BG Stats' seat order where it has one (0 is "not set"), else the file's order.
        ordered = tuple(sorted(scores, key=lambda s: s.seat_order))
        plays.append(SourcePlay(play_id, game_ref, played_at, locations.get(location_ref, ""),
                                ignored, ordered,
                                min(reader.whole("durationMin", default=0), MAX_DURATION)))
    return games, players, plays, duplicates
