"""Reads of the history area: game nights, statistics and the data behind the charts.

Every function here runs a fixed number of SQL queries however many matches a
group has played. The statistics pages (player, head-to-head, game) read records
kept per finished match (``companion.services.results``: written when a match is
finished, reopened or deleted), so their work does not grow with the history
either: a few rows per player, per two players, per game.

Only finished matches count for statistics; the history lists running ones too.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal, TypedDict

from django.core.paginator import Page, Paginator
from django.db import router
from django.db.models import Exists, F, OuterRef, QuerySet
from django.utils import formats
from django.utils.formats import number_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from companion.models import (
    GameCount,
    GameNight,
    GameRecord,
    Group,
    Match,
    PairRecord,
    Player,
    PlayerRecord,
    Seat,
    SeatResult,
)
from companion.selectors.prepared import Prepared
from scoring import GAMES, GameInfo

NIGHTS_PER_PAGE = 10
RECENT_FORM = 10
MIN_MATCHES_DEFAULT = 3
MONTHS_SHOWN = 24

FINISHED = Match.Status.FINISHED


# --- History: game nights -------------------------------------------------------------------


class SeatRow(TypedDict):
    """A seat of a match in the history list (plain dicts: quick to build and to render)."""

    name: str
    total: int
    place: int | None
    is_winner: bool


class MatchRow(TypedDict):
    pk: int
    game: str
    title: str
    running: bool
    abandoned: bool
    """Stopped before its end: shown as such, counted in no statistics."""
    winners: str
    """The winners' names, comma-separated (empty while running)."""
    seats: list[SeatRow]
    """Best first: place, then seat order."""
    seat_items: SafeString
    """``seats`` as the ``<li>`` items of the history's score list (built in Python: the
    template loop over every seat of every match was most of the list's render time)."""


class NightRow(TypedDict):
    pk: int
    date: dt.date
    place: str
    matches: list[MatchRow]
    """In the order they were started."""


def _history_matches(
    group: Group | None, *, game: str | None, player: Player | None
) -> QuerySet[Match]:
    """Matches of the history filtered by game and player (``group`` None: of any group,
    for lookups by game night, whose matches are always of the night's group)."""
    matches = Match.objects.all() if group is None else Match.objects.filter(group=group)
    if game:
        matches = matches.filter(game=game)
    if player is not None:
        matches = matches.filter(Exists(Seat.objects.filter(match=OuterRef("pk"), player=player)))
    return matches


class NightList:
    """A group's game nights, newest first, lazily: ``len()`` counts them, a slice fetches
    those nights with their matches and seats as :class:`NightRow` (three queries).

    Works with Django's ``Paginator`` and with plain slicing (``history[:5]``).
    """

    def __init__(self, nights: QuerySet[GameNight], matches: QuerySet[Match]) -> None:
        self._nights = nights
        self._matches = matches

    def count(self) -> int:
        return self._nights.count()

    def __len__(self) -> int:
        return self.count()

    def __iter__(self) -> Iterator[NightRow]:
        return iter(self[:])

    def __getitem__(self, index: slice) -> list[NightRow]:
        if not isinstance(index, slice):
            raise TypeError("NightList supports slices only")
        rows: list[NightRow] = [
            {"pk": pk, "date": date, "place": place, "matches": []}
            for pk, date, place in self._nights.values_list("pk", "date", "place")[index]
        ]
        if not rows:
            return rows
        by_night = {row["pk"]: row for row in rows}
        matches: dict[int, MatchRow] = {}
        for pk, night, game, status in (
            self._matches.filter(game_night__in=by_night)
            .order_by("created_at", "id")
            .values_list("pk", "game_night_id", "game", "status")
        ):
            match: MatchRow = {
                "pk": pk, "game": game, "title": GAMES[game].title,
                "running": status == Match.Status.OPEN,
                "abandoned": status == Match.Status.ABANDONED, "winners": "", "seats": [],
                "seat_items": SafeString(),
            }
            matches[pk] = match
            by_night[night]["matches"].append(match)
        winners: dict[int, list[str]] = defaultdict(list)
        for match_id, name, total, place, is_winner in (
            Seat.objects.filter(match__in=matches)
            .order_by("match_id", F("place").asc(nulls_last=True), "number")
            .values_list("match_id", "player__name", "total", "place", "is_winner")
        ):
            matches[match_id]["seats"].append(
                {"name": name, "total": total, "place": place, "is_winner": is_winner}
            )
            if is_winner:
                winners[match_id].append(name)
        for match_id, names in winners.items():
            matches[match_id]["winners"] = ", ".join(names)
        for match in matches.values():
            match["seat_items"] = _seat_items(match["seats"])
        return rows


def _seat_items(seats: list[SeatRow]) -> SafeString:
    """The list items of a match's final scores, e.g. for a winner:
    ``<li class="list-inline-item me-2 fw-semibold"><span class="text-body-secondary">1.</span>
    Ben <span class="font-monospace">7</span></li>`` (names escaped, numbers unformatted)."""
    items = []
    for seat in seats:
        place = seat["place"]
        items.append(
            '<li class="list-inline-item me-2'
            + (' fw-semibold">' if seat["is_winner"] else '">')
            + (f'<span class="text-body-secondary">{place:d}.</span> ' if place else "")
            + f'{escape(seat["name"])} <span class="font-monospace">{seat["total"]:d}</span></li>'
        )
    return mark_safe("\n".join(items))  # the names are escaped above


def group_history(
    group: Group,
    *,
    game: str | None = None,
    player: Player | None = None,
    since: dt.date | None = None,
    until: dt.date | None = None,
) -> NightList:
    """The group's game nights, newest first, for the history list.

    Each night (a :class:`NightRow`) holds its matches (filtered by ``game``
    and ``player``) with their seats, winners and final scores. With a game or
    player filter, nights without such a match are left out. ``since``/``until``
    bound the night's date (both inclusive). Fetching a slice of it costs three
    queries (nights, matches, seats), whatever its size.
    """
    matches = _history_matches(group, game=game, player=player)
    # A night's matches are of the night's group (match_start refuses any other night), so
    # the matches of a page of nights are looked up by night alone: the database then reads
    # those nights' matches instead of all the group's.
    by_night = _history_matches(None, game=game, player=player)
    nights = GameNight.objects.filter(group=group)
    if since is not None:
        nights = nights.filter(date__gte=since)
    if until is not None:
        nights = nights.filter(date__lte=until)
    if game or player is not None:
        nights = nights.filter(Exists(matches.filter(game_night=OuterRef("pk"))))
    return NightList(nights.order_by("-date", "-id"), by_night)


def history_page(
    group: Group,
    *,
    page: int | str | None = 1,
    per_page: int = NIGHTS_PER_PAGE,
    game: str | None = None,
    player: Player | None = None,
    since: dt.date | None = None,
    until: dt.date | None = None,
) -> Page[NightRow]:
    """One page of :func:`group_history` (an invalid page number gives the nearest page)."""
    nights = group_history(group, game=game, player=player, since=since, until=until)
    return Paginator(nights, per_page).get_page(page)  # type: ignore[arg-type]


# --- Player page ----------------------------------------------------------------------------


def _rate(wins: int, matches: int) -> float | None:
    return wins / matches if matches else None


def _percent(wins: int, matches: int) -> int | None:
    """A win rate as a whole percentage (half up), None without matches.

    >>> _percent(1, 3), _percent(2, 3), _percent(1, 8), _percent(0, 0)
    (33, 67, 13, None)
    """
    return (200 * wins + matches) // (2 * matches) if matches else None


class WinRate:
    """``win_rate`` and ``win_percent`` for a line that has ``wins`` and ``matches``."""

    __slots__ = ()
    wins: int
    matches: int

    @property
    def win_rate(self) -> float | None:
        return _rate(self.wins, self.matches)

    @property
    def win_percent(self) -> int | None:
        return _percent(self.wins, self.matches)


@dataclass(frozen=True, slots=True)
class PlayerGameLine(WinRate):
    """A player's record in one game."""

    game: GameInfo
    matches: int
    wins: int
    average: float
    best: int
    worst: int


@lru_cache(maxsize=4096)
def _date_format(value: dt.date, format_name: str, language: str | None) -> str:
    return formats.date_format(value, format_name)


def local_date(value: dt.date, format_name: str) -> str:
    """``value|date:format_name`` as the template filter gives it in the active language,
    worked out once per date and language (the player page shows dozens)."""
    return _date_format(value, format_name, get_language())


@dataclass(frozen=True, slots=True)
class Result:
    """One finished match from one player's point of view."""

    match_id: int
    game: GameInfo
    date: dt.date
    place: int | None
    players: int
    total: int
    is_winner: bool

    @property
    def short_date(self) -> str:
        return local_date(self.date, "SHORT_DATE_FORMAT")


@dataclass(frozen=True, slots=True)
class MonthLine(WinRate):
    """How a player did in one calendar month."""

    month: dt.date
    matches: int
    wins: int

    @property
    def label(self) -> str:
        """The month as the active language writes it, e.g. "März 2026"."""
        return local_date(self.month, "YEAR_MONTH_FORMAT")

    @property
    def axis_label(self) -> str:
        """The month under the chart, e.g. "03/26"."""
        return local_date(self.month, "m/y")


@dataclass(frozen=True, slots=True)
class PlayerStats(WinRate):
    player: Player
    games: tuple[PlayerGameLine, ...]
    recent: tuple[Result, ...]
    """The last results, newest first."""
    longest_streak: int
    """Most finished matches won in a row (all games, in the order played)."""
    current_streak: int
    """Matches won in a row up to the latest one."""
    months: tuple[MonthLine, ...]
    """The last months with matches, oldest first."""

    @property
    def matches(self) -> int:
        return sum(line.matches for line in self.games)

    @property
    def wins(self) -> int:
        return sum(line.wins for line in self.games)


def streaks(wins: Iterable[bool]) -> tuple[int, int]:
    """(longest, current) run of wins in a sequence of results, oldest first.

    >>> streaks([True, True, False, True, True, True, False, True])
    (3, 1)
    >>> streaks([])
    (0, 0)
    """
    longest = current = 0
    for won in wins:
        current = current + 1 if won else 0
        longest = max(longest, current)
    return longest, current


_PLAYER_RECORD = Prepared(PlayerRecord, lambda player_id: (
    PlayerRecord.objects.filter(player_id=player_id).values_list("data")[:1]
))
_RECENT = Prepared(SeatResult, lambda player_id: (
    SeatResult.objects.filter(player_id=player_id)
    .order_by("-date", "-started_at", "-match_id")
    .values_list("match_id", "game", "date", "place", "players", "total", "is_winner")
    [:RECENT_FORM]
))


def player_stats(player: Player) -> PlayerStats:
    """Everything the player page shows, in two queries however long the history.

    The per-game lines, the streaks and the months come from the player's
    :class:`~companion.models.PlayerRecord` (kept up to date whenever a match of
    theirs is finished, reopened or deleted); the recent form reads the last ten
    results.
    """
    record = _PLAYER_RECORD(player.pk)
    data = record[0][0] if record else None
    if not data or not data["games"]:
        return PlayerStats(player, (), (), 0, 0, ())
    games = tuple(
        PlayerGameLine(GAMES[slug], matches, wins, points / matches, best, worst)
        for slug, matches, wins, points, best, worst in data["games"]
    )
    months = tuple(
        MonthLine(dt.date(int(month[:4]), int(month[5:7]), 1), matches, wins)
        for month, matches, wins in data["months"][-MONTHS_SHOWN:]
    )
    recent = tuple(
        Result(match_id=match_id, game=GAMES[game], date=date, place=place,
               players=players, total=total, is_winner=is_winner)
        for match_id, game, date, place, players, total, is_winner in _RECENT(player.pk)
    )
    return PlayerStats(player, games, recent, data["longest"], data["current"], months)


# --- Head-to-head ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HeadToHeadLine:
    """Two players' finished matches together in one game (``game`` None: all games)."""

    game: GameInfo | None
    matches: int
    first_ahead: int
    second_ahead: int

    @property
    def level(self) -> int:
        """Matches where both finished on the same place."""
        return self.matches - self.first_ahead - self.second_ahead


@dataclass(frozen=True, slots=True)
class HeadToHead:
    first: Player
    second: Player
    games: tuple[HeadToHeadLine, ...]
    overall: HeadToHeadLine


_PAIR = Prepared(PairRecord, lambda first_id, second_id: (
    PairRecord.objects.filter(first_id=first_id, second_id=second_id)
    .values_list("game", "matches", "first_ahead", "second_ahead")
))


def head_to_head(first: Player, second: Player) -> HeadToHead:
    """How often each of two players finished ahead of the other, per game (one query,
    from their :class:`~companion.models.PairRecord` rows)."""
    swapped = first.pk > second.pk
    low, high = (second, first) if swapped else (first, second)
    rows = {
        game: (matches, high_ahead, low_ahead) if swapped else (matches, low_ahead, high_ahead)
        for game, matches, low_ahead, high_ahead in _PAIR(low.pk, high.pk)
    }
    lines = tuple(HeadToHeadLine(info, *rows[slug]) for slug, info in GAMES.items() if slug in rows)
    overall = HeadToHeadLine(
        None,
        sum(line.matches for line in lines),
        sum(line.first_ahead for line in lines),
        sum(line.second_ahead for line in lines),
    )
    return HeadToHead(first, second, lines, overall)


# --- Game page ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LeaderLine(WinRate):
    """A player's line on a game's leaderboard; ``place`` is None below the minimum."""

    place: int | None
    player_id: int
    name: str
    matches: int
    wins: int
    average: float


def leaderboard_places(lines: Sequence[tuple[int, int]]) -> list[int]:
    """Places for ``(wins, matches)`` lines sorted by win rate, best first; ties share.

    >>> leaderboard_places([(3, 4), (6, 8), (1, 2), (1, 2), (0, 5)])
    [1, 1, 3, 3, 5]
    """
    places: list[int] = []
    for index, (wins, matches) in enumerate(lines):
        if index and Fraction(wins, matches) == Fraction(*lines[index - 1]):
            places.append(places[-1])
        else:
            places.append(index + 1)
    return places


@dataclass(frozen=True, slots=True)
class Record:
    """A notable score: who, how much, in which match (and deal)."""

    name: str
    value: int
    match_id: int
    date: dt.date
    deal: int | None = None


Unit = Literal["number", "percent", "count"]


@dataclass(frozen=True, slots=True)
class Figure:
    """One per-deal statistic, for the whole group and per player."""

    label: str
    value: float | None
    unit: Unit
    by_player: tuple[tuple[str, float | None], ...] = ()

    def format(self, value: float | None) -> str:
        """A value of this figure as the page shows it, in the active language's format."""
        if value is None:
            return "–"
        if self.unit == "percent":
            return f"{round(value * 100):d} %"
        if self.unit == "count":
            return str(round(value))
        return number_format(round(value, 1), 1)

    @property
    def display(self) -> str:
        return self.format(self.value)

    @property
    def players_display(self) -> list[tuple[str, str]]:
        return [(name, self.format(value)) for name, value in self.by_player]


@dataclass(frozen=True, slots=True)
class GameStats:
    game: GameInfo
    matches: int
    deals: int
    min_matches: int
    leaderboard: tuple[LeaderLine, ...]
    """Players with at least ``min_matches`` finished matches, best win rate first."""
    below_minimum: tuple[LeaderLine, ...]
    best_total: Record | None
    worst_deal: Record | None
    figures: tuple[Figure, ...]
    win_shares: tuple[tuple[str, int], ...] = field(default=())
    """(player name, wins) for every player with a win, most first."""

    @property
    def wins(self) -> int:
        return sum(wins for _name, wins in self.win_shares)


@dataclass(frozen=True, slots=True)
class Tallies:
    """What the per-deal statistics of one game read: per player with recorded entries,
    their per-deal figures (:data:`TALLIES`) summed over the game's finished matches,
    with ``"entries"``, the number of their entries."""

    by_player: Mapping[int, Mapping[str, int]]
    deals: int
    matches: int
    names: Mapping[int, str]

    def total(self, measure: str) -> int:
        return sum(tally.get(measure, 0) for tally in self.by_player.values())

    def per_player(
        self, measure: str, *, per_entry: bool = True
    ) -> tuple[tuple[str, float | None], ...]:
        """Per player, ``measure`` (divided by their entries if ``per_entry``), by name."""
        lines = [
            (self.names[pid], tally.get(measure, 0) / (tally["entries"] if per_entry else 1))
            for pid, tally in self.by_player.items()
        ]
        return tuple(sorted(lines, key=lambda line: (line[0].casefold(), line[0])))


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _x_nimmt_tally(entry: Any) -> dict[str, int]:
    counted = entry.hornochsen()
    return {
        "bulls": int(counted.hand + counted.x_stack),
        "stack_points": 2 * int(counted.x_stack),
        "minus_points": int(counted.minus_points),
    }


def _x_nimmt_figures(data: Tallies) -> tuple[Figure, ...]:
    shares = tuple(
        (data.names[pid], _ratio(tally.get("stack_points", 0), tally.get("minus_points", 0)))
        for pid, tally in sorted(data.by_player.items(),
                                 key=lambda item: (data.names[item[0]].casefold(), item[0]))
    )
    return (
        Figure(
            str(_("Hornochsen per player and deal")),
            _ratio(data.total("bulls"), data.total("entries")),
            "number",
            data.per_player("bulls"),
        ),
        Figure(
            str(_("Share of the minus points from the X-stack")),
            _ratio(data.total("stack_points"), data.total("minus_points")),
            "percent",
            shares,
        ),
    )


def _elf_nimmt_tally(entry: Any) -> dict[str, int]:
    return {"bulls": int(entry.hornochsen())}


def _elf_nimmt_figures(data: Tallies) -> tuple[Figure, ...]:
    return (
        Figure(
            str(_("Hornochsen per player and deal")),
            _ratio(data.total("bulls"), data.total("entries")),
            "number",
            data.per_player("bulls"),
        ),
    )


BONUS_CARDS = (10, 7, 5, 3)
"""The interim scoring cards of 3 sind einer zuviel!, in the order they go out."""


def _drei_tally(entry: Any) -> dict[str, int]:
    return {f"bonus_{card}": 1 for card in BONUS_CARDS if entry.interim_bonus == card}


def _drei_figures(data: Tallies) -> tuple[Figure, ...]:
    # The cards go out in the order 10, 7, 5, 3, so a match with any bonus won has its 10.
    figures = [
        Figure(
            str(_("Matches in which an interim scoring card (Zwischenwertung) was won")),
            _ratio(data.total("bonus_10"), data.matches),
            "percent",
        ),
    ]
    # A bonus card is won at most once per match, so counting entries counts matches.
    for card in BONUS_CARDS:
        figures.append(
            Figure(
                str(_("Interim scoring card (Zwischenwertung) %(card)d won")) % {"card": card},
                data.total(f"bonus_{card}"),
                "count",
                tuple(line for line in data.per_player(f"bonus_{card}", per_entry=False)
                      if line[1]),
            )
        )
    return tuple(figures)


def _freaky_tally(entry: Any) -> dict[str, int]:
    return {"collected": int(entry.collected)}


def _freaky_figures(data: Tallies) -> tuple[Figure, ...]:
    return (
        Figure(
            str(_("Cards collected per player and match")),
            _ratio(data.total("collected"), data.total("entries")),
            "number",
            data.per_player("collected"),
        ),
    )


def _dreizehn_tally(entry: Any) -> dict[str, int]:
    return {"red": int(entry.red)}


def _dreizehn_figures(data: Tallies) -> tuple[Figure, ...]:
    return (
        Figure(
            str(_("Red 4s taken per deal (all players)")),
            _ratio(data.total("red"), data.deals),
            "number",
        ),
        Figure(
            str(_("Red 4s per player and deal")),
            _ratio(data.total("red"), data.total("entries")),
            "number",
            data.per_player("red"),
        ),
    )


TALLIES: Mapping[str, Callable[[Any], dict[str, int]]] = {
    "x-nimmt": _x_nimmt_tally,
    "elf-nimmt": _elf_nimmt_tally,
    "drei-sind-einer-zuviel": _drei_tally,
    "freaky": _freaky_tally,
    "dreizehn": _dreizehn_tally,
}
"""Per game, the figures of one recorded entry (the engine's Entry) that the per-deal
statistics sum up (zeros may be left out). Summed per seat of a finished match when it
is finished (``SeatResult.tally``), then per player and game (``GameRecord``)."""

DEAL_FIGURES: Mapping[str, Callable[[Tallies], tuple[Figure, ...]]] = {
    "x-nimmt": _x_nimmt_figures,
    "elf-nimmt": _elf_nimmt_figures,
    "drei-sind-einer-zuviel": _drei_figures,
    "freaky": _freaky_figures,
    "dreizehn": _dreizehn_figures,
}
"""The statistics only per-deal data allows, per game."""


_GAME_RECORD = Prepared(GameRecord, lambda group_id, game: (
    GameRecord.objects.filter(group_id=group_id, game=game)
    .values_list("matches", "deals", "data")[:1]
))
_WORST = {
    lower_is_better: Prepared(SeatResult, lambda group_id, game, lower=lower_is_better: (
        SeatResult.objects.filter(group_id=group_id, game=game, worst_score__isnull=False)
        .order_by(f"{'-' if lower else ''}worst_score", "date", "started_at", "match_id",
                  "worst_deal", "player__name")
        .values_list("player__name", "worst_score", "match_id", "date", "worst_deal")[:1]
    ))
    for lower_is_better in (False, True)
}
"""The worst deal score of a game: the highest where fewer points win, else the lowest."""


def game_stats(
    group: Group, game: str, *, min_matches: int = MIN_MATCHES_DEFAULT,
    players: Sequence[Player] | None = None,
) -> GameStats:
    """Everything the game page shows, in two queries however long the history (three
    without ``players``: the roster).

    The game's :class:`~companion.models.GameRecord` holds the leaderboard's sums, the
    per-deal figures' sums and the best final score (kept up to date whenever a match
    is finished, reopened or deleted); the worst deal score is one indexed lookup in the
    finished matches' results.
    """
    info = GAMES[game]
    roster = players if players is not None else group_players(group)
    names = {player.pk: player.name for player in roster}
    record = _GAME_RECORD(group.pk, game)
    matches, deals, data = record[0] if record else (0, 0, {"lines": [], "tallies": {}})
    lines = sorted(
        ((pid, played, wins, points / played) for pid, played, wins, points in data["lines"]),
        key=lambda line: (
            -Fraction(line[2], line[1]), -line[1], names[line[0]].casefold(), line[0]
        ),
    )
    qualified = [line for line in lines if line[1] >= min_matches]
    places = leaderboard_places([(wins, played) for _pid, played, wins, _avg in qualified])
    leaderboard = tuple(
        LeaderLine(place, pid, names[pid], played, wins, average)
        for place, (pid, played, wins, average) in zip(places, qualified, strict=True)
    )
    below = tuple(
        LeaderLine(None, pid, names[pid], played, wins, average)
        for pid, played, wins, average in lines
        if played < min_matches
    )
    best = worst = None
    if matches:
        # The worst deal is looked up here, not kept: a tie inside a deal goes to the
        # first name, which a renaming can change.
        found = _WORST[info.lower_is_better](group.pk, game)
        worst = found[0] if found else None
    if data.get("best"):
        pid, total, match_id, date = data["best"]
        best = (names[pid], total, match_id, dt.date.fromisoformat(date))
    tallies = Tallies({int(pid): tally for pid, tally in data["tallies"].items()},
                      deals, matches, names)
    shares = sorted(
        ((names[pid], wins) for pid, _played, wins, _avg in lines if wins),
        key=lambda share: (-share[1], share[0].casefold()),
    )
    return GameStats(
        game=info,
        matches=matches,
        deals=deals,
        min_matches=min_matches,
        leaderboard=leaderboard,
        below_minimum=below,
        best_total=Record(*best) if best else None,
        worst_deal=Record(*worst) if worst else None,
        figures=DEAL_FIGURES[game](tallies) if tallies.by_player else (),
        win_shares=tuple(shares),
    )


_GAME_COUNTS = Prepared(GameCount, lambda group_id: (
    GameCount.objects.filter(group_id=group_id).values_list("game", "matches")
))


def games_played(group: Group) -> list[tuple[GameInfo, int]]:
    """The five games with the group's number of matches of each, running and abandoned
    ones included (one query of five rows at most: the counts are kept in
    :class:`~companion.models.GameCount`, not counted from the matches)."""
    counts = dict(_GAME_COUNTS(group.pk))
    return [(info, counts.get(slug, 0)) for slug, info in GAMES.items()]


# --- Score progression of one match ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Progression:
    """Running totals of a match after each deal, one line per seated player."""

    game: GameInfo
    deals: tuple[int, ...]
    lines: tuple[tuple[str, tuple[int, ...]], ...]
    """(player name, running total after each deal), in seat order."""
    colours: tuple[str, ...] = ()
    """Each line's player colour (``#rrggbb``), in seat order; empty: the chart's own."""

    @property
    def names(self) -> list[str]:
        return [name for name, _totals in self.lines]

    @property
    def chart(self) -> SafeString:
        """The chart as inline SVG (see :func:`companion.charts.progression_chart`)."""
        from companion.charts import progression_chart

        return progression_chart(self)

    @property
    def rows(self) -> list[tuple[int, list[int]]]:
        """The data table: per deal, every player's running total."""
        return [
            (deal, [totals[index] for _name, totals in self.lines])
            for index, deal in enumerate(self.deals)
        ]


# --- Helpers for the pages ------------------------------------------------------------------


_ROSTER_FIELDS = [field.attname for field in Player._meta.concrete_fields]
_ROSTER = Prepared(Player, lambda group_id: (
    Player.objects.filter(group_id=group_id).order_by("name", "id").values_list(*_ROSTER_FIELDS)
))


def group_players(group: Group) -> list[Player]:
    """The group's roster by name (one query), players as the ORM loads them."""
    alias = router.db_for_read(Player)
    return [Player.from_db(alias, _ROSTER_FIELDS, row) for row in _ROSTER(group.pk)]


__all__ = [
    "DEAL_FIGURES",
    "Figure",
    "GameStats",
    "HeadToHead",
    "PlayerStats",
    "Progression",
    "game_stats",
    "games_played",
    "group_history",
    "group_players",
    "head_to_head",
    "history_page",
    "player_stats",
]
