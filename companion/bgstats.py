"""The BG Stats format: a group's plays in and out.

BG Stats (an app that tracks board game plays) exports ``BGStatsExport.json``: an
object with ``games`` (``id``, ``name``, ``bggId``: the BoardGameGeek id, 0 if none),
``players`` (``id``, ``name``), ``locations`` (``id``, ``name``) and ``plays``
(``uuid``, ``gameRefId``, ``playDate`` as local time "YYYY-MM-DD hh:mm:ss",
``locationRefId``, ``ignored``, and ``playerScores``: ``playerRefId``, ``score`` as
text, ``winner``, ``startPlayer``, ``seatOrder``, ``rank``), plus fields we do not
read. Many tools read and write that shape.

In: :func:`bgstats_plan` reads such a file, checking it strictly and within fixed
limits (size, counts, types, references): anything wrong gives one
:class:`BGStatsError` with a message that says where, never a half-read file. The
:class:`ImportPlan` says which plays are of the five games (recognised by their
BoardGameGeek id where the file has it, else by name), which are not, and which
players would have to be mapped onto the roster; a confirm screen shows it, the user
picks or corrects the games and maps the players (:class:`ImportMapping`), and
``companion.services.bgstats.bgstats_import`` stores the plays as matches with final
scores only. A play's ``uuid`` becomes the match's ``external_id``, so importing the
same file again adds nothing.

Out: :func:`bgstats_export` writes a group's finished matches in the same shape (so
that tools built for BG Stats read ours, BG Stats itself included), and
:func:`matches_csv` every match and player score as CSV.

Each game's BoardGameGeek id and BG Stats names are in its folder (``GameApp.bgg_id``
and ``GameApp.bgstats_names``, ``companion/games/<game>/__init__.py``): 11 nimmt! is
63706, 3 sind eine zu viel! 181867, and 13 is Knizia's Poison (17025); X nimmt! and
Freaky are recognised by name only (their ids could not be checked here).
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import functools
import io
import json
import re
import unicodedata
import uuid
import zlib
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from companion import limits
from companion.evenings import EVENING_ENDS_AT
from companion.games import GAME_APPS
from companion.models import Group, Match, Player, Seat
from companion.parsing import MAX_POSITIVE, name_key, parse_whole_number
from companion.uploads import TransferError, scan_stream
from scoring import GAMES, ScoringError

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
"""A key of our own in :meth:`ImportPlan.document`: the plays the original file repeated."""

class BGStatsError(ValueError):
    """A file that is not a readable BG Stats export; nothing was imported."""


def name_match_key(name: str) -> str:
    """What two game names must share to be the same game: letters and digits, case-folded.

    >>> name_match_key("3 sind eine zu viel!") == name_match_key("3 Sind Eine Zu Viel")
    True
    >>> name_match_key(" X-Nimmt! ")
    'xnimmt'
    """
    text = unicodedata.normalize("NFKC", name).casefold()
    return "".join(char for char in text if char.isalnum())


_BY_NAME = {name_match_key(name): slug
            for slug, app in GAME_APPS.items() for name in app.bgstats_names}
_BY_BGG = {app.bgg_id: slug for slug, app in GAME_APPS.items() if app.bgg_id}


def recognise(bgg_id: int, name: str) -> tuple[str | None, Literal["bgg", "name", ""]]:
    """Which of the five games a BG Stats game is, and how that was found.

    >>> recognise(63706, "Elfer"), recognise(0, "x nimmt"), recognise(13, "Catan")
    (('elf-nimmt', 'bgg'), ('x-nimmt', 'name'), (None, ''))
    """
    if bgg_id in _BY_BGG:
        return _BY_BGG[bgg_id], "bgg"
    slug = _BY_NAME.get(name_match_key(name))
    return (slug, "name") if slug else (None, "")


# --- Reading --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SourceGame:
    """A game of the file that has plays."""

    ref: int
    """Its ``id`` in the file."""
    name: str
    bgg_id: int
    plays: int
    suggested: str | None
    """The one of the five games it is, as far as the file tells."""
    found_by: Literal["bgg", "name", ""]


@dataclass(frozen=True, slots=True)
class SourcePlayer:
    """A player of the file with plays of the five games (as suggested)."""

    ref: int
    name: str
    plays: int
    suggested: int | None
    """The roster player of the same name (case and spacing aside), if any."""


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


Reason = Literal["ignored", "duplicate", "already", "game", "players", "score", "same_player"]
"""Why a play is not imported: marked "ignored" in BG Stats, its uuid given twice in the
file, imported before, not one of the five games (or not chosen), a number of players
the game does not allow, a score missing or not a whole number, two of its players
mapped onto one roster player."""


@dataclass(frozen=True, slots=True)
class ReadyPlay:
    """A play checked against a game and a mapping, ready to be stored."""

    play: SourcePlay
    game: str
    players: tuple[int | None, ...]
    """Per seat (in BG Stats' seat order): the roster player's id, None for a new one."""
    player_refs: tuple[int, ...]
    totals: tuple[int, ...]
    first: int
    """The seat of the start player (0 when none is marked)."""
    winners_differ: bool
    """BG Stats marked other winners than the scores give (the scores count)."""


@dataclass(frozen=True, slots=True)
class ImportMapping:
    """The user's choices on the confirm screen."""

    games: Mapping[int, str | None]
    """Per BG Stats game id: one of the five games, or None to leave its plays out.
    Games not named keep their suggestion."""
    players: Mapping[int, int | None]
    """Per BG Stats player id: a roster player's id, or None for a new roster player of
    the BG Stats name. Players not named keep their suggestion."""


@dataclass(frozen=True, slots=True)
class Prepared:
    ready: tuple[ReadyPlay, ...]
    skipped: Counter[str]
    """Plays left out, per :data:`Reason`."""


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """What a file holds for the group (see :func:`bgstats_plan`)."""

    games: tuple[SourceGame, ...]
    """The file's games with plays: the five games' first (in the registry's order),
    then the others by name."""
    players: tuple[SourcePlayer, ...]
    """Players of the plays of the recognised games, by name."""
    plays: tuple[SourcePlay, ...]
    """Every play, in the file's order, without repeated uuids."""
    duplicates: int
    """Plays whose uuid came earlier in the file (left out)."""
    already: frozenset[str] = field(default=frozenset())
    """Uuids of plays the group already has (imported before, or exported from it)."""
    names: Mapping[int, str] = field(default_factory=dict)
    """Every player's name by BG Stats id."""
    suggestions: Mapping[int, int | None] = field(default_factory=dict)
    """Every player's roster player of the same name (or None), by BG Stats id."""

    def by_game(self, mapping: ImportMapping | None = None) -> dict[str, int]:
        """Plays that would be imported, per game (with ``mapping``; None: the suggestions)."""
        counts = Counter(ready.game for ready in self.prepare(mapping).ready)
        return {slug: counts[slug] for slug in GAMES if counts[slug]}

    @property
    def unknown_games(self) -> int:
        """Games of the file that are none of the five (their plays are left out)."""
        return sum(1 for game in self.games if game.suggested is None)

    @property
    def unknown_plays(self) -> int:
        return sum(game.plays for game in self.games if game.suggested is None)

    def prepare(self, mapping: ImportMapping | None = None) -> Prepared:
        """The plays to store with ``mapping`` (None: the suggestions), and the others
        counted by reason."""
        mapping = mapping or ImportMapping({}, {})
        games = {game.ref: mapping.games.get(game.ref, game.suggested) for game in self.games}
        suggested = self.suggestions
        skipped: Counter[str] = Counter({"duplicate": self.duplicates} if self.duplicates
                                        else {})
        ready = []
        for play in self.plays:
            slug = games.get(play.game_ref)
            reason = self._problem(play, slug)
            if reason is None and slug is not None:
                checked = _check_play(play, slug, lambda ref: mapping.players.get(
                    ref, suggested.get(ref)))
                if isinstance(checked, str):
                    reason = checked
                else:
                    ready.append(checked)
                    continue
            skipped[reason or "game"] += 1
        return Prepared(tuple(ready), skipped)

    def players_in(self, prepared: Prepared) -> tuple[SourcePlayer, ...]:
        """The players of ``prepared``'s plays, by name: those the confirm screen maps."""
        counts = Counter(ref for ready in prepared.ready for ref in ready.player_refs)
        return tuple(sorted(
            (SourcePlayer(ref, self.names[ref], n, self.suggestions.get(ref))
             for ref, n in counts.items()),
            key=lambda p: (p.name.casefold(), p.ref),
        ))

    def _problem(self, play: SourcePlay, slug: str | None) -> Reason | None:
        if play.uuid in self.already:
            return "already"
        if slug is None:
            return "game"
        if play.ignored:
            return "ignored"
        return None

    def document(self) -> dict[str, Any]:
        """The plan's plays as a small BG Stats document: :func:`bgstats_plan` reads it
        back to the same plan (for keeping a plan between the upload and the confirm)."""
        locations = sorted({play.location for play in self.plays if play.location})
        location_id = {name: index for index, name in enumerate(locations, 1)}
        return {
            DUPLICATES: self.duplicates,
            "games": [{"id": g.ref, "name": g.name, "bggId": g.bgg_id} for g in self.games],
            "players": [{"id": ref, "name": name} for ref, name in sorted(self.names.items())],
            "locations": [{"id": i, "name": name} for name, i in location_id.items()],
            "plays": [
                {
                    "uuid": play.uuid, "gameRefId": play.game_ref,
                    "playDate": play.played_at.strftime("%Y-%m-%d %H:%M:%S"),
                    "locationRefId": location_id.get(play.location, 0),
                    "ignored": play.ignored,
                    "durationMin": play.duration_min,
                    "playerScores": [
                        {"playerRefId": s.player_ref, "score": s.score, "winner": s.winner,
                         "startPlayer": s.start_player, "seatOrder": s.seat_order}
                        for s in play.scores
                    ],
                }
                for play in self.plays
            ],
        }


@functools.lru_cache(maxsize=4096)
def _whole(text: str) -> int | None:
    """A score's text as a whole number, None if it is none (the same few texts come back
    in every play: the confirm page reads ten thousand plays twice per view)."""
    try:
        return parse_whole_number(text, minimum=-MAX_POSITIVE, maximum=MAX_POSITIVE)
    except ValidationError:
        return None


def _check_play(play: SourcePlay, slug: str, roster_player: Callable[[int], int | None]
                ) -> ReadyPlay | Reason:
    info = GAMES[slug]
    try:
        info.check_players(len(play.scores))
    except ScoringError:
        return "players"
    totals = []
    for score in play.scores:
        total = _whole(score.score)
        if total is None:
            return "score"
        totals.append(total)
    players = tuple(roster_player(score.player_ref) for score in play.scores)
    known = [player for player in players if player is not None]
    if len(set(known)) != len(known):
        return "same_player"
    best = min(totals) if info.lower_is_better else max(totals)
    marked = tuple(score.winner for score in play.scores)
    first = next((seat for seat, score in enumerate(play.scores) if score.start_player), 0)
    return ReadyPlay(
        play, slug, players, tuple(score.player_ref for score in play.scores), tuple(totals),
        first, any(marked) and marked != tuple(total == best for total in totals),
    )


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


def _taken(group: Group) -> frozenset[str]:
    """Play uuids the group has: imported ones, and those its own matches are exported as."""
    taken = set()
    for pk, external in Match.objects.filter(group=group).values_list("pk", "external_id"):
        taken.add(external if external else match_uuid(pk))
    return frozenset(taken)


def bgstats_plan(content: bytes | str, *, group: Group) -> ImportPlan:
    """Read a BG Stats export for ``group``: which plays are of the five games, which
    players to map, which plays the group has already (two queries)."""
    games, names, plays, duplicates = bgstats_read(content)
    counts = Counter(play.game_ref for play in plays)
    found = {ref: recognise(bgg_id, name) for ref, (name, bgg_id) in games.items()}
    order = {slug: index for index, slug in enumerate(GAMES)}
    source_games = sorted(
        (SourceGame(ref, games[ref][0], games[ref][1], counts[ref], *found[ref])
         for ref in counts),
        key=lambda g: (g.suggested is None, order.get(g.suggested or "", 0),
                       g.name.casefold(), g.ref),
    )
    return bgstats_replan(
        ImportPlan(tuple(source_games), (), tuple(plays), duplicates, frozenset(), names, {}),
        group=group,
    )


def bgstats_replan(plan: ImportPlan, *, group: Group) -> ImportPlan:
    """``plan`` read against ``group`` as it is now: the roster players of the same names
    as the file's, and the plays the group has meanwhile (two queries; the file is not
    read again, so a kept plan serves the confirm page in a moment)."""
    roster = {name_key(name): pk for pk, name in
              Player.objects.filter(group=group).values_list("pk", "name")}
    recognised = {game.ref for game in plan.games if game.suggested}
    played: Counter[int] = Counter(
        score.player_ref for play in plan.plays if play.game_ref in recognised
        for score in play.scores
    )
    suggestions = {ref: roster.get(name_key(name)) for ref, name in plan.names.items()}
    players = sorted(
        (SourcePlayer(ref, plan.names[ref], n, suggestions[ref]) for ref, n in played.items()),
        key=lambda p: (p.name.casefold(), p.ref),
    )
    return ImportPlan(plan.games, tuple(players), plan.plays, plan.duplicates,
                      _taken(group), plan.names, suggestions)


def plan_dump(plan: ImportPlan) -> bytes:
    """``plan`` as compact bytes to keep between the upload and the confirm (a few
    hundred KB for the largest file the limits allow): what the file holds, without
    what :func:`bgstats_replan` reads from the group again."""
    kept = (
        [(g.ref, g.name, g.bgg_id, g.plays, g.suggested, g.found_by) for g in plan.games],
        [(p.uuid, p.game_ref, p.played_at.isoformat(), p.location, p.ignored,
          [(s.player_ref, s.score, s.winner, s.start_player, s.seat_order) for s in p.scores])
         for p in plan.plays],
        plan.duplicates, sorted(plan.names.items()),
    )
    return zlib.compress(json.dumps(kept, separators=(",", ":")).encode(), 6)


def plan_load(data: bytes, *, group: Group) -> ImportPlan:
    """The plan :func:`plan_dump` kept, read against ``group`` as it is now; raises
    ValueError, TypeError or KeyError for data that is not such a plan."""
    games, plays, duplicates, names = json.loads(zlib.decompress(data))
    plan = ImportPlan(
        tuple(SourceGame(*game) for game in games), (),
        tuple(SourcePlay(uuid, game, dt.datetime.fromisoformat(at), location, ignored,
                         tuple(SourceScore(*score) for score in scores))
              for uuid, game, at, location, ignored, scores in plays),
        duplicates, frozenset(), {int(ref): name for ref, name in names}, {},
    )
    return bgstats_replan(plan, group=group)


# --- Writing --------------------------------------------------------------------------------

MAX_DURATION = 24 * 60
"""The longest play kept, in minutes (a longer ``durationMin`` is read as a day)."""

NAMESPACE = uuid.UUID("6f1c1a52-3b7e-5f0e-9a43-5e4b2d6c8a10")
"""Kartenrunde's namespace for the uuids of exported games, players, places and plays."""


def match_uuid(pk: int) -> str:
    """The uuid a match of ours is exported under (the same in every export)."""
    return str(uuid.uuid5(NAMESPACE, f"match:{pk}"))


def _stamp(value: dt.datetime) -> str:
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M:%S")


def _play_date(night: dt.date, created: dt.datetime) -> str:
    """When a match was played, as BG Stats writes it: its night's date at the time of day
    it started, the next day for a start after midnight (a match recorded later, on an
    older night, keeps its night).

    >>> start = dt.datetime(2026, 3, 6, 0, 40, tzinfo=dt.UTC)
    >>> _play_date(dt.date(2026, 3, 5), start)
    '2026-03-06 01:40:00'
    """
    start = timezone.localtime(created)
    day = night + dt.timedelta(days=int(start.hour < EVENING_ENDS_AT))
    return f"{day.isoformat()} {start.strftime('%H:%M:%S')}"


def _duration(created: dt.datetime, finished: dt.datetime | None) -> int:
    """A play's ``durationMin``: from the start to the finish, whole minutes (an imported
    play was stored with the duration its file gave, ``companion.services.bgstats``).

    >>> start = dt.datetime(2026, 3, 5, 20, 0, tzinfo=dt.UTC)
    >>> _duration(start, start + dt.timedelta(minutes=35, seconds=59)), _duration(start, None)
    (35, 0)
    """
    return max(0, int(((finished or created) - created).total_seconds() // 60))


def _bgg(slug: str, title: str) -> dict[str, Any]:
    """A game's BoardGameGeek fields as BG Stats writes them: its id, name and year; a game
    without an id as BG Stats writes a custom game (id 0, year 0, its own name as
    ``bggName``), as BG Stats' own export does (tests/companion/data/BGStatsExport.json).

    >>> _bgg("elf-nimmt", "11 nimmt!")["bggName"], _bgg("dreizehn", "13")["bggName"]
    ('11 nimmt!', 'Poison')
    >>> {key: value for key, value in _bgg("x-nimmt", "X nimmt!").items() if key[:3] == "bgg"}
    {'bggId': 0, 'bggName': 'X nimmt!', 'bggYear': 0}
    """
    app = GAME_APPS[slug]
    if app.bgg_id:
        return {"bggId": app.bgg_id, "bggName": app.bgg_name or title, "isBaseGame": 1,
                "isExpansion": 0}
    return {"bggId": 0, "bggName": title, "bggYear": 0, "isBaseGame": 1, "isExpansion": 0}


def bgstats_export(group: Group) -> dict[str, Any]:
    """The group's finished matches as a BG Stats export (three queries): the games
    played, the roster, the nights' places as locations, a play per match. An imported
    play keeps its BG Stats uuid, so BG Stats recognises it."""
    roster = list(Player.objects.filter(group=group).order_by("pk")
                  .values_list("pk", "name", "created_at"))
    player_ref = {pk: index for index, (pk, _name, _created) in enumerate(roster, 1)}
    matches = list(
        Match.objects.filter(group=group, status=Match.Status.FINISHED)
        .order_by("game_night__date", "created_at", "pk")
        .values_list("pk", "game", "created_at", "finished_at", "first_dealer",
                     "external_id", "game_night__date", "game_night__place")
    )
    seats: dict[int, list[tuple[int, int, int, int | None, bool]]] = {}
    for match_id, player_id, number, total, place, winner in (
        Seat.objects.filter(match__group=group, match__status=Match.Status.FINISHED)
        .order_by("match_id", "number")
        .values_list("match_id", "player_id", "number", "total", "place", "is_winner")
    ):
        seats.setdefault(match_id, []).append((player_id, number, total, place, winner))
    game_ref = {slug: index for index, slug in enumerate(GAMES, 1)}
    played_games = {game for _pk, game, *_rest in matches}
    places = sorted({place for *_rest, place in matches if place})
    place_ref = {name: index for index, name in enumerate(places, 1)}
    plays = []
    for pk, game, created, finished, first, external, date, place in matches:
        plays.append({
            "uuid": external or match_uuid(pk),
            "gameRefId": game_ref[game],
            "playDate": _play_date(date, created),
            "entryDate": _stamp(created),
            "modificationDate": _stamp(finished or created),
            "durationMin": _duration(created, finished),
            "locationRefId": place_ref.get(place, 0),
            "ignored": False,
            "manualWinner": False,
            "usesTeams": False,
            "rounds": 0,
            "playerScores": [
                {"playerRefId": player_ref[player], "score": str(total), "winner": winner,
                 "startPlayer": number == first, "seatOrder": number + 1,
                 "rank": place or 0, "newPlayer": False, "role": ""}
                for player, number, total, place, winner in seats.get(pk, [])
            ],
        })
    return {
        "about": "Exported from Kartenrunde in the BG Stats format "
                 "(https://www.bgstatsapp.com/).",
        "userInfo": {"exportDate": _stamp(timezone.now())},
        "games": [
            {"id": game_ref[slug], "uuid": str(uuid.uuid5(NAMESPACE, f"game:{slug}")),
             "name": info.title, **_bgg(slug, info.title),
             "highestWins": not info.lower_is_better, "cooperative": False,
             "noPoints": False, "usesTeams": False, "minPlayerCount": info.min_players,
             "maxPlayerCount": info.max_players}
            for slug, info in GAMES.items() if slug in played_games
        ],
        "players": [
            {"id": player_ref[pk], "uuid": str(uuid.uuid5(NAMESPACE, f"player:{pk}")),
             "name": name, "isAnonymous": False, "modificationDate": _stamp(created)}
            for pk, name, created in roster
        ],
        "locations": [
            {"id": index, "uuid": str(uuid.uuid5(NAMESPACE, f"location:{group.pk}:{name}")),
             "name": name}
            for name, index in place_ref.items()
        ],
        "plays": plays,
    }


def bgstats_export_json(group: Group) -> str:
    """:func:`bgstats_export` as JSON text (UTF-8)."""
    return json.dumps(bgstats_export(group), ensure_ascii=False, indent=1) + "\n"


MATCHES_CSV_HEADERS = (
    "date", "place", "match", "game", "status", "source", "player", "seat", "score",
    "rank", "winner", "start_player",
)

_FORMULA = re.compile(r"^[=+\-@\t\r]")


def _cell(text: str) -> str:
    """A text cell that a spreadsheet will not run as a formula."""
    return "'" + text if _FORMULA.match(text) else text


def matches_csv(group: Group) -> str:
    """Every match of the group (running and abandoned ones too, with their status) and
    every player's score in it: one row per match and player, oldest first (one query)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(MATCHES_CSV_HEADERS)
    numbers: dict[int, int] = {}
    for (date, place, match_id, game, status, source, name, number, total, rank, winner,
         first) in (
        Seat.objects.filter(match__group=group)
        .order_by("match__game_night__date", "match__created_at", "match_id", "number")
        .values_list("match__game_night__date", "match__game_night__place", "match_id",
                     "match__game", "match__status", "match__source", "player__name",
                     "number", "total", "place", "is_winner", "match__first_dealer")
    ):
        numbers.setdefault(match_id, len(numbers) + 1)
        writer.writerow([date.isoformat(), _cell(place), numbers[match_id], game, status,
                         source, _cell(name), number + 1, total, rank or "", int(winner),
                         int(number == first)])
    return out.getvalue()


__all__ = [
    "MAX_BYTES",
    "BGStatsError",
    "ImportMapping",
    "ImportPlan",
    "Prepared",
    "ReadyPlay",
    "SourceGame",
    "SourcePlay",
    "SourcePlayer",
    "bgstats_export",
    "bgstats_export_json",
    "bgstats_plan",
    "bgstats_read",
    "bgstats_replan",
    "match_uuid",
    "matches_csv",
    "name_match_key",
    "plan_dump",
    "plan_load",
    "recognise",
]
