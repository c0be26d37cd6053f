"""Reads of the history area: game nights and statistics.

Every function here runs a fixed number of SQL queries however many matches a
group has played. The statistics pages (player, head-to-head, game) read records
kept per finished match (``companion.services.results``: written when a match is
finished, reopened or deleted), so their work does not grow with the history
either: a few rows per player, per two players, per game. What they return is
plain data (:mod:`companion.selectors.stats`); each game's own figures come from
its folder (``GameApp.figures``).

Only finished matches count for statistics; the history lists running ones too.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Any, TypedDict

from django.core.paginator import Page, Paginator
from django.db.models import Exists, F, OuterRef, QuerySet, Window
from django.db.models.functions import Lower, RowNumber

from companion.games import game_app
from companion.models import (
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
from companion.selectors.stats import (
    GameStats,
    HeadToHead,
    HeadToHeadLine,
    LeaderLine,
    MonthLine,
    PlayerGameLine,
    PlayerStats,
    Record,
    Result,
    Tallies,
)
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


class NightRow(TypedDict):
    pk: int
    date: dt.date
    place: str
    matches: list[MatchRow]
    """In the order they were started."""
    more: bool
    """The night has earlier matches than those in ``matches`` (a list of a few per night)."""


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

    Works with Django's ``Paginator`` and with plain slicing (``history[:5]``). With
    ``per_night``, a night holds its newest ``per_night`` matches only (and ``more``).
    """

    def __init__(self, nights: QuerySet[GameNight], matches: QuerySet[Match],
                 per_night: int | None = None) -> None:
        self._nights = nights
        self._matches = matches
        self._per_night = per_night

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
            {"pk": pk, "date": date, "place": place, "matches": [], "more": False}
            for pk, date, place in self._nights.values_list("pk", "date", "place")[index]
        ]
        if not rows:
            return rows
        by_night = {row["pk"]: row for row in rows}
        matches: dict[int, MatchRow] = {}
        found = self._matches.filter(game_night__in=by_night)
        if self._per_night is not None:
            # Each night's newest few and one more (which says there are others), however
            # many matches a night has: a window numbers them per night.
            found = found.annotate(newest=Window(
                RowNumber(), partition_by=F("game_night"),
                order_by=(F("created_at").desc(), F("id").desc()),
            )).filter(newest__lte=self._per_night + 1)
        listed = list(found.order_by("created_at", "id")
                      .values_list("pk", "game_night_id", "game", "status"))
        if self._per_night is not None:
            counts: dict[int, int] = defaultdict(int)
            for _pk, night, _game, _status in listed:
                counts[night] += 1
            full = {night for night, count in counts.items() if count > self._per_night}
            kept = []
            for row in listed:
                if row[1] in full and not by_night[row[1]]["more"]:
                    by_night[row[1]]["more"] = True  # the oldest: it only tells of the others
                    continue
                kept.append(row)
            listed = kept
        for pk, night, game, status in listed:
            match: MatchRow = {
                "pk": pk, "game": game, "title": GAMES[game].title,
                "running": status == Match.Status.OPEN,
                "abandoned": status == Match.Status.ABANDONED, "winners": "", "seats": [],
            }
            matches[pk] = match
            by_night[night]["matches"].append(match)
        winners: dict[int, list[str]] = defaultdict(list)
        # An abandoned match has no result: its players in seat order, without places.
        seats = sorted(
            Seat.objects.filter(match__in=matches)
            .values_list("match_id", "player__name", "total", "place", "is_winner", "number"),
            key=lambda row: (row[0], *(
                (row[5],) if matches[row[0]]["abandoned"]
                else (row[3] is None, row[3] or 0, row[5])
            )),
        )
        for match_id, name, total, place, is_winner, _number in seats:
            match = matches[match_id]
            match["seats"].append({
                "name": name, "total": total, "is_winner": is_winner,
                "place": None if match["abandoned"] else place,
            })
            if is_winner:
                winners[match_id].append(name)
        for match_id, names in winners.items():
            matches[match_id]["winners"] = ", ".join(names)
        return rows


def group_history(
    group: Group,
    *,
    game: str | None = None,
    player: Player | None = None,
    since: dt.date | None = None,
    until: dt.date | None = None,
    matches_per_night: int | None = None,
) -> NightList:
    """The group's game nights, newest first, for the history list.

    Each night (a :class:`NightRow`) holds its matches (filtered by ``game``
    and ``player``) with their seats, winners and final scores. With a game or
    player filter, nights without such a match are left out. ``since``/``until``
    bound the night's date (both inclusive). ``matches_per_night`` keeps each night's
    newest few (a night's ``more`` tells of the others). Fetching a slice of it costs
    three queries (nights, matches, seats), whatever its size.
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
    return NightList(nights.order_by("-date", "-id"), by_night, matches_per_night)


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


def player_stats(player: Player) -> PlayerStats:
    """Everything the player page shows, in two queries however long the history.

    The per-game lines, the streaks and the months come from the player's
    :class:`~companion.models.PlayerRecord` (kept up to date whenever a match of
    theirs is finished, reopened or deleted); the recent form reads the last ten
    results.
    """
    data = PlayerRecord.objects.filter(player_id=player.pk).values_list(
        "data", flat=True).first()
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
        for match_id, game, date, place, players, total, is_winner in (
            SeatResult.objects.filter(player_id=player.pk)
            .order_by("-date", "-started_at", "-match_id")
            .values_list("match_id", "game", "date", "place", "players", "total", "is_winner")
            [:RECENT_FORM]
        )
    )
    return PlayerStats(player, games, recent, data["longest"], data["current"], months)


# --- Head-to-head ---------------------------------------------------------------------------


def head_to_head(first: Player, second: Player) -> HeadToHead:
    """How often each of two players finished ahead of the other, per game (one query,
    from their :class:`~companion.models.PairRecord` rows)."""
    swapped = first.pk > second.pk
    low, high = (second, first) if swapped else (first, second)
    rows = {
        game: (matches, high_ahead, low_ahead) if swapped else (matches, low_ahead, high_ahead)
        for game, matches, low_ahead, high_ahead in (
            PairRecord.objects.filter(first_id=low.pk, second_id=high.pk)
            .values_list("game", "matches", "first_ahead", "second_ahead")
        )
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


def _worst_deal(group: Group, game: str, *, lower_is_better: bool) -> tuple[Any, ...] | None:
    """The worst deal score of a game: the highest where fewer points win, else the lowest
    (an indexed lookup in the finished matches' results)."""
    return (
        SeatResult.objects.filter(group_id=group.pk, game=game, worst_score__isnull=False)
        .order_by(f"{'-' if lower_is_better else ''}worst_score", "date", "started_at",
                  "match_id", "worst_deal", "player__name")
        .values_list("player__name", "worst_score", "match_id", "date", "worst_deal")
        .first()
    )


def game_stats(
    group: Group, game: str, *, min_matches: int = MIN_MATCHES_DEFAULT,
    players: Sequence[Player] | None = None, without_deals: int | None = None,
) -> GameStats:
    """Everything the game page shows, in two queries however long the history (three
    without ``players``: the roster; one more without ``without_deals``, the number of
    finished matches imported with final scores only, which the per-deal figures skip).

    The game's :class:`~companion.models.GameRecord` holds the leaderboard's sums, the
    per-deal figures' sums and the best final score (kept up to date whenever a match
    is finished, reopened or deleted); the worst deal score is one indexed lookup in the
    finished matches' results.
    """
    info = GAMES[game]
    roster = players if players is not None else group_players(group)
    names = {player.pk: player.name for player in roster}
    record = GameRecord.objects.filter(group_id=group.pk, game=game).values_list(
        "matches", "deals", "data").first()
    matches, deals, data = record or (0, 0, {"lines": [], "tallies": {}})
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
        worst = _worst_deal(group, game, lower_is_better=info.lower_is_better)
    if data.get("best"):
        pid, total, match_id, date = data["best"]
        best = (names[pid], total, match_id, dt.date.fromisoformat(date))
    if without_deals is None:
        without_deals = (
            SeatResult.objects.filter(group_id=group.pk, game=game, deals=0)
            .values("match_id").distinct().count()
        ) if matches else 0
    # The figures read the deals: matches without any (imported ones) are not theirs.
    tallies = Tallies({int(pid): tally for pid, tally in data["tallies"].items()},
                      deals, matches - without_deals, names)
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
        figures=game_app(game).figures(tallies) if tallies.by_player else (),
        win_shares=tuple(shares),
        without_deals=without_deals,
    )


def games_played(group: Group) -> list[tuple[GameInfo, int]]:
    """The five games with the group's number of finished matches of each: what the
    statistics count (running and abandoned matches count in none). One query of five rows
    at most: the counts are kept in :class:`~companion.models.GameRecord`."""
    counts = dict(GameRecord.objects.filter(group_id=group.pk).values_list("game", "matches"))
    return [(info, counts.get(slug, 0)) for slug, info in GAMES.items()]


# --- Helpers for the pages ------------------------------------------------------------------


def group_players(group: Group) -> list[Player]:
    """The group's roster by name, ignoring case (one query)."""
    return list(Player.objects.filter(group_id=group.pk).order_by(Lower("name"), "id"))


__all__ = [
    "game_stats",
    "games_played",
    "group_history",
    "group_players",
    "head_to_head",
    "history_page",
    "leaderboard_places",
    "player_stats",
    "streaks",
]
