"""Planning a BG Stats import: what a file's plays are for one group.

The :class:`ImportPlan` of :func:`bgstats_plan` says which plays are of Kartenrunde's games
(recognised by their BoardGameGeek id where the file has it, else by name), which are
not, and which players would have to be mapped onto the roster; a confirm screen shows
it, the user picks or corrects the games and maps the players (:class:`ImportMapping`),
and ``companion.services.bgstats.bgstats_import`` stores the plays as matches with final
scores only. A play's ``uuid`` becomes the match's ``external_id``, so importing the
same file again adds nothing. Between the upload and the confirm the plan is kept as
compact bytes (:func:`plan_dump`, :func:`plan_load`), not read from the file again.

Each game's BoardGameGeek id and BG Stats names are in its folder (``GameApp.bgg_id``
and ``GameApp.bgstats_names``, ``companion/games/<game>/__init__.py``): 11 nimmt! is
63706, 3 sind eine zu viel! 181867, and 13 is Knizia's Poison (17025); X nimmt! and
Freaky are recognised by name only (their ids could not be checked here).
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import unicodedata
import zlib
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from django.core.exceptions import ValidationError

from companion.bgstats.export import match_uuid
from companion.bgstats.read import DUPLICATES, SourcePlay, SourceScore, bgstats_read
from companion.games import GAME_APPS
from companion.models import Group, Match, Player
from companion.parsing import MAX_POSITIVE, name_key, parse_whole_number
from scoring import GAMES, ScoringError


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
    """Which of Kartenrunde's games a BG Stats game is, and how that was found.

    >>> recognise(63706, "Elfer"), recognise(0, "x nimmt"), recognise(13, "Catan")
    (('elf-nimmt', 'bgg'), ('x-nimmt', 'name'), (None, ''))
    """
    if bgg_id in _BY_BGG:
        return _BY_BGG[bgg_id], "bgg"
    slug = _BY_NAME.get(name_match_key(name))
    return (slug, "name") if slug else (None, "")


@dataclass(frozen=True, slots=True)
class SourceGame:
    """A game of the file that has plays."""

    ref: int
    """Its ``id`` in the file."""
    name: str
    bgg_id: int
    plays: int
    suggested: str | None
    """The one of Kartenrunde's games it is, as far as the file tells."""
    found_by: Literal["bgg", "name", ""]


@dataclass(frozen=True, slots=True)
class SourcePlayer:
    """A player of the file with plays of Kartenrunde's games (as suggested)."""

    ref: int
    name: str
    plays: int
    suggested: int | None
    """The roster player of the same name (case and spacing aside), if any."""


Reason = Literal["ignored", "duplicate", "already", "game", "players", "score", "same_player"]
"""Why a play is not imported: marked "ignored" in BG Stats, its uuid given twice in the
file, imported before, not one of Kartenrunde's games (or not chosen), a number of players
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
    """Per BG Stats game id: one of Kartenrunde's games, or None to leave its plays out.
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
    """The file's games with plays: Kartenrunde's games first (in the registry's order),
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
        """Games of the file that are none of Kartenrunde's (their plays are left out)."""
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


def _taken(group: Group) -> frozenset[str]:
    """Play uuids the group has: imported ones, and those its own matches are exported as."""
    taken = set()
    for pk, external in Match.objects.filter(group=group).values_list("pk", "external_id"):
        taken.add(external if external else match_uuid(pk))
    return frozenset(taken)


def bgstats_plan(content: bytes | str, *, group: Group) -> ImportPlan:
    """Read a BG Stats export for ``group``: which plays are of Kartenrunde's games, which
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
