"""Long imports in short transactions (issue 30, item 6): a BG Stats import stores its
plays and their statistics a batch per transaction, and the statistics are whole after
every batch (the same as computed afresh), also when the import stops half-way; the
group import's statistics are written a few hundred matches per transaction."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction

from companion.models import (
    GameCount,
    GameNight,
    GameRecord,
    Group,
    Match,
    PairRecord,
    Player,
    PlayerRecord,
    Rating,
    RatingStep,
    SeatResult,
)
from companion.services import bgstats as bgstats_services
from companion.services import deals as deal_services
from companion.services import matches as match_services
from companion.services import results
from companion.services.transfer.export import group_export_json
from companion.services.transfer.importer import group_import
from scoring.common import rules_for

EXPORT = Path(__file__).parent / "data" / "BGStatsExport.json"


def statistics(group: Group) -> dict[str, Any]:
    """Everything the statistics of ``group`` hold, comparable across two computations."""
    return {
        "results": sorted(SeatResult.objects.filter(group=group).values_list(
            "match_id", "player_id", "date", "total", "place", "is_winner", "deals", "tally")),
        "players": sorted(PlayerRecord.objects.filter(player__group=group).values_list(
            "player_id", "data")),
        "pairs": sorted(PairRecord.objects.filter(first__group=group).values_list(
            "first_id", "second_id", "game", "matches", "first_ahead", "second_ahead")),
        "games": sorted(GameRecord.objects.filter(group=group).values_list(
            "game", "matches", "deals", "data")),
        "counts": sorted(GameCount.objects.filter(group=group).values_list("game", "matches")),
        "ratings": sorted((player, game, round(mu, 9), round(sigma, 9), matches)
                          for player, game, mu, sigma, matches in Rating.objects.filter(
                              group=group).values_list("player_id", "game", "mu", "sigma",
                                                       "matches")),
        "steps": sorted((match, player, game, round(mu, 9))
                        for match, player, game, mu in RatingStep.objects.filter(
                            group=group).values_list("match_id", "player_id", "game",
                                                     "game_mu")),
    }


def afresh(group: Group) -> dict[str, Any]:
    """The statistics of ``group`` computed afresh from its matches."""
    results.results_rebuild(group=group)
    return statistics(group)


@pytest.fixture
def played(group: Group, players: list[Player], anna: User) -> Group:
    """Three score sheet matches finished on nights between the file's plays (2025)."""
    rng = random.Random(3)
    for day in (dt.date(2024, 1, 5), dt.date(2025, 3, 8), dt.date(2026, 2, 1)):
        night = GameNight.objects.create(group=group, date=day)
        match = match_services.match_start(group=group, game="x-nimmt", players=players,
                                           game_night=night, user=anna)
        rules = rules_for("x-nimmt")
        by_name = {f"P{index}": player for index, player in enumerate(players, 1)}
        for number, deal in enumerate(rules.random_game(len(players), rng).deals, 1):
            deal_services.deal_record(
                match=match, number=number, user=anna,
                entries={by_name[name].pk: rules.entry_to_dict(entry)
                         for name, entry in deal.items()})
        match_services.match_finish(match=match, user=anna)
    return group


class Transactions:
    """The outermost transactions the code under test opened, each with the rows it
    inserted per table."""

    def __init__(self) -> None:
        self.base = len(connection.atomic_blocks)  # the test's own transaction
        self.rows: list[Counter[str]] = []

    def statement(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        words = sql.split(None, 3)
        if len(connection.atomic_blocks) > self.base and words[0].upper() == "INSERT":
            if many:
                rows = len(params)
            elif "UNNEST(" in sql.upper():  # PostgreSQL's bulk insert: a list per column
                rows = len(params[0])
            else:
                rows = sql.count("), (") + 1
            if not self.rows:
                self.rows.append(Counter())
            self.rows[-1][words[2].strip('"')] += rows
        return execute(sql, params, many, context)

    def most(self, table: str | None = None) -> int:
        """The most rows (of ``table``) one transaction inserted."""
        return max(sum(rows.values()) if table is None else rows[table] for rows in self.rows)


@pytest.fixture
def transactions(monkeypatch: pytest.MonkeyPatch) -> Iterator[Transactions]:
    watched = Transactions()
    enter = transaction.Atomic.__enter__

    def entered(self: Any) -> Any:
        if len(connection.atomic_blocks) == watched.base:
            watched.rows.append(Counter())
        return enter(self)

    monkeypatch.setattr(transaction.Atomic, "__enter__", entered)
    with connection.execute_wrapper(watched.statement):
        yield watched


@pytest.mark.django_db
def test_a_bgstats_import_writes_each_batch_with_its_statistics(
    played: Group, monkeypatch: pytest.MonkeyPatch, transactions: Transactions,
) -> None:
    from companion.bgstats import bgstats_plan

    monkeypatch.setattr(bgstats_services, "IMPORT_BATCH", 2)
    plan = bgstats_plan(EXPORT.read_bytes(), group=played)

    imported = bgstats_services.bgstats_import(group=played, plan=plan)

    assert imported.matches == 7
    # Four batches of at most two plays: no transaction writes the results of more than
    # two matches (of four seats at most), nor all the group's rating steps (each replays
    # from its batch's oldest night: its plays and the score sheet matches after them).
    assert transactions.most("companion_match") == 2
    assert transactions.most("companion_seatresult") <= 8
    assert transactions.most("companion_ratingstep") < RatingStep.objects.filter(
        group=played).count()
    monkeypatch.undo()
    assert statistics(played) == afresh(played)


@pytest.mark.django_db
def test_a_bgstats_import_stopped_between_two_batches_leaves_whole_statistics(
    played: Group, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from companion.bgstats import bgstats_plan

    monkeypatch.setattr(bgstats_services, "IMPORT_BATCH", 2)
    real, calls = bgstats_services._store, []

    def dies(*args: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise SystemExit("the worker was killed")
        return real(*args)

    monkeypatch.setattr(bgstats_services, "_store", dies)
    plan = bgstats_plan(EXPORT.read_bytes(), group=played)
    with pytest.raises(SystemExit):
        bgstats_services.bgstats_import(group=played, plan=plan)

    assert Match.objects.filter(group=played, source=Match.Source.BGSTATS).count() == 4
    assert statistics(played) == afresh(played)


@pytest.mark.django_db
def test_the_group_import_writes_its_statistics_a_few_hundred_matches_at_a_time(
    played: Group, anna: User, monkeypatch: pytest.MonkeyPatch, transactions: Transactions,
) -> None:
    monkeypatch.setattr(results, "REBUILD_BATCH", 1)

    copy = group_import(user=anna, content=group_export_json(played))

    assert transactions.most("companion_seatresult") == 3  # one match of three players
    monkeypatch.undo()
    transactions.rows.clear()
    assert statistics(copy) == afresh(copy)


@pytest.mark.django_db
@pytest.mark.parametrize("batch", [1, 3])
def test_a_bgstats_import_into_a_group_without_later_matches_moves_the_streaks_on(
    group: Group, monkeypatch: pytest.MonkeyPatch, batch: int,
) -> None:
    """Each batch is later than everything the group has (the streaks move on by the
    batch, or are counted again when a night is shared with the batch before): the
    records grow by the batch and end as computed afresh."""
    from companion.bgstats import bgstats_plan

    monkeypatch.setattr(bgstats_services, "IMPORT_BATCH", batch)
    bgstats_services.bgstats_import(group=group, plan=bgstats_plan(EXPORT.read_bytes(),
                                                                    group=group))
    monkeypatch.undo()
    assert statistics(group) == afresh(group)
