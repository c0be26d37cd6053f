"""The statistics kept per finished match, so that the history pages read a few rows
instead of the whole history.

A finished match has a :class:`~companion.models.SeatResult` per seat (the night's date,
the final score and place, the player's per-deal figures summed); from those rows come
the :class:`~companion.models.PlayerRecord` of each player (the player page), the
:class:`~companion.models.PairRecord` of each two players (head-to-head) and the
:class:`~companion.models.GameRecord` of each game (the game page).

:func:`match_results_update` keeps them in step with a match: the services call it when
a match is finished, reopened or deleted; :func:`night_results_update` when a night's
date changes; :func:`results_rebuild` computes everything afresh (after an import, a
restore, and for the data already there when the tables were added). A change reads the
matching results of the players and the game concerned (a few queries, however many
there are) and rewrites their records; the group's row is locked for that moment, so
that two matches finished at once on PostgreSQL do not write records that miss the
other's results.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Iterable
from itertools import combinations, compress
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, F, FilteredRelation, Max, Min, Q

from companion.games import game_app
from companion.models import (
    DealScore,
    GameCount,
    GameNight,
    GameRecord,
    Group,
    Match,
    PairRecord,
    PlayerRecord,
    Seat,
    SeatResult,
)
from companion.selectors.records import results_dates_changed
from companion.services.batches import let_others_write
from companion.services.ratings import (
    ratings_match_changed,
    ratings_night_moved,
    ratings_rebuild,
    ratings_rebuild_hidden,
    ratings_replay_since,
)
from scoring import GAMES
from scoring.common import rules_for

FINISHED = Match.Status.FINISHED
REBUILD_BATCH = 500
"""Matches read at once by :func:`results_rebuild` (bounds the lists of ids sent to the
database)."""


def _build(matches: Iterable[Match]) -> list[SeatResult]:
    """The :class:`SeatResult` rows of finished ``matches`` (three queries however many).

    Each distinct recorded entry is read by the engine once.
    """
    by_id = {match.pk: match for match in matches}
    if not by_id:
        return []
    dates = dict(
        GameNight.objects.filter(matches__in=by_id).values_list("matches__id", "date")
    )
    scores: dict[tuple[int, int], list[tuple[int, int, Any]]] = defaultdict(list)
    deals: dict[int, set[int]] = defaultdict(set)
    for match_id, player_id, number, score, data in DealScore.objects.filter(
        deal__match__in=by_id
    ).values_list("deal__match_id", "player_id", "deal__number", "score", "data"):
        scores[match_id, player_id].append((number, score, data))
        deals[match_id].add(number)
    parsed: dict[tuple[str, str], dict[str, int]] = {}
    seats = list(
        Seat.objects.filter(match__in=by_id).order_by("match_id", "number").values_list(
            "pk", "match_id", "player_id", "number", "total", "place", "is_winner"
        )
    )
    players = Counter(match_id for _pk, match_id, *_rest in seats)
    results = []
    for pk, match_id, player_id, number, total, place, is_winner in seats:
        match = by_id[match_id]
        rows = sorted(scores.get((match_id, player_id), ()), key=lambda row: row[0])
        tally: dict[str, int] = {"entries": len(rows)}
        rules, measures = rules_for(match.game), game_app(match.game).tally
        for _number, _score, data in rows:
            key = (match.game, repr(data))
            if key not in parsed:
                parsed[key] = measures(rules.entry_from_dict(data))
            for name, value in parsed[key].items():
                tally[name] = tally.get(name, 0) + value
        worst_score = worst_deal = None
        if rows:
            pick = max if GAMES[match.game].lower_is_better else min
            worst_score = pick(score for _number, score, _data in rows)
            worst_deal = next(n for n, score, _data in rows if score == worst_score)
        results.append(SeatResult(
            match_id=match_id, seat_id=pk, group_id=match.group_id, player_id=player_id,
            game=match.game, date=dates[match_id], started_at=match.created_at,
            number=number, players=players[match_id], total=total, place=place,
            is_winner=bool(is_winner), deals=len(deals[match_id]), worst_score=worst_score,
            worst_deal=worst_deal, tally=tally,
        ))
    return results


def _player_data(rows: list[tuple[str, int, bool, str]]) -> dict[str, Any]:
    """A player's record from their results in the order played: (game, total, won, month)."""
    games: dict[str, list[int]] = {}
    for game, total, won, _month in rows:
        line = games.get(game)
        if line is None:
            games[game] = [1, int(won), total, total, total]
            continue
        line[0] += 1
        line[1] += int(won)
        line[2] += total
        line[3] = min(line[3], total)
        line[4] = max(line[4], total)
    won_flags = [bool(won) for _game, _total, won, _month in rows]
    runs = bytes(won_flags).split(b"\0")
    month_of = [month for _game, _total, _won, month in rows]
    matches, wins = Counter(month_of), Counter(compress(month_of, won_flags))
    lines = []
    for slug, info in GAMES.items():
        if slug in games:
            count, won, points, low, high = games[slug]
            best, worst = (low, high) if info.lower_is_better else (high, low)
            lines.append([slug, count, won, points, best, worst])
    return {
        "games": lines,
        "months": [[month, count, wins[month]] for month, count in matches.items()],
        "longest": max(map(len, runs)),
        "current": len(runs[-1]),
    }


def _refresh_players(players: Collection[int]) -> None:
    """Rewrite the :class:`PlayerRecord` of ``players`` from their results (three queries)."""
    rows: dict[int, list[tuple[str, int, bool, str]]] = {pk: [] for pk in players}
    for player_id, game, total, won, date in (
        SeatResult.objects.filter(player__in=players)
        .order_by("player_id", "date", "started_at", "match_id")
        .values_list("player_id", "game", "total", "is_winner", "date")
    ):
        rows[player_id].append((game, total, won, date.isoformat()[:7]))
    PlayerRecord.objects.filter(player__in=players).delete()
    PlayerRecord.objects.bulk_create(
        PlayerRecord(player_id=pk, data=_player_data(results))
        for pk, results in rows.items() if results
    )


def _refresh_pairs(players: Collection[int], games: Collection[str]) -> None:
    """Rewrite the :class:`PairRecord` of every two of ``players`` in ``games`` (three queries)."""
    rows = (
        SeatResult.objects.filter(player__in=players, game__in=games)
        .annotate(other=FilteredRelation(
            "match__results", condition=Q(match__results__player__in=players)
        ))
        .filter(player_id__lt=F("other__player_id"))
        .values("player_id", "other__player_id", "game")
        .annotate(
            matches=Count("id"),
            first_ahead=Count("id", filter=Q(place__lt=F("other__place"))),
            second_ahead=Count("id", filter=Q(place__gt=F("other__place"))),
        )
        .order_by()
    )
    records = [
        PairRecord(first_id=row["player_id"], second_id=row["other__player_id"], game=row["game"],
                   matches=row["matches"], first_ahead=row["first_ahead"],
                   second_ahead=row["second_ahead"])
        for row in rows
    ]
    PairRecord.objects.filter(first__in=players, second__in=players, game__in=games).delete()
    PairRecord.objects.bulk_create(records)


def _refresh_games(group_id: int, games: Collection[str]) -> None:
    """Rewrite the :class:`GameRecord` of the group's ``games`` from their results."""
    lines: dict[str, dict[int, list[int]]] = {game: {} for game in games}
    tallies: dict[str, dict[int, Counter[str]]] = {game: defaultdict(Counter) for game in games}
    deals: dict[str, dict[int, int]] = {game: {} for game in games}
    for game, match_id, player_id, won, total, count, tally in SeatResult.objects.filter(
        group_id=group_id, game__in=games
    ).values_list("game", "match_id", "player_id", "is_winner", "total", "deals", "tally"):
        line = lines[game].setdefault(player_id, [player_id, 0, 0, 0])
        line[1] += 1
        line[2] += int(won)
        line[3] += total
        deals[game][match_id] = count
        if tally.get("entries"):
            tallies[game][player_id].update(tally)
    GameRecord.objects.filter(group_id=group_id, game__in=games).delete()
    GameRecord.objects.bulk_create(
        GameRecord(
            group_id=group_id, game=game, matches=len(deals[game]),
            deals=sum(deals[game].values()),
            data={
                "lines": sorted(lines[game].values()),
                "tallies": {
                    str(pk): {name: value for name, value in tally.items()
                              if value or name == "entries"}
                    for pk, tally in sorted(tallies[game].items())
                },
                "best": _best(group_id, game),
            },
        )
        for game in games if deals[game]
    )


def _best(group_id: int, game: str) -> list[Any] | None:
    """The best final score of the game: [player id, total, match id, night's date]
    (the first in the order played; inside a match, the first seat). One indexed lookup."""
    best = (
        SeatResult.objects.filter(group_id=group_id, game=game)
        .order_by(f"{'' if GAMES[game].lower_is_better else '-'}total", "date", "started_at",
                  "match_id", "number")
        .values_list("player_id", "total", "match_id", "date").first()
    )
    return None if best is None else [*best[:3], best[3].isoformat()]


def _lock_group(group_id: int) -> None:
    # The group's row, locked (PostgreSQL; SQLite writes one at a time anyway): a second
    # change in the same group waits here, then reads the records as this one left them.
    list(Group.objects.select_for_update().filter(pk=group_id).values_list("pk"))


def _refresh(group_id: int, games: Collection[str], players: Collection[int]) -> None:
    _lock_group(group_id)
    _refresh_players(players)
    _refresh_pairs(players, games)
    _refresh_games(group_id, games)


def _add_to(tally: dict[str, int], other: dict[str, int], sign: int) -> None:
    """``tally`` plus (or minus) ``other``, keeping no zeros but the entries."""
    for name, value in other.items():
        tally[name] = tally.get(name, 0) + sign * value
        if not tally[name] and name != "entries":
            del tally[name]


def _apply_game(results: list[SeatResult], sign: int) -> None:
    """Add (``sign`` 1) or take away (-1) one match's results to its game's record."""
    first = results[0]
    record = GameRecord.objects.filter(group_id=first.group_id, game=first.game).first()
    if record is None:
        record = GameRecord(group_id=first.group_id, game=first.game, matches=0, deals=0,
                            data={"lines": [], "tallies": {}})
    record.matches += sign
    record.deals += sign * first.deals
    lines = {line[0]: line for line in record.data["lines"]}
    tallies = {int(pk): tally for pk, tally in record.data["tallies"].items()}
    for result in results:
        line = lines.setdefault(result.player_id, [result.player_id, 0, 0, 0])
        line[1] += sign
        line[2] += sign * int(result.is_winner)
        line[3] += sign * result.total
        if not line[1]:
            del lines[result.player_id]
        if result.tally.get("entries"):
            tally = tallies.setdefault(result.player_id, {})
            _add_to(tally, result.tally, sign)
            if not tally["entries"]:
                del tallies[result.player_id]
    if not record.matches:
        if record.pk:
            record.delete()
        return
    record.data = {
        "lines": sorted(lines.values()),
        "tallies": {str(pk): tally for pk, tally in sorted(tallies.items())},
        "best": _best(first.group_id, first.game),
    }
    record.save()


def _apply_pairs(results: list[SeatResult], sign: int) -> None:
    """Add or take away one match's results to the head-to-head records of its players."""
    game = results[0].game
    by_player = {result.player_id: result for result in results}
    records = {
        (record.first_id, record.second_id): record
        for record in PairRecord.objects.filter(first__in=by_player, second__in=by_player,
                                                game=game)
    }
    for low, high in combinations(sorted(by_player), 2):
        record = records.setdefault((low, high), PairRecord(
            first_id=low, second_id=high, game=game, matches=0, first_ahead=0, second_ahead=0
        ))
        first, second = by_player[low].place, by_player[high].place
        record.matches += sign
        if first is not None and second is not None:
            record.first_ahead += sign * (first < second)
            record.second_ahead += sign * (first > second)
    PairRecord.objects.filter(
        pk__in=[record.pk for record in records.values() if record.pk and not record.matches]
    ).delete()
    PairRecord.objects.bulk_update(
        [record for record in records.values() if record.pk and record.matches],
        ["matches", "first_ahead", "second_ahead"],
    )
    PairRecord.objects.bulk_create(
        record for record in records.values() if not record.pk and record.matches
    )


def _streak(data: dict[str, Any], won: bool) -> None:
    """A player's streaks after a result later than all of theirs."""
    data["current"] = data["current"] + 1 if won else 0
    data["longest"] = max(data["longest"], data["current"])


def _apply_players(results: list[SeatResult], sign: int) -> None:
    """Add or take away one match's results to the records of its players.

    A player's streaks move on when the match is their latest; otherwise (or when it is
    taken away) they are counted again from the player's results.
    """
    first = results[0]
    info = GAMES[first.game]
    by_player = {result.player_id: result for result in results}
    records = {
        record.player_id: record
        for record in PlayerRecord.objects.filter(player__in=by_player)
    }
    recount = set(by_player) if sign < 0 else set(
        SeatResult.objects.filter(player__in=by_player).exclude(match_id=first.match_id)
        .filter(Q(date__gt=first.date)
                | Q(date=first.date, started_at__gt=first.started_at)
                | Q(date=first.date, started_at=first.started_at, match_id__gt=first.match_id))
        .values_list("player_id", flat=True).distinct()
    )
    extremes: set[int] = set()
    for player_id, result in by_player.items():
        record = records.setdefault(player_id, PlayerRecord(
            player_id=player_id, data={"games": [], "months": [], "longest": 0, "current": 0}
        ))
        data = record.data
        games = {line[0]: line for line in data["games"]}
        line = games.setdefault(first.game, [first.game, 0, 0, 0, result.total, result.total])
        line[1] += sign
        line[2] += sign * int(result.is_winner)
        line[3] += sign * result.total
        if sign > 0:
            low, high = min(line[4], line[5], result.total), max(line[4], line[5], result.total)
            line[4], line[5] = (low, high) if info.lower_is_better else (high, low)
        elif not line[1]:
            del games[first.game]
        elif result.total in (line[4], line[5]):
            extremes.add(player_id)
        data["games"] = [games[slug] for slug in GAMES if slug in games]
        months = {month: [month, count, wins] for month, count, wins in data["months"]}
        month = months.setdefault(first.date.isoformat()[:7], [first.date.isoformat()[:7], 0, 0])
        month[1] += sign
        month[2] += sign * int(result.is_winner)
        if not month[1]:
            del months[month[0]]
        data["months"] = sorted(months.values())
        if player_id not in recount:
            _streak(data, result.is_winner)
    if extremes:
        for player_id, low, high in (
            SeatResult.objects.filter(player__in=extremes, game=first.game)
            .values("player_id").annotate(low=Min("total"), high=Max("total"))
            .values_list("player_id", "low", "high").order_by()
        ):
            line = next(line for line in records[player_id].data["games"]
                        if line[0] == first.game)
            line[4], line[5] = (low, high) if info.lower_is_better else (high, low)
    if recount:
        for record in records.values():
            if record.player_id in recount:
                record.data["longest"] = record.data["current"] = 0
        flags = (
            SeatResult.objects.filter(player__in=recount)
            .order_by("player_id", "date", "started_at", "match_id")
            .values_list("player_id", "is_winner")
        )
        # All of these players' results in order, streamed in chunks (no model instances).
        for player_id, won in flags.iterator(chunk_size=2000):
            _streak(records[player_id].data, bool(won))
    PlayerRecord.objects.filter(
        pk__in=[record.pk for record in records.values()
                if record.pk and not record.data["games"]]
    ).delete()
    PlayerRecord.objects.bulk_update(
        [record for record in records.values() if record.pk and record.data["games"]],
        ["data"],
    )
    PlayerRecord.objects.bulk_create(
        record for record in records.values() if not record.pk and record.data["games"]
    )


def _apply(results: list[SeatResult], sign: int) -> None:
    if results:
        _apply_game(results, sign)
        _apply_pairs(results, sign)
        _apply_players(results, sign)


def match_results_update(*, match: Match, counts: bool | None = None) -> None:
    """Bring the statistics in step with ``match``: its results written if it is finished,
    dropped if not (or, with ``counts=False``, whatever its status: before it is deleted).

    Runs inside the caller's transaction, after the seats' totals are written. The
    records change by this one match's results (a fixed number of queries, the work
    grows with the match's players, not with the history); only a player's streaks,
    when the match is not their latest, are counted again from their results.
    """
    counted = match.status == FINISHED if counts is None else counts
    dropped = list(SeatResult.objects.filter(match=match).order_by("number"))
    if not dropped and not counted:
        return
    with transaction.atomic():
        _lock_group(match.group_id)
        if dropped:
            SeatResult.objects.filter(match=match).delete()
            _apply(dropped, -1)
        if counted:
            _apply(SeatResult.objects.bulk_create(_build([match])), 1)
        ratings_match_changed(match=match)


def match_counted(*, match: Match, delta: int) -> None:
    """The group's number of matches of the match's game, changed by ``delta`` (1: the
    match was started, -1: it is about to be deleted); inside the caller's transaction."""
    counts = GameCount.objects.filter(group_id=match.group_id, game=match.game)
    if counts.update(matches=F("matches") + delta) or delta < 0:
        return
    try:
        with transaction.atomic():  # the group's first match of this game
            GameCount.objects.create(group_id=match.group_id, game=match.game, matches=delta)
    except IntegrityError:  # started at the same moment as another one, which created it
        counts.update(matches=F("matches") + delta)


def _recount(group_id: int) -> None:
    """The group's :class:`GameCount` rows counted afresh from its matches."""
    GameCount.objects.filter(group_id=group_id).delete()
    GameCount.objects.bulk_create(
        GameCount(group_id=group_id, game=game, matches=n)
        for game, n in Match.objects.filter(group_id=group_id).values_list("game")
        .annotate(n=Count("id")).order_by()
    )


def _add_games(group_id: int, results: list[SeatResult]) -> None:
    """Add a batch of new matches' results to their games' records (additive: the
    lines and tallies summed, the best score looked up; a query or two per game)."""
    by_game: dict[str, list[SeatResult]] = defaultdict(list)
    for result in results:
        by_game[result.game].append(result)
    for game, rows in by_game.items():
        record = GameRecord.objects.filter(group_id=group_id, game=game).first() or GameRecord(
            group_id=group_id, game=game, matches=0, deals=0, data={"lines": [], "tallies": {}})
        deals = {result.match_id: result.deals for result in rows}
        record.matches += len(deals)
        record.deals += sum(deals.values())
        lines = {line[0]: line for line in record.data["lines"]}
        tallies = {int(pk): tally for pk, tally in record.data["tallies"].items()}
        for result in rows:
            line = lines.setdefault(result.player_id, [result.player_id, 0, 0, 0])
            line[1] += 1
            line[2] += int(result.is_winner)
            line[3] += result.total
            if result.tally.get("entries"):
                _add_to(tallies.setdefault(result.player_id, {}), result.tally, 1)
        record.data = {
            "lines": sorted(lines.values()),
            "tallies": {str(pk): tally for pk, tally in sorted(tallies.items())},
            "best": _best(group_id, game),
        }
        record.save()


def _add_pairs(results: list[SeatResult]) -> None:
    """Add a batch of new matches' results to the head-to-head records of their players
    (one read, one write of the pairs concerned)."""
    by_match: dict[int, list[SeatResult]] = defaultdict(list)
    for result in results:
        by_match[result.match_id].append(result)
    deltas: dict[tuple[int, int, str], list[int]] = {}
    for rows in by_match.values():
        by_player = {result.player_id: result for result in rows}
        for low, high in combinations(sorted(by_player), 2):
            delta = deltas.setdefault((low, high, rows[0].game), [0, 0, 0])
            first, second = by_player[low].place, by_player[high].place
            delta[0] += 1
            if first is not None and second is not None:
                delta[1] += first < second
                delta[2] += first > second
    players = {result.player_id for result in results}
    records = {
        (record.first_id, record.second_id, record.game): record
        for record in PairRecord.objects.filter(
            first__in=players, second__in=players, game__in={key[2] for key in deltas})
    }
    new = []
    for (low, high, game), (matches, first_ahead, second_ahead) in deltas.items():
        record = records.get((low, high, game))
        if record is None:
            record = PairRecord(first_id=low, second_id=high, game=game, matches=0,
                                first_ahead=0, second_ahead=0)
            new.append(record)
        record.matches += matches
        record.first_ahead += first_ahead
        record.second_ahead += second_ahead
    PairRecord.objects.bulk_update(list(records.values()),
                                   ["matches", "first_ahead", "second_ahead"])
    PairRecord.objects.bulk_create(new)


def _add_players(results: list[SeatResult]) -> None:
    """Add a batch of new matches' results to their players' records: games and months
    summed; the streaks moved on when the batch is later than all of a player's other
    results, else counted again from the player's results (one column, in order)."""
    by_player: dict[int, list[SeatResult]] = defaultdict(list)
    for result in results:
        by_player[result.player_id].append(result)
    records = {record.player_id: record
               for record in PlayerRecord.objects.filter(player__in=by_player)}
    first = min(results, key=lambda result: (result.date, result.started_at, result.match_id))
    # Whose other results come after the batch's first one (then the order is not plain).
    recount = set(
        SeatResult.objects.filter(player__in=by_player)
        .exclude(match_id__in={result.match_id for result in results})
        .filter(Q(date__gt=first.date)
                | Q(date=first.date, started_at__gt=first.started_at)
                | Q(date=first.date, started_at=first.started_at, match_id__gt=first.match_id))
        .values_list("player_id", flat=True).distinct()
    )
    for player_id, rows in by_player.items():
        rows.sort(key=lambda result: (result.date, result.started_at, result.match_id))
        record = records.setdefault(player_id, PlayerRecord(
            player_id=player_id, data={"games": [], "months": [], "longest": 0, "current": 0}
        ))
        data = record.data
        games = {line[0]: line for line in data["games"]}
        months = {month: [month, count, wins] for month, count, wins in data["months"]}
        for result in rows:
            line = games.setdefault(result.game,
                                    [result.game, 0, 0, 0, result.total, result.total])
            line[1] += 1
            line[2] += int(result.is_winner)
            line[3] += result.total
            low, high = min(line[4], line[5], result.total), max(line[4], line[5], result.total)
            line[4], line[5] = (low, high) if GAMES[result.game].lower_is_better else (high, low)
            month = months.setdefault(result.date.isoformat()[:7],
                                      [result.date.isoformat()[:7], 0, 0])
            month[1] += 1
            month[2] += int(result.is_winner)
            if player_id not in recount:
                _streak(data, result.is_winner)
        data["games"] = [games[slug] for slug in GAMES if slug in games]
        data["months"] = sorted(months.values())
    if recount:
        for player_id in recount:
            records[player_id].data["longest"] = records[player_id].data["current"] = 0
        flags = (
            SeatResult.objects.filter(player__in=recount)
            .order_by("player_id", "date", "started_at", "match_id")
            .values_list("player_id", "is_winner")
        )
        for player_id, won in flags.iterator(chunk_size=2000):
            _streak(records[player_id].data, bool(won))
    PlayerRecord.objects.bulk_update([record for record in records.values() if record.pk],
                                     ["data"])
    PlayerRecord.objects.bulk_create(record for record in records.values() if not record.pk)


def matches_added(*, group_id: int, matches: list[Match]) -> int:
    """The statistics of finished ``matches`` just added to the group (a batch of a BG
    Stats import): their results written, added to the records of their players, pairs
    and games and to the group's matches per game, the ratings replayed from the oldest
    one's night on. Inside the caller's transaction, which stores the matches: a batch
    and its statistics are committed together, so the statistics are whole after every
    batch (a process that dies between two leaves a smaller import, nothing stale).

    The records grow by the batch (a few queries, however long the history); only a
    player with results played after the batch's first one has their streaks counted again
    (one column of their results), and the ratings are replayed from that night: an
    import that sends its plays oldest first replays little more than the batch. Returns
    the number of results written."""
    if not matches:
        return 0
    _lock_group(group_id)
    results = SeatResult.objects.bulk_create(_build(matches), batch_size=1000)
    if not results:
        return 0
    _add_games(group_id, results)
    _add_pairs(results)
    _add_players(results)
    _recount(group_id)
    ratings_replay_since(group_id=group_id, since=min(result.date for result in results))
    return len(results)


def night_results_update(*, night: GameNight) -> None:
    """After a night's date changed: its matches' results carry the new date."""
    changed = SeatResult.objects.filter(match__game_night=night).exclude(date=night.date)
    players, games = set(), set()
    for player_id, game in changed.values_list("player_id", "game"):
        players.add(player_id)
        games.add(game)
    if players:
        with transaction.atomic():
            _lock_group(night.group_id)
            SeatResult.objects.filter(match__game_night=night).update(date=night.date)
            # The order played and the months change: the players' records afresh, and
            # the games' best scores (their date, and which comes first in a tie).
            _refresh_players(players)
            for record in GameRecord.objects.filter(group_id=night.group_id, game__in=games):
                record.data["best"] = _best(night.group_id, record.game)
                record.save(update_fields=["data"])
            ratings_night_moved(night=night)
            results_dates_changed(night.group_id)  # at worst read afresh once too often


def results_rebuild(
    *, group: Group | None = None, counts: bool = True, ratings: bool = True
) -> int:
    """Compute the results and records of ``group`` (None: of every group) afresh, and
    with ``counts`` its matches per game (:class:`GameCount`), with ``ratings`` its
    skill ratings (``companion.services.ratings``); returns the number of results written.

    Reads only the columns it needs (the data migration that filled the tables for
    existing databases runs it too, without ``counts``: that table came later).
    """
    groups = (
        [group.pk] if group is not None
        else list(Group.objects.order_by("pk").values_list("pk", flat=True))
    )
    written = 0
    for group_id in groups:
        with transaction.atomic():
            written += _rebuild(group_id)
            if counts:
                _recount(group_id)
            if ratings:
                ratings_rebuild(group_id=group_id)
    return written


def results_rebuild_hidden(*, group: Group) -> int:
    """:func:`results_rebuild` for a new group that nobody sees yet (an import writes it,
    its owner's membership comes last): the same rows, but written in many short
    transactions instead of one, so that phones of other groups never wait long for
    SQLite's write lock. Nobody else reads or writes the group meanwhile, so no lock on
    it is needed; returns the number of results written."""
    matches = list(
        Match.objects.filter(group=group, status=FINISHED)
        .only("pk", "group_id", "game", "created_at").order_by("pk")
    )
    players: set[int] = set()
    written = 0
    per_transaction = REBUILD_BATCH  # a tenth of a second of reading and inserting
    for start in range(0, len(matches), per_transaction):
        chunk = matches[start:start + per_transaction]
        built = [result for part in range(0, len(chunk), REBUILD_BATCH)
                 for result in _build(chunk[part:part + REBUILD_BATCH])]
        with transaction.atomic():
            results = SeatResult.objects.bulk_create(built, batch_size=1000)
        let_others_write()
        written += len(results)
        players.update(result.player_id for result in results)
    # Each of these reads first, then writes a few rows (a transaction of its own).
    if players:
        _refresh_players(players)
        _refresh_pairs(players, list(GAMES))
        _refresh_games(group.pk, list(GAMES))
    with transaction.atomic():
        _recount(group.pk)
    ratings_rebuild_hidden(group_id=group.pk)
    return written


def _rebuild(group_id: int) -> int:
    SeatResult.objects.filter(group_id=group_id).delete()
    PlayerRecord.objects.filter(player__group_id=group_id).delete()
    PairRecord.objects.filter(first__group_id=group_id).delete()
    GameRecord.objects.filter(group_id=group_id).delete()
    matches = list(
        Match.objects.filter(group_id=group_id, status=FINISHED)
        .only("pk", "group_id", "game", "created_at").order_by("pk")
    )
    players: set[int] = set()
    written = 0
    for start in range(0, len(matches), REBUILD_BATCH):
        results = SeatResult.objects.bulk_create(
            _build(matches[start:start + REBUILD_BATCH]), batch_size=1000
        )
        written += len(results)
        players.update(result.player_id for result in results)
    if players:
        _refresh(group_id, list(GAMES), players)
    return written


__all__ = [
    "match_counted",
    "match_results_update",
    "matches_added",
    "night_results_update",
    "results_rebuild",
    "results_rebuild_hidden",
]
