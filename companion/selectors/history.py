"""Reads of the history area: game nights, statistics and the data behind the charts.

Every function here runs a fixed number of SQL queries however many matches a
group has played. Counts, sums and extremes are computed by the database, except
on the player page, which reads the player's results once as plain columns (no
per-value conversion) and counts them with C builtins in one pass; the
per-deal statistics group identical recorded entries in the database and read
each distinct entry once through the engine (``entry_from_dict``), so the
Python work grows with the variety of entries, not with the number of deals.

Only finished matches count for statistics; the history lists running ones too.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import compress
from typing import Any, Literal, TypedDict

from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db import connections
from django.db.models import (
    Avg,
    CharField,
    Count,
    Exists,
    F,
    FilteredRelation,
    Max,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.db.models.functions import Cast, Substr
from django.utils.formats import number_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from companion.models import Deal, DealScore, GameNight, Group, Match, Player, Seat
from scoring import GAMES, GameInfo
from scoring.common import rules_for

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


@dataclass(frozen=True, slots=True)
class MonthLine(WinRate):
    """How a player did in one calendar month."""

    month: dt.date
    matches: int
    wins: int


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


def _finished_seats(group: Group) -> QuerySet[Seat]:
    return Seat.objects.filter(match__group=group, match__status=FINISHED)


def _player_finished_seats(player: Player) -> QuerySet[Seat]:
    """A player's seats in finished matches.

    No condition on the match's group: a player is seated only at matches of
    their own group (``match_start`` refuses anyone else), and leaving it out
    lets the database start from the player's seats instead of every match of
    the group (head-to-head: 3.7 -> 2.3 ms on 5,000 matches).
    """
    return Seat.objects.filter(player=player, match__status=FINISHED)


_PLAYED_ORDER = ("match__game_night__date", "match__created_at", "match_id")


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


def _raw_rows(rows: QuerySet[Any]) -> list[tuple[Any, ...]]:
    """The rows of a ``values_list`` query as the database driver returns them.

    Skips Django's per-value converters: for thousands of rows of plain
    numbers and text that is most of the time spent in Python (a boolean
    column comes back as 0/1 on SQLite, which counts and tests the same).
    """
    sql, params = rows.query.sql_with_params()
    with connections[rows.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def player_stats(player: Player) -> PlayerStats:
    """Everything the player page shows, in two queries.

    One pass over the player's finished results in the order played, plain
    columns only (the date as its ISO text, the win flag as a number: nothing
    to convert per row), gives the per-game lines, the streaks and the months;
    the recent form then fetches only the last ten results with their number
    of players.
    """
    seats = _player_finished_seats(player)
    played = _raw_rows(
        seats.order_by(*_PLAYED_ORDER)
        .annotate(month=Substr(Cast("match__game_night__date", CharField()), 1, 7))
        .values_list("match_id", "match__game", "total", "is_winner", "month")
    )
    if not played:
        return PlayerStats(player, (), (), 0, 0, ())
    # Column-wise, so that the counting runs in C: ~2,300 rows in about a millisecond.
    match_ids, game_of, totals, won, month_of = zip(*played, strict=True)
    # Streaks: the runs of wins between losses (0/1, or False/True on other databases).
    runs = bytes(won).split(b"\0")
    longest, current = max(map(len, runs)), len(runs[-1])
    points: dict[str, list[int]] = defaultdict(list)
    for game, total in zip(game_of, totals, strict=True):
        points[game].append(total)
    game_wins = Counter(compress(game_of, won))
    games = []
    for slug, info in GAMES.items():
        if slug not in points:
            continue
        finals = points[slug]
        low, high = min(finals), max(finals)
        best, worst = (low, high) if info.lower_is_better else (high, low)
        games.append(PlayerGameLine(
            info, len(finals), game_wins[slug], sum(finals) / len(finals), best, worst
        ))
    month_matches = Counter(month_of)  # in the order played: oldest month first
    month_wins = Counter(compress(month_of, won))
    months = tuple(
        MonthLine(dt.date(int(month[:4]), int(month[5:7]), 1), matches, month_wins[month])
        for month, matches in list(month_matches.items())[-MONTHS_SHOWN:]
    )
    latest = list(match_ids[:-RECENT_FORM - 1:-1])
    # The recent form: the last results, newest first, with their number of players.
    details = {
        row[0]: row
        for row in seats.filter(match_id__in=latest).annotate(
            players=Subquery(
                Seat.objects.filter(match=OuterRef("match"))
                .order_by()
                .values("match")
                .annotate(n=Count("id"))
                .values("n")
            )
        ).values_list(
            "match_id", "match__game", "match__game_night__date", "place", "players", "total",
            "is_winner",
        )
    }
    recent = tuple(
        Result(match_id=match_id, game=GAMES[game], date=date, place=place,
               players=players, total=total, is_winner=is_winner)
        for match_id, game, date, place, players, total, is_winner in map(details.get, latest)
    )
    return PlayerStats(player, tuple(games), recent, longest, current, months)


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


def head_to_head(first: Player, second: Player) -> HeadToHead:
    """How often each of two players finished ahead of the other, per game (one query)."""
    rows = {
        row["match__game"]: row
        for row in _player_finished_seats(first)
        .annotate(other=FilteredRelation("match__seats", condition=Q(match__seats__player=second)))
        .filter(other__isnull=False)
        .values("match__game")
        .annotate(
            matches=Count("id"),
            first_ahead=Count("id", filter=Q(place__lt=F("other__place"))),
            second_ahead=Count("id", filter=Q(place__gt=F("other__place"))),
        )
    }
    lines = tuple(
        HeadToHeadLine(info, rows[slug]["matches"], rows[slug]["first_ahead"],
                       rows[slug]["second_ahead"])
        for slug, info in GAMES.items()
        if slug in rows
    )
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
class EntryCount:
    """A distinct recorded entry (parsed by the engine), who recorded it and how often."""

    player_id: int
    entry: Any
    count: int


@dataclass(frozen=True, slots=True)
class DealData:
    """What the per-deal statistics of one game read."""

    entries: tuple[EntryCount, ...]
    deals: int
    matches: int
    names: Mapping[int, str]


def _per_player(
    data: DealData, value: Callable[[Any], int], per: Callable[[int], int]
) -> tuple[tuple[str, float | None], ...]:
    """Per player, the sum of ``value`` over their entries divided by ``per(entries)``."""
    sums: dict[int, int] = defaultdict(int)
    counts: dict[int, int] = defaultdict(int)
    for item in data.entries:
        sums[item.player_id] += value(item.entry) * item.count
        counts[item.player_id] += item.count
    lines = [
        (data.names[player_id], sums[player_id] / per(counts[player_id]))
        for player_id in counts
        if per(counts[player_id])
    ]
    return tuple(sorted(lines, key=lambda line: (line[0].casefold(), line[0])))


def _total(data: DealData, value: Callable[[Any], int]) -> int:
    return sum(value(item.entry) * item.count for item in data.entries)


def _entries(data: DealData) -> int:
    return sum(item.count for item in data.entries)


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _same(count: int) -> int:
    return count


def _x_nimmt_figures(data: DealData) -> tuple[Figure, ...]:
    def bulls(entry: Any) -> int:
        counted = entry.hornochsen()
        return int(counted.hand + counted.x_stack)

    def stack_points(entry: Any) -> int:
        return 2 * int(entry.hornochsen().x_stack)

    def minus(entry: Any) -> int:
        return int(entry.hornochsen().minus_points)

    shares: list[tuple[str, float | None]] = []
    stack_by: dict[int, int] = defaultdict(int)
    minus_by: dict[int, int] = defaultdict(int)
    for item in data.entries:
        stack_by[item.player_id] += stack_points(item.entry) * item.count
        minus_by[item.player_id] += minus(item.entry) * item.count
    for player_id in sorted(minus_by, key=lambda pid: data.names[pid].casefold()):
        shares.append((data.names[player_id], _ratio(stack_by[player_id], minus_by[player_id])))
    return (
        Figure(
            str(_("Hornochsen per player and deal")),
            _ratio(_total(data, bulls), _entries(data)),
            "number",
            _per_player(data, bulls, _same),
        ),
        Figure(
            str(_("Share of the minus points from the X-stack")),
            _ratio(_total(data, stack_points), _total(data, minus)),
            "percent",
            tuple(shares),
        ),
    )


def _elf_nimmt_figures(data: DealData) -> tuple[Figure, ...]:
    def bulls(entry: Any) -> int:
        return int(entry.hornochsen())

    return (
        Figure(
            str(_("Hornochsen per player and deal")),
            _ratio(_total(data, bulls), _entries(data)),
            "number",
            _per_player(data, bulls, _same),
        ),
    )


def _drei_figures(data: DealData) -> tuple[Figure, ...]:
    # The cards go out in the order 10, 7, 5, 3, so a match with any bonus won has its 10.
    figures = [
        Figure(
            str(_("Matches in which an interim scoring card (Zwischenwertung) was won")),
            _ratio(sum(item.count for item in data.entries if item.entry.interim_bonus == 10),
                   data.matches),
            "percent",
        ),
    ]
    # A bonus card is won at most once per match, so counting entries counts matches.
    for card in (10, 7, 5, 3):
        def holds(entry: Any, card: int = card) -> int:
            return 1 if entry.interim_bonus == card else 0

        figures.append(
            Figure(
                str(_("Interim scoring card (Zwischenwertung) %(card)d won")) % {"card": card},
                _total(data, holds),
                "count",
                tuple(line for line in _per_player(data, holds, lambda _n: 1) if line[1]),
            )
        )
    return tuple(figures)


def _freaky_figures(data: DealData) -> tuple[Figure, ...]:
    def collected(entry: Any) -> int:
        return int(entry.collected)

    return (
        Figure(
            str(_("Cards collected per player and match")),
            _ratio(_total(data, collected), _entries(data)),
            "number",
            _per_player(data, collected, _same),
        ),
    )


def _dreizehn_figures(data: DealData) -> tuple[Figure, ...]:
    def red(entry: Any) -> int:
        return int(entry.red)

    return (
        Figure(
            str(_("Red 4s taken per deal (all players)")),
            _ratio(_total(data, red), data.deals),
            "number",
        ),
        Figure(
            str(_("Red 4s per player and deal")),
            _ratio(_total(data, red), _entries(data)),
            "number",
            _per_player(data, red, _same),
        ),
    )


DEAL_FIGURES: Mapping[str, Callable[[DealData], tuple[Figure, ...]]] = {
    "x-nimmt": _x_nimmt_figures,
    "elf-nimmt": _elf_nimmt_figures,
    "drei-sind-einer-zuviel": _drei_figures,
    "freaky": _freaky_figures,
    "dreizehn": _dreizehn_figures,
}
"""The statistics only per-deal data allows, per game."""


FIGURES_CACHE_SECONDS = 7 * 24 * 3600


def _game_scores(group: Group, game: str) -> QuerySet[DealScore]:
    return DealScore.objects.filter(
        deal__match__group=group, deal__match__game=game, deal__match__status=FINISHED
    )


@dataclass(frozen=True, slots=True)
class _GameFacts:
    """What the game page computes from a game's finished matches, cached as a whole."""

    lines: tuple[tuple[int, int, int, float], ...]
    """(player id, matches, wins, average final score) per player who played."""
    best_seat: int | None
    worst_score: int | None
    figures: tuple[Figure, ...]


def _game_facts(
    group: Group, game: str, names: Mapping[int, str], *, matches: int, deals: int,
    fingerprint: tuple[int, ...],
) -> _GameFacts:
    """Leaderboard lines, the ids of the records and the per-deal statistics of a game.

    Distinct entries are counted in the database and each is parsed once by
    the engine. The result is cached under a key that changes whenever it
    could: the game's finished matches and their deals (their number, id sum
    and version sum: the score sheet bumps a deal's version whenever its
    entries change, ids are never reused, and a match that is finished or
    reopened adds or removes its deals), the player names and the language.
    """
    key = "kartenrunde:game-facts:" + hashlib.sha256(repr((
        group.pk, game, fingerprint, deals, matches, sorted(names.items()), get_language(),
    )).encode()).hexdigest()
    cached: _GameFacts | None = cache.get(key)
    if cached is not None:
        return cached
    info = GAMES[game]
    seats = _finished_seats(group).filter(match__game=game)
    lines = tuple(
        (row["player_id"], row["matches"], row["wins"], float(row["average"]))
        for row in seats.values("player_id").annotate(
            matches=Count("id"),
            wins=Count("id", filter=Q(is_winner=True)),
            average=Avg("total"),
        ).order_by()
    )
    best_seat = (
        seats.order_by(f"{'' if info.lower_is_better else '-'}total", *_PLAYED_ORDER)
        .values_list("pk", flat=True)
        .first()
    )
    rules = rules_for(game)
    parsed: dict[str, Any] = {}
    entries = []
    rows = _game_scores(group, game).values("player_id", "data").annotate(count=Count("id"))
    for row in rows.order_by():
        text = repr(row["data"])
        if text not in parsed:
            parsed[text] = rules.entry_from_dict(row["data"])
        entries.append(EntryCount(row["player_id"], parsed[text], row["count"]))
    data = DealData(tuple(entries), deals, matches, names)
    figures = DEAL_FIGURES[game](data) if entries else ()
    worst_score = None
    if entries:
        extremes = _game_scores(group, game).aggregate(high=Max("score"), low=Min("score"))
        worst_score = (
            _game_scores(group, game)
            .filter(score=extremes["high"] if info.lower_is_better else extremes["low"])
            .order_by(
                "deal__match__game_night__date", "deal__match__created_at", "deal__match_id",
                "deal__number", "player__name",
            )
            .values_list("pk", flat=True)
            .first()
        )
    facts = _GameFacts(lines, best_seat, worst_score, figures)
    cache.set(key, facts, FIGURES_CACHE_SECONDS)
    return facts


def game_stats(
    group: Group, game: str, *, min_matches: int = MIN_MATCHES_DEFAULT,
    players: Sequence[Player] | None = None,
) -> GameStats:
    """Everything the game page shows.

    Four queries when nothing changed since the last visit (the roster unless
    ``players`` is given, two counts, the two records by id), five more to
    compute the statistics afresh after a change.
    """
    info = GAMES[game]
    roster = players if players is not None else group_players(group)
    names = {player.pk: player.name for player in roster}
    matches = Match.objects.filter(group=group, game=game, status=FINISHED).count()
    summary = Deal.objects.filter(
        match__group=group, match__game=game, match__status=FINISHED
    ).aggregate(deals=Count("id"), id_sum=Sum("id"), versions=Sum("version"))
    facts = _game_facts(
        group, game, names, matches=matches, deals=summary["deals"],
        fingerprint=(summary["id_sum"] or 0, summary["versions"] or 0),
    ) if matches else _GameFacts((), None, None, ())
    lines = sorted(
        facts.lines,
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
    best = (
        Seat.objects.select_related("player", "match__game_night")
        .filter(pk=facts.best_seat).first() if facts.best_seat else None
    )
    worst = (
        DealScore.objects.select_related("player", "deal__match__game_night")
        .filter(pk=facts.worst_score).first() if facts.worst_score else None
    )
    shares = sorted(
        ((names[pid], wins) for pid, _played, wins, _avg in lines if wins),
        key=lambda share: (-share[1], share[0].casefold()),
    )
    return GameStats(
        game=info,
        matches=matches,
        deals=summary["deals"],
        min_matches=min_matches,
        leaderboard=leaderboard,
        below_minimum=below,
        best_total=Record(best.player.name, best.total, best.match_id,
                          best.match.game_night.date) if best else None,
        worst_deal=Record(worst.player.name, worst.score, worst.deal.match_id,
                          worst.deal.match.game_night.date, worst.deal.number)
        if worst else None,
        figures=facts.figures,
        win_shares=tuple(shares),
    )


def games_played(group: Group) -> list[tuple[GameInfo, int]]:
    """The five games with the group's number of matches of each, running ones included
    (one query, answered from the group/game index)."""
    counts = dict(
        Match.objects.filter(group=group)
        .values_list("game")
        .annotate(n=Count("id"))
        .order_by()
    )
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


def group_players(group: Group) -> list[Player]:
    """The group's roster by name (one query)."""
    return list(Player.objects.filter(group=group).order_by("name", "id"))


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
