"""The history statistics computed from scratch, the way the pages computed them before
the records kept per finished match (companion.services.results) replaced it: the
reference the tests compare the records with (no tests here).

Taken from companion/selectors/history.py at 7674e58 without its cache.
"""

from __future__ import annotations

import datetime as dt
import importlib
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import compress
from typing import Any

from django.db import connections
from django.db.models import (
    Avg,
    CharField,
    Count,
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
from django.utils.translation import gettext_lazy as _

from companion.models import Deal, DealScore, Group, Match, Player, Seat
from companion.selectors.history import (
    MIN_MATCHES_DEFAULT,
    MONTHS_SHOWN,
    RECENT_FORM,
    group_players,
    leaderboard_places,
)
from companion.selectors.stats import (
    Figure,
    GameStats,
    HeadToHead,
    HeadToHeadLine,
    LeaderLine,
    MonthLine,
    PlayerGameLine,
    PlayerStats,
    Record,
    Result,
)
from scoring import GAMES
from scoring.common import rules_for

FINISHED = Match.Status.FINISHED

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
"""The statistics only per-deal data allows, per game (the first five games)."""


def deal_figures(game: str) -> Callable[[DealData], tuple[Figure, ...]]:
    """The reference figures of ``game``: from :data:`DEAL_FIGURES`, or, for a game added
    later, ``deal_figures`` of its own tests (``tests/companion/test_<folder>.py``, built
    with this module's helpers), so that adding a game leaves this module alone."""
    if game in DEAL_FIGURES:
        return DEAL_FIGURES[game]
    folder = GAMES[game].module.rsplit(".", 1)[1]
    figures: Callable[[DealData], tuple[Figure, ...]] = importlib.import_module(
        f"tests.companion.test_{folder}").deal_figures
    return figures



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
        # The seat number breaks a tie inside a match (the order left it to the database).
        seats.order_by(f"{'' if info.lower_is_better else '-'}total", *_PLAYED_ORDER, "number")
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
    figures = deal_figures(game)(data) if entries else ()
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


