"""Records and streaks of a group: per game the highest and the lowest final score, the
worst single deal, the longest winning streak and the most matches in one night; across
all games the longest streak and the busiest night. Each names the match (and deal) to
link to.

Read from the statistics kept per finished match (``SeatResult``, ``GameRecord``; see
``companion.services.results``), in a fixed number of queries however long the history:
the best final score is the one ``GameRecord`` keeps, the other extreme and the worst
deal one indexed lookup each. The longest streak and the busiest night need every
result, so they are kept in Django's cache under a stamp of the group's results (how
many, the newest id, and a version that ``results_dates_changed`` moves when dates
change in place): a page reads the stamp and the kept value, and only the first page
after a change reads the results.

Matches imported with final scores only (no deals) count everywhere but in the worst
deal; ``without_deals`` says how many that skipped.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Max

from companion.colours import player_colours
from companion.models import GameRecord, Group, Match, Player, SeatResult
from scoring import GAMES


@dataclass(frozen=True, slots=True)
class Feat:
    """A notable score: who, how much, in which match (and deal)."""

    player_id: int
    name: str
    colour: str
    value: int
    match_id: int
    date: dt.date
    deal: int | None = None


@dataclass(frozen=True, slots=True)
class Streak:
    """Finished matches won in a row by one player, in the order played."""

    player_id: int
    name: str
    colour: str
    length: int
    first_match_id: int
    last_match_id: int
    first_date: dt.date
    last_date: dt.date


@dataclass(frozen=True, slots=True)
class BusiestNight:
    night_id: int
    date: dt.date
    matches: int
    """Finished matches that night (of the game, or of all games)."""


@dataclass(frozen=True, slots=True)
class GameRecords:
    game: str
    highest_total: Feat | None
    lowest_total: Feat | None
    worst_deal: Feat | None
    """The worst single deal score (the highest where fewer points win, else the lowest)."""
    longest_streak: Streak | None
    busiest_night: BusiestNight | None
    without_deals: int
    """Finished matches without deals (imported with final scores), not in ``worst_deal``."""

    @property
    def best_total(self) -> Feat | None:
        return self.lowest_total if GAMES[self.game].lower_is_better else self.highest_total

    @property
    def worst_total(self) -> Feat | None:
        return self.highest_total if GAMES[self.game].lower_is_better else self.lowest_total


@dataclass(frozen=True, slots=True)
class GroupRecords:
    """Across all games: only what compares across games (points do not)."""

    longest_streak: Streak | None
    busiest_night: BusiestNight | None


class _Roster:
    """Names and colours of a group's players (one query)."""

    def __init__(self, group: Group) -> None:
        rows = list(Player.objects.filter(group=group).values_list("pk", "name", "colour"))
        self.names = {pk: name for pk, name, _colour in rows}
        self.colours = player_colours((pk, colour) for pk, _name, colour in rows)


_RawStreak = tuple[int, int, int, int, dt.date, dt.date]
"""(player id, wins, first match, last match, first date, last date)"""
_RawBusiest = tuple[int, dt.date, int]


def _version_key(group_id: int) -> str:
    return f"records-version:{group_id}"


def results_dates_changed(group_id: int) -> None:
    """The group's results changed in place (a night's new date): the kept streaks and
    busiest nights are read afresh. (New, reopened, deleted or imported matches change
    the stamp by themselves: the count or the newest id of the results.)"""
    try:
        cache.incr(_version_key(group_id))
    except ValueError:  # never set: any value other than the default will do
        cache.set(_version_key(group_id), 1, timeout=None)


def _kept(group: Group, game: str | None) -> tuple[_RawStreak | None, _RawBusiest | None]:
    """The longest streak and the busiest night of the game (None: all games), from the
    cache while the group's results are as they were (two small queries), else read."""
    stamp = SeatResult.objects.filter(group=group).aggregate(n=Count("id"), last=Max("id"))
    version = cache.get(_version_key(group.pk), 0)
    key = f"records:{group.pk}:{game or '-'}:{stamp['n']}:{stamp['last']}:{version}"
    kept = cache.get(key)
    if kept is None:
        kept = (_longest_run(_streak_rows(group, game)), _busiest(group, game))
        cache.set(key, kept)
    return kept


def _longest_run(rows: Iterable[tuple[int, int, dt.date, bool]]) -> _RawStreak | None:
    """The longest run of wins in ``rows`` (player, match, date, won), ordered by player and
    then in the order played; of equally long runs, the one that ended first."""
    best: tuple[tuple[int, dt.date, int], int, list[tuple[int, dt.date]]] | None = None
    run: list[tuple[int, dt.date]] = []
    player = 0
    for player_id, match_id, date, won in [*rows, (0, 0, dt.date.min, False)]:  # a last close
        if player_id != player or not won:
            if run:
                key = (-len(run), run[-1][1], run[-1][0])
                if best is None or key < best[0]:
                    best = (key, player, run)
            run, player = [], player_id
        if won:
            run.append((match_id, date))
    if best is None:
        return None
    _key, player_id, wins = best
    return (player_id, len(wins), wins[0][0], wins[-1][0], wins[0][1], wins[-1][1])


def _streak(raw: _RawStreak | None, roster: _Roster) -> Streak | None:
    if raw is None:
        return None
    player_id, wins, first, last, began, ended = raw
    return Streak(player_id, roster.names[player_id], roster.colours[player_id], wins,
                  first, last, began, ended)


def _streak_rows(group: Group, game: str | None) -> list[tuple[int, int, dt.date, bool]]:
    results = SeatResult.objects.filter(group=group)
    if game is not None:
        results = results.filter(game=game)
    return list(results.order_by("player_id", "date", "started_at", "match_id").values_list(
        "player_id", "match_id", "date", "is_winner"))


def _busiest(group: Group, game: str | None) -> _RawBusiest | None:
    matches = Match.objects.filter(group=group, status=Match.Status.FINISHED)
    if game is not None:
        matches = matches.filter(game=game)
    row = (
        matches.values("game_night_id", "game_night__date").annotate(n=Count("id"))
        .order_by("-n", "game_night__date", "game_night_id")
        .values_list("game_night_id", "game_night__date", "n").first()
    )
    return None if row is None else (row[0], row[1], row[2])


def _feat(row: tuple[int, int, int, dt.date] | None, roster: _Roster,
          deal: int | None = None) -> Feat | None:
    if row is None:
        return None
    player_id, value, match_id, date = row
    return Feat(player_id, roster.names[player_id], roster.colours[player_id], value,
                match_id, date, deal)


def game_records(group: Group, game: str) -> GameRecords:
    """The group's records in ``game`` (seven queries)."""
    lower = GAMES[game].lower_is_better
    roster = _Roster(group)
    results = SeatResult.objects.filter(group=group, game=game)
    kept = GameRecord.objects.filter(group=group, game=game).values_list("data", flat=True)
    data = kept.first() or {}
    best = None
    if data.get("best"):
        player_id, total, match_id, date = data["best"]
        best = _feat((player_id, total, match_id, dt.date.fromisoformat(date)), roster)
    # The other extreme, chosen as GameRecord's best is: first in the order played, then seat.
    other = _feat(
        results.order_by(f"{'-' if lower else ''}total", "date", "started_at", "match_id",
                         "number")
        .values_list("player_id", "total", "match_id", "date").first(),
        roster,
    )
    found = (
        results.filter(worst_score__isnull=False)
        .order_by(f"{'-' if lower else ''}worst_score", "date", "started_at", "match_id",
                  "worst_deal", "player__name")
        .values_list("player_id", "worst_score", "match_id", "date", "worst_deal").first()
    )
    worst = None if found is None else _feat(found[:4], roster, deal=found[4])
    highest, lowest = (other, best) if lower else (best, other)
    without_deals = results.filter(deals=0).values("match_id").distinct().count()
    streak, busiest = _kept(group, game)
    return GameRecords(game, highest, lowest, worst, _streak(streak, roster),
                       BusiestNight(*busiest) if busiest else None, without_deals)


def group_records(group: Group) -> GroupRecords:
    """The group's records across all games (four small queries while nothing changed)."""
    roster = _Roster(group)
    streak, busiest = _kept(group, None)
    return GroupRecords(_streak(streak, roster), BusiestNight(*busiest) if busiest else None)


__all__ = ["BusiestNight", "Feat", "GameRecords", "GroupRecords", "Streak", "game_records",
           "group_records", "results_dates_changed"]
