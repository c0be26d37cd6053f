"""The score sheet's services: record, edit, delete, undo, finish and reopen, per game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from companion.models import Deal, DealScore, GameNight, Group, Match, MatchChange, Player, Seat
from companion.services import deals as deal_services
from companion.services import live as live_services
from companion.services import matches as match_services
from companion.services import sheet as sheet_services
from scoring import ScoringError


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """Messages in English (German is the default language)."""
    with translation.override("en"):
        yield


def start(group: Group, players: list[Player], game: str, **kwargs: Any) -> Match:
    return match_services.match_start(group=group, game=game, players=players, **kwargs)


def entries(players: list[Player], *datas: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {player.pk: data for player, data in zip(players, datas, strict=True)}


def totals(match: Match) -> dict[str, tuple[int, int | None, bool]]:
    return {
        seat.player.name: (seat.total, seat.place, seat.is_winner)
        for seat in match.seats.select_related("player")
    }


# One valid deal per game for Anna, Ben, Cem, with the scores the rules give.
DEALS: dict[str, tuple[tuple[dict[str, Any], ...], tuple[int, int, int]]] = {
    # 5 + 2×9 = 23 (the rulebook's example); 3 + 2×0; 0 + 2×4.
    "x-nimmt": (({"hand": 5, "x_stack": 9}, {"hand": 3}, {"x_stack": 4}), (23, 3, 8)),
    # Hand cards 55 (7) + 10 (3) + 1 (1) = 11; Ben went out.
    "elf-nimmt": (
        ({"hand": 12}, {"went_out": True}, {"hand_cards": [55, 10, 1]}), (12, 0, 11)
    ),
    "freaky": (({"collected": 12}, {"collected": 4}, {"collected": 0}), (12, 4, 0)),
    # Anna: most yellow (spared) → 0 + red 2×1 = 2; Ben: 2 yellow + 3 green (most green,
    # spared) → 2; Cem: 1 yellow + 1 green + 4 blue (most blue) → 2.
    "dreizehn": (
        ({"yellow": 4, "red": 1}, {"yellow": 2, "green": 3}, {"yellow": 1, "green": 1, "blue": 4}),
        (2, 2, 2),
    ),
    # Anna: rot 2 open (5) + orange 1 open (1) = 6; Ben: rot 3 face down (−3) + orange 1
    # open (1) = −2; Cem: nothing = 0.
    "drei-sind-einer-zuviel": (
        ({"taken": {"rot": 2, "orange": 1}}, {"taken": {"rot": 3, "orange": 1}}, {"taken": {}}),
        (6, -2, 0),
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(DEALS))
def test_it_records_a_deal_with_the_engines_scores(
    group: Group, players: list[Player], game: str
) -> None:
    match = start(group, players, game)
    datas, expected = DEALS[game]
    deal = deal_services.deal_record(match=match, number=1, entries=entries(players, *datas))
    scores = {s.player.name: s.score for s in deal.scores.select_related("player")}
    assert scores == dict(zip(["Anna", "Ben", "Cem"], expected, strict=True))
    assert [s.total for s in match.seats.order_by("number")] == list(expected)
    assert MatchChange.objects.get(match=match).kind == MatchChange.Kind.RECORD


@pytest.mark.django_db
def test_it_stores_the_engines_entry_dict(group: Group, players: list[Player]) -> None:
    match = start(group, players, "x-nimmt")
    deal_services.deal_record(match=match, number=1, entries=entries(
        players, {"hand_cards": [55, 3]}, {"hand": 2}, {"x_stack_cards": [10]}
    ))
    stored = DealScore.objects.get(deal__match=match, player=players[0])
    assert stored.data == {"hand": 0, "x_stack": 0, "hand_cards": [55, 3], "x_stack_cards": None}
    assert stored.score == 8


@pytest.mark.django_db
def test_a_match_goes_into_todays_game_night_without_one(
    group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    again = start(group, players, "freaky")
    assert match.game_night == again.game_night
    assert GameNight.objects.filter(group=group).count() == 1
    assert list(match.seats.order_by("number").values_list("player__name", flat=True)) == [
        "Anna", "Ben", "Cem",
    ]


@pytest.mark.django_db
def test_it_enforces_the_engines_player_range(group: Group, players: list[Player]) -> None:
    with pytest.raises(ScoringError, match="13 is played by 3 to 6 players, not 2"):
        start(group, players[:2], "dreizehn")
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_it_keeps_places_shared_on_a_tie(group: Group, players: list[Player]) -> None:
    match = start(group, players, "freaky")
    deal_services.deal_record(match=match, number=1, entries=entries(
        players, {"collected": 8}, {"collected": 8}, {"collected": 4}
    ))
    match = match_services.match_finish(match=match)
    assert totals(match) == {"Anna": (8, 1, True), "Ben": (8, 1, True), "Cem": (4, 3, False)}


@pytest.mark.django_db
def test_it_edits_a_deal_and_the_totals_follow(group: Group, players: list[Player]) -> None:
    match = start(group, players, "x-nimmt")
    datas, _ = DEALS["x-nimmt"]
    deal_services.deal_record(match=match, number=1, entries=entries(players, *datas))
    deal_services.deal_record(match=match, number=2, entries=entries(
        players, {"hand": 1}, {"hand": 1}, {}
    ))
    deal = deal_services.deal_edit(match=match, number=1, version=1, entries=entries(
        players, {"hand": 0}, {"hand": 10}, {"hand": 0}
    ))
    assert deal.version == 2
    assert totals(match) == {"Anna": (1, 2, False), "Ben": (11, 3, False), "Cem": (0, 1, False)}


@pytest.mark.django_db
def test_it_refuses_a_save_based_on_a_stale_version(group: Group, players: list[Player]) -> None:
    match = start(group, players, "freaky")
    deal_services.deal_record(match=match, number=1, entries=entries(
        players, {"collected": 8}, {"collected": 4}, {"collected": 0}
    ))
    deal_services.deal_edit(match=match, number=1, version=1, entries=entries(
        players, {"collected": 9}, {"collected": 4}, {"collected": 0}
    ))
    with pytest.raises(sheet_services.StaleData, match="changed on another phone"):
        deal_services.deal_edit(match=match, number=1, version=1, entries=entries(
            players, {"collected": 20}, {"collected": 4}, {"collected": 0}
        ))
    assert DealScore.objects.get(deal__match=match, player=players[0]).score == 9
    assert Deal.objects.get(match=match).version == 2


@pytest.mark.django_db
def test_it_refuses_a_deal_another_phone_recorded_meanwhile(
    group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    deal_services.deal_record(match=match, number=1, entries=entries(players, {}, {}, {"hand": 1}))
    with pytest.raises(sheet_services.StaleData, match="Deal 1 was recorded on another phone"):
        deal_services.deal_record(match=match, number=1, entries=entries(players, {}, {}, {}))
    assert match.deals.count() == 1


@pytest.mark.django_db
def test_it_deletes_a_deal_and_renumbers_the_later_ones(
    group: Group, players: list[Player]
) -> None:
    match = start(group, players, "dreizehn")
    for hand in (1, 2, 3):
        deal_services.deal_record(match=match, number=hand, entries=entries(
            players, {"red": hand}, {}, {}
        ))
    deal_services.deal_delete(match=match, number=2, version=1)
    assert list(match.deals.values_list("number", flat=True)) == [1, 2]
    assert DealScore.objects.get(deal__match=match, deal__number=2, player=players[0]).score == 6
    assert totals(match)["Anna"] == (8, 3, False)


@pytest.mark.django_db
def test_undo_reverts_record_edit_and_delete_in_turn(group: Group, players: list[Player]) -> None:
    match = start(group, players, "x-nimmt")
    deal_services.deal_record(match=match, number=1, entries=entries(players, {"hand": 5}, {}, {}))
    deal_services.deal_record(match=match, number=2, entries=entries(players, {"hand": 7}, {}, {}))
    deal_services.deal_edit(match=match, number=1, version=1, entries=entries(
        players, {"hand": 9}, {}, {}
    ))
    deal_services.deal_delete(match=match, number=1, version=2)
    assert totals(match)["Anna"][0] == 7

    deal_services.match_undo(match=match)  # the delete
    assert list(match.deals.values_list("number", flat=True)) == [1, 2]
    assert totals(match)["Anna"][0] == 16
    deal_services.match_undo(match=match)  # the edit
    assert totals(match)["Anna"][0] == 12
    deal_services.match_undo(match=match)  # deal 2
    assert totals(match)["Anna"][0] == 5
    deal_services.match_undo(match=match)  # deal 1
    assert not match.deals.exists()
    assert totals(match)["Anna"] == (0, 1, False)
    with pytest.raises(ValidationError, match="nothing to undo"):
        deal_services.match_undo(match=match)


@pytest.mark.django_db
def test_undo_refuses_when_another_phone_changed_the_sheet(
    group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    deal_services.deal_record(match=match, number=1, entries=entries(players, {}, {}, {}))
    seen = match.changes.get().pk
    deal_services.deal_edit(match=match, number=1, version=1, entries=entries(
        players, {"collected": 4}, {}, {}
    ))
    with pytest.raises(sheet_services.StaleData):
        deal_services.match_undo(match=match, change_id=seen)
    assert match.changes.count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(DEALS))
def test_nothing_is_saved_on_invalid_input(group: Group, players: list[Player], game: str) -> None:
    match = start(group, players, game)
    bad = {
        "x-nimmt": ({"hand": 200}, {}, {}),
        "elf-nimmt": ({"hand_cards": [7]}, {"went_out": True}, {"hand_cards": [7, 8]}),
        "freaky": ({"collected": 60}, {"collected": 49}, {}),
        "dreizehn": ({"yellow": 10}, {"yellow": 5}, {}),
        "drei-sind-einer-zuviel": ({"taken": {"rot": 13}}, {}, {}),
    }[game]
    with pytest.raises(ScoringError):
        deal_services.deal_record(match=match, number=1, entries=entries(players, *bad))
    assert not Deal.objects.exists()
    assert not DealScore.objects.exists()
    assert not MatchChange.objects.exists()


@pytest.mark.django_db
def test_finishing_needs_every_deal(group: Group, players: list[Player]) -> None:
    match = start(group, players, "x-nimmt")
    deal_services.deal_record(match=match, number=1, entries=entries(players, {"hand": 4}, {}, {}))
    with pytest.raises(ValidationError, match="1 of 2 deals recorded"):
        match_services.match_finish(match=match)
    deal_services.deal_record(match=match, number=2, entries=entries(players, {}, {"hand": 1}, {}))
    with pytest.raises(ValidationError, match="The match is complete: all 2 deals"):
        deal_services.deal_record(match=match, number=3, entries=entries(players, {}, {}, {}))
    match = match_services.match_finish(match=match)
    assert match.status == Match.Status.FINISHED
    assert match.finished_at is not None
    assert totals(match) == {"Anna": (4, 3, False), "Ben": (1, 2, False), "Cem": (0, 1, True)}


@pytest.mark.django_db
def test_a_finished_match_is_read_only_until_reopened(group: Group, players: list[Player]) -> None:
    match = start(group, players, "freaky")
    deal_services.deal_record(match=match, number=1, entries=entries(
        players, {"collected": 4}, {}, {}
    ))
    match = match_services.match_finish(match=match)
    with pytest.raises(ValidationError, match="Reopen it"):
        deal_services.deal_edit(match=match, number=1, version=1, entries=entries(
            players, {}, {"collected": 4}, {}
        ))
    match = match_services.match_reopen(match=match)
    assert match.status == Match.Status.OPEN
    assert not Seat.objects.filter(match=match, is_winner=True).exists()
    deal_services.deal_edit(match=match, number=1, version=1, entries=entries(
        players, {}, {"collected": 4}, {}
    ))
    match = match_services.match_finish(match=match)
    assert totals(match) == {"Anna": (0, 2, False), "Ben": (4, 1, True), "Cem": (0, 2, False)}


@pytest.mark.django_db
def test_13_with_three_players_has_six_deals(group: Group, players: list[Player]) -> None:
    match = start(group, players, "dreizehn", options={"variant": "first-card"})
    assert sheet_services.deals_needed(match, 3) == 6
    assert match.options == {"variant": "first-card"}


# ------------------------------------------------------------------------- live mode


def tap(match: Match, player: Player, *colours: str) -> None:
    for colour in colours:
        match.refresh_from_db()
        live_services.live_step(
            match=match, revision=match.options.get("live_rev", 0), action="take",
            data={"player": player.pk, "colour": colour},
        )


def end_turn(match: Match) -> None:
    match.refresh_from_db()
    live_services.live_step(match=match, revision=match.options["live_rev"], action="end", data={})


ALL = ("orange", "flieder", "hellblau", "rot", "tuerkis", "magenta", "olivgruen")


@pytest.mark.django_db
def test_live_mode_gives_the_same_score_as_the_counts(group: Group, players: list[Player]) -> None:
    anna, ben, cem = players
    match = start(group, players, "drei-sind-einer-zuviel")
    for colour in ALL:  # seven turns of one card each: the 10 after the last one
        tap(match, anna, colour)
        end_turn(match)
    tap(match, ben, "rot", "rot", "rot")  # one turn: three face down
    tap(match, cem, "orange")
    match.refresh_from_db()
    assert [turn[1] for turn in match.options["live_turns"]] == [
        *([c] for c in ALL), ["rot", "rot", "rot"], ["orange"],
    ]
    match.refresh_from_db()
    live_services.live_save(match=match, revision=match.options["live_rev"])
    match.refresh_from_db()
    # Saving the board again asks first, in the glossary's words (a match, not a "game").
    with translation.override("en"), pytest.raises(ValidationError,
                                                   match="a result for this match"):
        live_services.live_save(match=match, revision=match.options["live_rev"])
    live_scores = {s.player.name: s.score for s in DealScore.objects.select_related("player")}
    # Anna: 7 × 1 open + interim 10 + final 10 = 27; Ben: −3; Cem: 1.
    assert live_scores == {"Anna": 27, "Ben": -3, "Cem": 1}
    anna_data = DealScore.objects.get(player=anna).data
    assert anna_data["interim_bonus"] == 10

    other = start(group, players, "drei-sind-einer-zuviel")
    deal_services.deal_record(match=other, number=1, entries=entries(
        players,
        {"taken": dict.fromkeys(ALL, 1), "interim_bonus": 10},
        {"taken": {"rot": 3}},
        {"taken": {"orange": 1}},
    ))
    counted = {s.player.name: s.score for s in DealScore.objects.filter(deal__match=other)
               .select_related("player")}
    assert counted == live_scores


@pytest.mark.django_db
def test_live_mode_refuses_a_stale_tap_and_a_thirteenth_card(
    group: Group, players: list[Player]
) -> None:
    anna, ben, _cem = players
    match = start(group, players, "drei-sind-einer-zuviel")
    tap(match, anna, "rot")
    with pytest.raises(sheet_services.StaleData):
        live_services.live_step(
            match=match, revision=0, action="take", data={"player": ben.pk, "colour": "rot"},
        )
    for _ in range(11):
        tap(match, ben, "rot")
        end_turn(match)
    with pytest.raises(ScoringError, match="only 12"):
        tap(match, anna, "rot")
    match.refresh_from_db()
    assert sum(len(turn[1]) for turn in match.options["live_turns"]) == 12


@pytest.mark.django_db
def test_live_undo_takes_back_the_last_card(group: Group, players: list[Player]) -> None:
    anna = players[0]
    match = start(group, players, "drei-sind-einer-zuviel")
    tap(match, anna, "rot", "orange")
    match.refresh_from_db()
    live_services.live_undo(match=match, revision=match.options["live_rev"])
    match.refresh_from_db()
    assert match.options["live_turns"] == [[anna.pk, ["rot"], False]]


@pytest.mark.django_db
def test_messages_follow_the_active_language(group: Group, players: list[Player]) -> None:
    match = start(group, players, "freaky")
    with translation.override("de"), pytest.raises(ValidationError, match="nichts rückgängig"):
        deal_services.match_undo(match=match)


def collect(match: Match, player: Player, *rows: int) -> None:
    for cards in rows:
        match.refresh_from_db()
        live_services.live_step(
            match=match, revision=match.options.get("live_rev", 0), action="collect",
            data={"player": player.pk, "cards": cards},
        )


@pytest.mark.django_db
def test_freaky_live_adds_up_the_collected_rows(group: Group, players: list[Player]) -> None:
    anna, ben, _cem = players
    match = start(group, players, "freaky")
    collect(match, anna, 4, 6)
    collect(match, ben, 5)
    collect(match, anna, 4)
    match.refresh_from_db()
    live_services.live_undo(match=match, revision=match.options["live_rev"])
    with pytest.raises(ValidationError, match="at least 4 cards"):
        collect(match, ben, 3)
    match.refresh_from_db()
    live_services.live_save(match=match, revision=match.options["live_rev"])
    assert totals(match) == {"Anna": (10, 1, False), "Ben": (5, 2, False), "Cem": (0, 3, False)}


@pytest.mark.django_db
def test_freaky_live_refuses_more_than_108_cards(group: Group, players: list[Player]) -> None:
    anna, ben, _cem = players
    match = start(group, players, "freaky")
    collect(match, anna, 60)
    with pytest.raises(ScoringError, match="109 cards collected in total"):
        collect(match, ben, 49)
    match.refresh_from_db()
    assert match.options["live_rows"] == [[anna.pk, 60]]
