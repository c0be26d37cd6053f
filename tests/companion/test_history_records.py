"""The statistics kept per finished match (companion.services.results) against the same
statistics computed from scratch (tests/companion/history_reference.py, the pages'
computation before the records), over random histories played through the services:
matches finished, reopened and finished again, abandoned, deleted, played on an older
night later, a night's date moved, a group imported."""

from __future__ import annotations

import datetime as dt
import json
import random
from itertools import combinations
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from companion.models import (
    GameCount,
    GameNight,
    GameRecord,
    Group,
    Match,
    PairRecord,
    Player,
    PlayerRecord,
    SeatResult,
)
from companion.selectors import history
from companion.services import deals as deal_services
from companion.services import matches as match_services
from companion.services.groups import game_night_update
from companion.services.results import results_rebuild
from companion.services.transfer.export import group_export_json
from companion.services.transfer.importer import group_import
from scoring import GAMES
from scoring.common import rules_for
from tests.companion import history_reference as reference

NAMES = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fiona"]


def _play(group: Group, night: GameNight, game: str, seated: list[Player],
          rng: random.Random, user: User, *, finish: bool = True) -> Match:
    """A complete random game of ``game`` recorded deal by deal as the score sheet does."""
    match = match_services.match_start(group=group, game=game, players=seated, game_night=night,
                                 user=user)
    rules = rules_for(game)
    played = rules.random_game(len(seated), rng)
    by_name = {f"P{index}": player for index, player in enumerate(seated, 1)}
    for number, deal in enumerate(played.deals, 1):
        entries = {by_name[name].pk: rules.entry_to_dict(entry) for name, entry in deal.items()}
        deal_services.deal_record(match=match, number=number, entries=entries, user=user)
    if finish:
        match_services.match_finish(match=match, user=user)
    return match


def _history(seed: int, matches: int) -> tuple[Group, User, list[GameNight]]:
    rng = random.Random(seed)
    user = User.objects.create_user(f"keeper{seed}", password="a-long-password-1")
    group = Group.objects.create(name=f"Runde {seed}", owner=user)
    players = [Player.objects.create(group=group, name=name) for name in NAMES]
    nights = [
        GameNight.objects.create(group=group, date=dt.date(2025, 1, 1) + dt.timedelta(days=d))
        for d in rng.sample(range(0, 500), 6)  # later matches land on older nights too
    ]
    slugs = list(GAMES)
    for _ in range(matches):
        game = rng.choice(slugs)
        info = GAMES[game]
        count = rng.randint(info.min_players, min(info.max_players, len(players)))
        _play(group, rng.choice(nights), game, rng.sample(players, count), rng, user)
    return group, user, nights


def _same_everywhere(group: Group) -> None:
    """Every player page, every two players' head-to-head and every game page agree, and
    so do the finished matches per game beside the statistics links (counted from the
    matches)."""
    players = list(group.players.order_by("pk"))
    assert [(info.slug, n) for info, n in history.games_played(group)] == [
        (slug, Match.objects.filter(group=group, game=slug,
                                    status=Match.Status.FINISHED).count()) for slug in GAMES
    ]
    for player in players:
        assert history.player_stats(player) == reference.player_stats(player)
    for first, second in combinations(players, 2):
        assert history.head_to_head(first, second) == reference.head_to_head(first, second)
        assert history.head_to_head(second, first) == reference.head_to_head(second, first)
    for game in GAMES:
        for minimum in (1, 3):
            assert history.game_stats(group, game, min_matches=minimum) == (
                reference.game_stats(group, game, min_matches=minimum)
            )


def _records(group: Group) -> dict[str, Any]:
    """The group's kept rows, comparable (no ids of their own)."""
    return {
        "results": sorted(SeatResult.objects.filter(group=group).values_list(
            "match_id", "seat_id", "player_id", "game", "date", "started_at", "number",
            "players", "total", "place", "is_winner", "deals", "worst_score", "worst_deal",
        )),
        "tallies": sorted(
            (match_id, player_id, sorted(tally.items()))
            for match_id, player_id, tally in SeatResult.objects.filter(group=group)
            .values_list("match_id", "player_id", "tally")
        ),
        "players": sorted(
            (player_id, json.dumps(data, sort_keys=True)) for player_id, data in
            PlayerRecord.objects.filter(player__group=group).values_list("player_id", "data")
        ),
        "pairs": sorted(PairRecord.objects.filter(first__group=group).values_list(
            "first_id", "second_id", "game", "matches", "first_ahead", "second_ahead"
        )),
        "games": sorted(
            (game, matches, deals, json.dumps(data, sort_keys=True))
            for game, matches, deals, data in GameRecord.objects.filter(group=group)
            .values_list("game", "matches", "deals", "data")
        ),
        "counts": sorted(  # a game whose last match was deleted may keep a row of 0
            GameCount.objects.filter(group=group, matches__gt=0).values_list("game", "matches")
        ),
    }


def _kept_as_from_scratch(group: Group) -> None:
    kept = _records(group)
    results_rebuild(group=group)
    assert _records(group) == kept


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_kept_statistics_match_the_statistics_computed_from_scratch(seed: int) -> None:
    group, user, nights = _history(seed, 24)
    rng = random.Random(seed)
    _same_everywhere(group)
    _kept_as_from_scratch(group)

    finished = list(Match.objects.filter(group=group).order_by("pk"))
    reopened = rng.sample(finished, 4)
    for match in reopened:
        match_services.match_reopen(match=match, user=user)
    _same_everywhere(group)  # reopened matches count no more
    match_services.match_finish(match=reopened[0], user=user)
    match_services.match_delete(match=reopened[1], user=user)
    match_services.match_abandon(match=reopened[2], user=user)
    match_services.match_delete(match=rng.choice(finished[4:]), user=user)
    game_night_update(night=nights[0], date=dt.date(2024, 6, 1))
    game_night_update(night=nights[1], date=dt.date(2027, 6, 1))
    players = list(group.players.all())
    _play(group, nights[2], "x-nimmt", players[:4], rng, user, finish=False)
    _play(group, nights[3], "dreizehn", players[1:4], rng, user)
    _same_everywhere(group)
    _kept_as_from_scratch(group)
    assert SeatResult.objects.filter(group=group).count() == sum(
        m.seats.count() for m in Match.objects.filter(group=group, status="finished")
    )


@pytest.mark.django_db
def test_an_imported_group_has_its_statistics_at_once() -> None:
    group, user, _nights = _history(7, 10)

    imported = group_import(user=user, content=group_export_json(group))

    assert SeatResult.objects.filter(group=imported).count() == (
        SeatResult.objects.filter(group=group).count()
    )
    _same_everywhere(imported)
    _kept_as_from_scratch(imported)


def _page_queries(group: Group) -> list[int]:
    first, second = group.players.order_by("pk")[:2]
    counts = []
    for read in (
        lambda: history.player_stats(first),
        lambda: history.head_to_head(first, second),
        *(lambda game=game: history.game_stats(group, game) for game in GAMES),
        lambda: history.games_played(group),
    ):
        with CaptureQueriesContext(connection) as queries:
            read()
        counts.append(len(queries))
    return counts


@pytest.mark.django_db
def test_the_statistics_read_the_same_number_of_queries_however_long_the_history() -> None:
    group, user, nights = _history(11, 0)
    rng = random.Random(11)
    players = list(group.players.all())
    for game, info in GAMES.items():  # one match of each game
        _play(group, nights[0], game, players[:info.min_players], rng, user)
    short = _page_queries(group)
    for _ in range(10):
        game = rng.choice(list(GAMES))
        info = GAMES[game]
        count = rng.randint(info.min_players, min(info.max_players, len(players)))
        _play(group, rng.choice(nights), game, rng.sample(players, count), rng, user)

    # game_stats: the record, the worst deals, the roster, the matches without deals.
    assert _page_queries(group) == short == [2, 1, *(4 for _ in GAMES), 1]


@pytest.mark.django_db
def test_finishing_a_match_writes_its_records_in_the_same_queries_however_long_the_history(
) -> None:
    group, user, nights = _history(12, 3)
    players = list(group.players.order_by("pk"))

    def finish_queries() -> int:
        match = _play(group, nights[0], "freaky", players[:4], random.Random(1), user,
                      finish=False)
        with CaptureQueriesContext(connection) as queries:
            match_services.match_finish(match=match, user=user)
        return len(queries)

    first = finish_queries()
    for _ in range(8):
        finish_queries()

    assert finish_queries() == first


@pytest.mark.django_db
def test_the_data_migration_fills_the_records_of_matches_finished_before() -> None:
    group, _user, _nights = _history(13, 6)
    kept = _records(group)
    SeatResult.objects.all().delete()
    PlayerRecord.objects.all().delete()
    PairRecord.objects.all().delete()
    GameRecord.objects.all().delete()

    from importlib import import_module

    from django.apps import apps

    import_module("companion.migrations.0004_match_results").fill(apps, None)

    assert _records(group) == kept
    assert kept["results"] and kept["players"] and kept["pairs"] and kept["games"]


@pytest.mark.django_db
def test_the_data_migration_counts_the_matches_started_before() -> None:
    group, user, nights = _history(14, 5)
    _play(group, nights[0], "freaky", list(group.players.all())[:3], random.Random(14), user,
          finish=False)
    kept = _records(group)["counts"]
    GameCount.objects.all().delete()

    from importlib import import_module

    from django.apps import apps

    import_module("companion.migrations.0006_game_counts").count_matches(apps, None)

    assert _records(group)["counts"] == kept
    assert sum(n for _game, n in kept) == 6
