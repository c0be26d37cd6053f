"""Skill ratings (companion.services.ratings, companion.selectors.ratings): the model's
behaviour on ties and many players, and the stored ratings against a recomputation
after random histories played through the services."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from companion.models import (
    GameNight,
    Group,
    Match,
    Player,
    Rating,
    RatingStep,
    Seat,
    SeatResult,
)
from companion.selectors.ratings import leaderboard, match_rating_changes, player_ratings
from companion.services import deals as deal_services
from companion.services import matches as match_services
from companion.services.groups import game_night_update
from companion.services.ratings import (
    Played,
    is_provisional,
    ordinal,
    ratings_rebuild,
    replay,
)
from companion.services.results import results_rebuild
from scoring import GAMES
from scoring.common import rules_for

T0 = dt.datetime(2026, 3, 5, 19, tzinfo=dt.UTC)


def _values(places: tuple[int, ...], game: str = "x-nimmt") -> list[float]:
    """The ordinals of fresh players after one match with ``places`` (seat order)."""
    states: dict[tuple[int, str], Any] = {}
    players = tuple(range(1, len(places) + 1))
    replay([Played(1, game, T0.date(), T0, players, places)], states)
    return [ordinal(*states[player, game][:2]) for player in players]


def test_the_winner_gains_and_the_loser_loses() -> None:
    winner, loser = _values((1, 2))
    assert winner > 0 > loser


def test_a_tie_for_first_keeps_both_winners_ahead_of_the_third() -> None:
    # openskill's Plackett-Luce gives the third as much as the winners here (see the module).
    first, second, third, fourth = _values((1, 1, 3, 4))
    assert first == second > third > fourth


def test_tied_players_get_the_same_rating_wherever_they_sit() -> None:
    first, second, third, fourth = _values((1, 2, 2, 4))
    assert second == third
    assert first > second > fourth


def test_a_tie_of_everybody_leaves_the_estimates_where_they_were() -> None:
    states: dict[tuple[int, str], Any] = {}
    replay([Played(1, "freaky", T0.date(), T0, (1, 2, 3), (1, 1, 1))], states)
    assert {round(states[p, "freaky"][0], 9) for p in (1, 2, 3)} == {25.0}
    assert all(states[p, "freaky"][1] < 25 / 3 for p in (1, 2, 3))  # yet more certain


def test_seven_players_are_rated_in_the_order_of_their_places() -> None:
    values = _values((3, 1, 7, 2, 5, 4, 6), game="elf-nimmt")
    by_place = [values[i] for i in (1, 3, 0, 5, 4, 6, 2)]
    assert by_place == sorted(by_place, reverse=True)


def test_the_same_history_gives_the_same_numbers_every_time() -> None:
    rng = random.Random(5)
    played = []
    for number in range(200):
        seated = tuple(rng.sample(range(1, 9), rng.randint(2, 6)))
        places = tuple(sorted(rng.randint(1, len(seated)) for _ in seated))
        played.append(Played(number, rng.choice(list(GAMES)), T0.date(), T0, seated, places))
    first: dict[tuple[int, str], Any] = {}
    second: dict[tuple[int, str], Any] = {}
    assert replay(played, first) == replay(played, second)
    assert first == second


def test_a_rating_is_provisional_until_five_matches_and_a_small_enough_sigma() -> None:
    assert is_provisional(4.0, 4)
    assert is_provisional(6.1, 20)
    assert not is_provisional(5.9, 5)


# --- Stored ratings against a recomputation -------------------------------------------------

NAMES = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fiona"]


def _play(group: Group, night: GameNight, game: str, seated: list[Player],
          rng: random.Random, user: User, *, finish: bool = True) -> Match:
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


def _history(seed: int, matches: int) -> tuple[Group, User, list[GameNight], random.Random]:
    rng = random.Random(seed)
    user = User.objects.create_user(f"keeper{seed}", password="a-long-password-1")
    group = Group.objects.create(name=f"Runde {seed}", owner=user)
    players = [Player.objects.create(group=group, name=name) for name in NAMES]
    nights = [
        GameNight.objects.create(group=group, date=dt.date(2025, 1, 1) + dt.timedelta(days=d))
        for d in rng.sample(range(0, 500), 5)  # later matches land on older nights too
    ]
    for _ in range(matches):
        game = rng.choice(list(GAMES))
        info = GAMES[game]
        count = rng.randint(info.min_players, min(info.max_players, len(players)))
        _play(group, rng.choice(nights), game, rng.sample(players, count), rng, user)
    return group, user, nights, rng


def _stored(group: Group) -> dict[str, list[tuple[Any, ...]]]:
    return {
        "ratings": sorted(Rating.objects.filter(group=group).values_list(
            "player_id", "game", "mu", "sigma", "matches")),
        "steps": sorted(RatingStep.objects.filter(group=group).values_list(
            "match_id", "player_id", "game", "date", "started_at",
            "game_mu_before", "game_sigma_before", "game_mu", "game_sigma", "game_matches",
            "all_mu_before", "all_sigma_before", "all_mu", "all_sigma", "all_matches")),
    }


def _as_recomputed(group: Group) -> None:
    kept = _stored(group)
    ratings_rebuild(group_id=group.pk)
    assert _stored(group) == kept  # exactly: the same floats, bit for bit


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2])
def test_the_stored_ratings_equal_a_recomputation_after_any_changes(seed: int) -> None:
    group, user, nights, rng = _history(seed, 16)
    _as_recomputed(group)

    finished = list(Match.objects.filter(group=group).order_by("pk"))
    reopened = rng.sample(finished, 4)
    for match in reopened:
        match_services.match_reopen(match=match, user=user)
    _as_recomputed(group)
    match_services.match_finish(match=reopened[0], user=user)
    match_services.match_delete(match=reopened[1], user=user)
    match_services.match_abandon(match=reopened[2], user=user)
    match_services.match_delete(match=rng.choice(finished[4:]), user=user)
    game_night_update(night=nights[0], date=dt.date(2024, 6, 1))
    game_night_update(night=nights[1], date=dt.date(2027, 6, 1))
    players = list(group.players.all())
    _play(group, nights[2], "x-nimmt", players[:4], rng, user, finish=False)
    _play(group, nights[3], "dreizehn", players[1:4], rng, user)
    _as_recomputed(group)
    finished_now = Match.objects.filter(group=group, status=Match.Status.FINISHED)
    assert RatingStep.objects.filter(group=group).count() == (
        Seat.objects.filter(match__in=finished_now).count()
    )
    # Written with a plain INSERT, read back as the ORM writes them: the same dates.
    fields = ("match_id", "player_id", "game", "date", "started_at")
    assert set(RatingStep.objects.filter(group=group).values_list(*fields)) == set(
        SeatResult.objects.filter(group=group).values_list(*fields))


@pytest.mark.django_db
def test_abandoned_and_running_matches_are_not_rated() -> None:
    group, user, nights, rng = _history(3, 0)
    players = list(group.players.all())
    running = _play(group, nights[0], "freaky", players[:3], rng, user, finish=False)
    abandoned = _play(group, nights[0], "freaky", players[:3], rng, user, finish=False)
    match_services.match_abandon(match=abandoned, user=user)

    assert not RatingStep.objects.filter(match__in=[running, abandoned]).exists()
    assert not Rating.objects.filter(group=group).exists()


@pytest.mark.django_db
def test_a_match_finished_on_the_latest_night_rates_only_that_night() -> None:
    group, user, nights, rng = _history(4, 12)
    latest = max(nights, key=lambda night: night.date)
    players = list(group.players.all())
    match = _play(group, latest, "dreizehn", players[:4], rng, user, finish=False)

    with CaptureQueriesContext(connection) as queries:
        match_services.match_finish(match=match, user=user)

    rating_queries = [q["sql"] for q in queries if "ratingstep" in q["sql"].lower()]
    assert len(rating_queries) <= 3  # read the night's steps, drop them, write them
    _as_recomputed(group)


@pytest.mark.django_db
def test_the_leaderboard_marks_provisional_ratings_and_shows_the_last_change() -> None:
    group, user, nights, rng = _history(6, 0)
    anna, ben, cem = list(group.players.order_by("pk"))[:3]
    for _ in range(5):
        _play(group, nights[0], "freaky", [anna, ben], rng, user)
    _play(group, nights[1], "freaky", [anna, cem], rng, user)

    board = leaderboard(group, game="freaky")

    lines = {line.name: line for line in board.lines}
    assert lines["Cem"].provisional and lines["Cem"].matches == 1
    assert lines["Anna"].matches == 6
    last = RatingStep.objects.filter(player=anna, game="freaky").order_by(
        "-date", "-started_at", "-match_id").first()
    assert last is not None
    assert lines["Anna"].change == pytest.approx(
        ordinal(last.game_mu, last.game_sigma) - ordinal(last.game_mu_before,
                                                         last.game_sigma_before)
    )
    ranked = [line for line in board.lines if line.place is not None]
    assert all(not line.provisional for line in ranked)
    assert [line.value for line in ranked] == sorted((line.value for line in ranked),
                                                     reverse=True)


@pytest.mark.django_db
def test_a_match_shows_each_players_change_in_its_game_and_in_all_games() -> None:
    group, user, nights, rng = _history(8, 3)
    players = list(group.players.order_by("pk"))[:3]
    match = _play(group, nights[4], "dreizehn", players, rng, user)

    changes = match_rating_changes(match)

    assert set(changes) == {player.pk for player in players}
    winner = Seat.objects.filter(match=match, place=1).first()
    assert winner is not None
    step = RatingStep.objects.get(match=match, player_id=winner.player_id)
    assert changes[winner.player_id].game == pytest.approx(
        ordinal(step.game_mu, step.game_sigma) - ordinal(step.game_mu_before,
                                                         step.game_sigma_before)
    )
    assert changes[winner.player_id].game > 0


@pytest.mark.django_db
def test_a_players_ratings_list_every_game_they_played_and_all_games() -> None:
    group, user, nights, rng = _history(9, 0)
    anna, ben = list(group.players.order_by("pk"))[:2]
    _play(group, nights[0], "freaky", [anna, ben], rng, user)
    _play(group, nights[0], "x-nimmt", [anna, ben], rng, user)

    lines = player_ratings(anna)

    assert [line.game for line in lines] == ["x-nimmt", "freaky", ""]
    assert lines[-1].matches == 2


@pytest.mark.django_db
def test_a_group_rebuild_recomputes_the_ratings_too() -> None:
    group, _user, _nights, _rng = _history(10, 6)
    kept = _stored(group)
    RatingStep.objects.filter(group=group).delete()
    Rating.objects.filter(group=group).delete()

    results_rebuild(group=group)

    assert _stored(group) == kept


@pytest.mark.django_db
def test_an_imported_match_cannot_be_reopened() -> None:
    group, user, nights, _rng = _history(12, 0)
    match = Match.objects.create(group=group, game_night=nights[0], game="freaky",
                                 status=Match.Status.FINISHED, source=Match.Source.BGSTATS,
                                 external_id="play-1")

    with pytest.raises(ValidationError) as caught:
        match_services.match_reopen(match=match, user=user)

    assert caught.value.code == "imported"
